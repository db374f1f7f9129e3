// @ts-check
/**
 * A local SMTP sink with a small web page and JSON API, so a person (npm
 * start) or a test (e2e) can read the mail the worker sends. Messages live in
 * memory only.
 */
import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { LOOPBACK } from './ports.mjs';

/** @typedef {import('mailparser').ParsedMail} ParsedMail */
/** @typedef {import('mailparser').AddressObject} AddressObject */
/** @typedef {import('mailparser').HeaderValue} HeaderValue */
/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * @typedef {object} CaughtMessage
 * @property {string} id
 * @property {string} from the From header as written ("Name <address>")
 * @property {string[]} to addresses of the To header
 * @property {string[]} cc addresses of the Cc header
 * @property {{ from: string, to: string[] }} envelope the SMTP envelope (where it was really sent)
 * @property {string} subject
 * @property {string} text plain-text body (derived from the HTML when there is no text part)
 * @property {string | null} html
 * @property {Record<string, string>} headers a useful subset: message-id, date, reply-to, content-language, x-*
 * @property {{ filename: string | null, contentType: string, size: number }[]} attachments
 * @property {string} receivedAt ISO 8601
 */

/**
 * @typedef {object} MailCatcher
 * @property {string} smtpUrl e.g. smtp://127.0.0.1:1025
 * @property {string} httpUrl e.g. http://127.0.0.1:8025
 * @property {() => CaughtMessage[]} messages newest first
 * @property {() => Promise<void>} stop
 */

export const MAX_MESSAGES_KEPT = 1000;
const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
const KEPT_HEADERS = ['message-id', 'date', 'reply-to', 'in-reply-to', 'content-language'];

/** @param {AddressObject | AddressObject[] | undefined} field */
function addressesOf(field) {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) =>
    object.value.flatMap((entry) => [
      ...(entry.address ? [entry.address] : []),
      ...(entry.group ?? []).flatMap((member) => (member.address ? [member.address] : [])),
    ]),
  );
}

/**
 * @param {HeaderValue} value
 * @returns {string}
 */
function headerText(value) {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => headerText(item)).join(', ');
  if ('text' in value) return value.text;
  if ('value' in value) return value.value;
  return '';
}

/** @param {ParsedMail} parsed */
function keptHeaders(parsed) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [name, value] of parsed.headers) {
    if (KEPT_HEADERS.includes(name) || name.startsWith('x-')) headers[name] = headerText(value);
  }
  return headers;
}

/**
 * @param {string} id
 * @param {ParsedMail} parsed
 * @param {{ from: string, to: string[] }} envelope
 * @returns {CaughtMessage}
 */
function toCaughtMessage(id, parsed, envelope) {
  return {
    id,
    from: parsed.from?.text ?? envelope.from,
    to: addressesOf(parsed.to),
    cc: addressesOf(parsed.cc),
    envelope,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : null,
    headers: keptHeaders(parsed),
    attachments: parsed.attachments.map((attachment) => ({
      filename: attachment.filename ?? null,
      contentType: attachment.contentType,
      size: attachment.size,
    })),
    receivedAt: new Date().toISOString(),
  };
}

