// @ts-check
/**
 * The SMTP sink of `npm run bench:mail`, in a process of its own so that its
 * work is not timed as the sender's: accepts every message, keeps each RCPT
 * TO and the time of the first and last accepted message. Driven over IPC:
 * { type: 'report' } answers the figures (with its own CPU time and, under
 * smtp-server, the bytes of message data), { type: 'reset' } starts again.
 *
 * `node mail-sink.mjs [raw | smtp-server]`: the bench's own lean server
 * (lib/raw-smtp-sink.mjs, the default), or smtp-server as the sink was
 * before, to compare with figures measured with it.
 */
import { SMTPServer } from 'smtp-server';
import { createRawSmtpSink } from './lib/raw-smtp-sink.mjs';

/** @type {Map<string, number>} */
let rcpt = new Map();
let accepted = 0;
let firstAt = 0;
let lastAt = 0;
/** Bytes of message data received (smtp-server only: the lean sink reads no more than each end). */
let bytes = 0;
/** CPU spent since the last reset: what the sink's share of the machine costs per message. */
let cpuSince = process.cpuUsage();

function countRecipient(/** @type {string} */ address) {
  rcpt.set(address, (rcpt.get(address) ?? 0) + 1);
}

function countMessage() {
  const now = performance.timeOrigin + performance.now();
  if (accepted === 0) firstAt = now;
  lastAt = now;
  accepted += 1;
}

function smtpServerSink() {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // The bench sends from one host over a few connections for a long time.
    maxClients: 1000,
    onRcptTo(address, _session, callback) {
      countRecipient(address.address);
      callback();
    },
    onData(stream, _session, callback) {
      stream.on('data', (/** @type {Buffer} */ chunk) => (bytes += chunk.length));
      stream.on('end', () => {
        countMessage();
        callback();
      });
      stream.resume();
    },
  });
  server.on('error', () => undefined);
  return server.server;
}

const server =
  process.argv[2] === 'smtp-server'
    ? smtpServerSink()
    : createRawSmtpSink({ onRecipient: countRecipient, onMessage: countMessage });

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({
    type: 'ready',
    port: typeof address === 'object' && address ? address.port : 0,
  });
});

process.on('message', (/** @type {{ type: string }} */ message) => {
  if (message.type === 'reset') {
    rcpt = new Map();
    accepted = 0;
    firstAt = 0;
    lastAt = 0;
    bytes = 0;
    cpuSince = process.cpuUsage();
    process.send?.({ type: 'reset' });
  } else if (message.type === 'report') {
    const { user, system } = process.cpuUsage(cpuSince);
    process.send?.({
      type: 'report',
      accepted,
      firstAt,
      lastAt,
      cpuMicros: user + system,
      bytes: process.argv[2] === 'smtp-server' ? bytes : null,
      rcpt: [...rcpt],
    });
  }
});
process.on('disconnect', () => server.close(() => process.exit(0)));
