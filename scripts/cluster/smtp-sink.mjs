// @ts-check
/**
 * The cluster's SMTP sink (a host of its own): accepts every message and
 * keeps, per accepted message, its recipients, its Message-ID and when it was
 * accepted, so a scenario can count who got what how many times and see how
 * long sending stalled. Over HTTP on the same host:
 *   GET /count[?prefix=<campaign-...]  -> { accepted } (those whose Message-ID starts so)
 *   GET /report  -> { accepted, messages: [[at, messageId, recipients[]], ...] }
 *   POST /reset  -> forgets everything
 *
 *   node smtp-sink.mjs <address> <smtp port> <http port>
 */
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

const [address = '0.0.0.0', smtpPort = '2525', httpPort = '8025'] = process.argv.slice(2);
/** Headers end before this many bytes in every mail of the product. */
const HEADER_BYTES = 16 * 1024;

/** @type {[number, string, string[]][]} */
let messages = [];

/** @param {string} head the headers: a long one is folded onto the next line */
function messageIdOf(head) {
  return /^message-id:[ \t]*(\S+)/im.exec(head.replace(/\r\n[ \t]+/g, ' '))?.[1] ?? '';
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // Three worker hosts keep pools of connections open for a whole campaign.
  maxClients: 2000,
  onData(stream, session, callback) {
    let head = '';
    stream.on('data', (/** @type {Buffer} */ chunk) => {
      if (head.length < HEADER_BYTES && !head.includes('\r\n\r\n'))
        head += chunk.toString('latin1');
    });
    stream.on('end', () => {
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
      messages.push([Date.now(), messageIdOf(head.split('\r\n\r\n')[0] ?? ''), recipients]);
      callback();
    });
  },
});
smtp.on('error', () => undefined);

const http = createServer((request, response) => {
  if (request.method === 'POST' && request.url === '/reset') {
    messages = [];
    response.writeHead(204).end();
  } else if (request.method === 'GET' && request.url?.startsWith('/count')) {
    const prefix = new URL(request.url, 'http://sink').searchParams.get('prefix') ?? '';
    const accepted = prefix
      ? messages.filter(([, messageId]) => messageId.startsWith(prefix)).length
      : messages.length;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ accepted }));
  } else if (request.method === 'GET' && request.url === '/report') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ accepted: messages.length, messages }));
  } else {
    response.writeHead(404).end();
  }
});

smtp.listen(Number(smtpPort), address, () => {
  http.listen(Number(httpPort), address, () => console.log(`sink ready on ${address}`));
});
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT'])) {
  process.on(signal, () => process.exit(0));
}