/** @param {string} text */
export function escapeHtml(text) {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** @param {CaughtMessage} message */
function messageCard(message) {
  const htmlLink = message.html
    ? ` &middot; <a href="/messages/${encodeURIComponent(message.id)}/html">HTML version</a>`
    : '';
  return `<article>
  <h2>${escapeHtml(message.subject || '(no subject)')}</h2>
  <p class="meta"><strong>From</strong> ${escapeHtml(message.from)}
    &middot; <strong>To</strong> ${escapeHtml(message.to.join(', ') || message.envelope.to.join(', '))}
    &middot; <time datetime="${message.receivedAt}">${escapeHtml(message.receivedAt)}</time>${htmlLink}</p>
  <pre>${escapeHtml(message.text)}</pre>
</article>`;
}

/** @param {CaughtMessage[]} messages newest first */
export function renderInboxPage(messages) {
  const body = messages.length
    ? messages.map(messageCard).join('\n')
    : '<p>No mail yet. Messages sent to this catcher appear here.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Mail catcher (${messages.length})</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
  article { border: 1px solid #ddd; border-radius: 6px; padding: 0 1rem; margin: 1rem 0; }
  .meta { color: #555; font-size: 0.9rem; }
  pre { white-space: pre-wrap; background: #f7f7f7; padding: 0.75rem; border-radius: 4px; }
</style>
</head>
<body>
<h1>Mail catcher</h1>
<p>${messages.length} message(s), newest first. <a href="/">Refresh</a> &middot;
  <a href="/api/messages">JSON</a> &middot;
  <button type="button" onclick="fetch('/api/messages', { method: 'DELETE' }).then(() => location.reload())">Delete all</button></p>
${body}
</body>
</html>
`;
}

/**
 * @param {ServerResponse} response
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

/**
 * @param {ServerResponse} response
 * @param {string} html
 * @param {Record<string, string>} [headers]
 */
function sendHtml(response, html, headers = {}) {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(html);
}

/**
 * @param {CaughtMessage[]} store newest first
 * @returns {(request: IncomingMessage, response: ServerResponse) => void}
 */
function createRequestHandler(store) {
  return (request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://catcher');
    const method = request.method ?? 'GET';
    const messageId = /^\/api\/messages\/([^/]+)$/.exec(pathname)?.[1];
    const htmlId = /^\/messages\/([^/]+)\/html$/.exec(pathname)?.[1];
    const find = (/** @type {string} */ id) =>
      store.find((message) => message.id === decodeURIComponent(id));

    if (method === 'GET' && pathname === '/') return sendHtml(response, renderInboxPage(store));
    if (method === 'GET' && pathname === '/api/messages') return sendJson(response, 200, store);
    if (method === 'DELETE' && pathname === '/api/messages') {
      store.length = 0;
      response.writeHead(204).end();
      return;
    }
    if (messageId && method === 'GET') {
      const message = find(messageId);
      return message
        ? sendJson(response, 200, message)
        : sendJson(response, 404, { error: 'No such message' });
    }
    if (htmlId && method === 'GET') {
      const html = find(htmlId)?.html;
      if (!html) return sendJson(response, 404, { error: 'No HTML body' });
      // The mail's own HTML runs with no script, no network and no same-origin access.
      return sendHtml(response, html, {
        'content-security-policy':
          "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'",
      });
    }
    sendJson(response, 404, { error: `No route for ${method} ${pathname}` });
  };
}

/**
 * @param {{ listen: (port: number, host: string, callback: () => void) => unknown, once: (event: 'error', listener: (error: Error) => void) => unknown }} server
 * @param {number} port
 * @param {string} host
 */
function listen(server, port, host) {
  return /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    })
  );
}

/** @param {import('node:net').AddressInfo | string | null} address */
function portOf(address) {
  if (typeof address === 'object' && address) return address.port;
  throw new Error('Server is not listening on a TCP port');
}

/**
 * Starts the SMTP sink and its web page. Ports default to 0 (any free one).
 * @param {{ host?: string, smtpPort?: number, httpPort?: number }} [options]
 * @returns {Promise<MailCatcher>}
 */
export async function startMailCatcher({ host = LOOPBACK, smtpPort = 0, httpPort = 0 } = {}) {
  /** @type {CaughtMessage[]} newest first */
  const store = [];
  let sequence = 0;

  const smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: MAX_MESSAGE_BYTES,
    closeTimeout: 500,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mailFrom = session.envelope.mailFrom;
          const envelope = {
            from: mailFrom ? mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
          };
          store.unshift(toCaughtMessage(String(++sequence), parsed, envelope));
          if (store.length > MAX_MESSAGES_KEPT) store.length = MAX_MESSAGES_KEPT;
          callback();
        })
        .catch((/** @type {unknown} */ error) =>
          callback(error instanceof Error ? error : new Error(String(error))),
        );
    },
  });
  // A client that disconnects mid-session must not crash the catcher.
  smtp.on('error', (error) => console.warn(`[mail-catcher] SMTP: ${error.message}`));
  const http = createServer(createRequestHandler(store));

  await listen(smtp.server, smtpPort, host);
  try {
    await listen(http, httpPort, host);
  } catch (error) {
    await new Promise((resolve) => smtp.close(() => resolve(undefined)));
    throw error;
  }

  return {
    smtpUrl: `smtp://${host}:${portOf(smtp.server.address())}`,
    httpUrl: `http://${host}:${portOf(http.address())}`,
    messages: () => [...store],
    stop: async () => {
      http.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => http.close(() => resolve(undefined))),
        new Promise((resolve) => smtp.close(() => resolve(undefined))),
      ]);
    },
  };
}
