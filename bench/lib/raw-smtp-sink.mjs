// @ts-check
/**
 * The receiving end of `npm run bench:mail`: an SMTP server that accepts
 * every command and every message, and reads of each message no more than
 * its end. It stands for the mail servers of the internet, whose CPU is not
 * the sender's; on a machine of two cores it runs on the cores the campaign's
 * processes share, so it must cost as little as it can.
 *
 * smtp-server (the sink before, still `--sink smtp-server`) parses every
 * command and streams every message through its transforms: about 160 µs of
 * CPU per short message on the bench's machine, against about 95 µs here,
 * most of it the socket reads and writes any server makes. The send path
 * alone's rate does not move with it (its sink runs on the other core); the
 * campaign's does, by the sink's CPU it no longer shares.
 */
import { createServer } from 'node:net';

/** A message ends at a line holding a lone dot: CRLF "." CRLF. */
const END_OF_DATA = Buffer.from('\r\n.\r\n');
/** So that a message's end found right after DATA (an empty message) reads as CRLF "." CRLF. */
const LINE_START = Buffer.from('\r\n');

const GREETING = '220 bench-sink ESMTP\r\n';
const EHLO_REPLY =
  '250-bench-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 ENHANCEDSTATUSCODES\r\n';

/**
 * @typedef {{
 *   onRecipient: (address: string) => void,
 *   onMessage: () => void,
 * }} SinkEvents
 */

/** The address in `RCPT TO:<address> ...`, as the client wrote it. */
function recipientOf(/** @type {string} */ line) {
  const open = line.indexOf('<');
  const close = line.indexOf('>', open + 1);
  return open === -1 || close === -1 ? line.slice(8).trim() : line.slice(open + 1, close);
}

/**
 * Answers one command line; `DATA` switches the connection to reading a
 * message, which the caller does.
 * @param {string} line
 * @param {SinkEvents} events
 * @returns {{ reply: string, data?: true, quit?: true }}
 */
function answer(line, events) {
  const verb = line.slice(0, 4).toUpperCase();
  switch (verb) {
    case 'EHLO':
      return { reply: EHLO_REPLY };
    case 'HELO':
      return { reply: '250 bench-sink\r\n' };
    case 'MAIL':
      return { reply: '250 2.1.0 Ok\r\n' };
    case 'RCPT':
      events.onRecipient(recipientOf(line));
      return { reply: '250 2.1.5 Ok\r\n' };
    case 'DATA':
      return { reply: '354 End data with <CR><LF>.<CR><LF>\r\n', data: true };
    case 'QUIT':
      return { reply: '221 2.0.0 Bye\r\n', quit: true };
    default:
      // RSET, NOOP and anything else a client may send between mails.
      return { reply: '250 2.0.0 Ok\r\n' };
  }
}

/**
 * One connection: command lines answered as they come (pipelined ones in
 * one write), a message skipped up to its end.
 * @param {import('node:net').Socket} socket
 * @param {SinkEvents} events
 */
function serve(socket, events) {
  socket.setNoDelay(true);
  socket.on('error', () => undefined);
  let inMessage = false;
  /** What was read and not yet consumed: a partial line, or a message's tail. */
  let unread = /** @type {Buffer} */ (Buffer.alloc(0));
  socket.write(GREETING);
  socket.on('data', (/** @type {Buffer} */ chunk) => {
    unread = unread.length === 0 ? chunk : Buffer.concat([unread, chunk]);
    let replies = '';
    let at = 0;
    for (;;) {
      if (inMessage) {
        const end = unread.indexOf(END_OF_DATA, at);
        if (end === -1) {
          // Keep what could be the start of the end, split between two reads.
          at = Math.max(at, unread.length - (END_OF_DATA.length - 1));
          break;
        }
        at = end + END_OF_DATA.length;
        inMessage = false;
        events.onMessage();
        replies += '250 2.0.0 Ok: queued\r\n';
        continue;
      }
      const lineEnd = unread.indexOf(10, at);
      if (lineEnd === -1) break;
      const line = unread.toString('latin1', at, lineEnd).trimEnd();
      at = lineEnd + 1;
      const { reply, data, quit } = answer(line, events);
      replies += reply;
      if (quit) {
        socket.end(replies);
        return;
      }
      if (data) {
        inMessage = true;
        unread = Buffer.concat([unread.subarray(0, at), LINE_START, unread.subarray(at)]);
      }
    }
    unread = unread.subarray(at);
    if (replies) socket.write(replies);
  });
}

/**
 * @param {SinkEvents} events
 * @returns {import('node:net').Server}
 */
export function createRawSmtpSink(events) {
  return createServer((socket) => serve(socket, events));
}
