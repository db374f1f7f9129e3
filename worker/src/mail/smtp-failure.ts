/** What Nodemailer adds to the Error of a send the SMTP server refused or that never got through. */
interface SmtpError extends Error {
  /** The server's reply code (451, 550...), when it replied. */
  responseCode?: number;
  /** The server's reply line, e.g. "550 5.1.1 No such user". */
  response?: string;
  /** Nodemailer's own classification: EENVELOPE, EMESSAGE, ECONNECTION, EAUTH... */
  code?: string;
  /** The socket's own code (ECONNREFUSED...) when Nodemailer filed it under ESOCKET. */
  originalCode?: string;
}

/**
 * Any thrown object, not only `instanceof Error`: a socket's error comes from
 * Node's own realm, which an Error check made in another (a test's VM) misses.
 */
function asSmtpError(error: unknown): SmtpError | undefined {
  return typeof error === 'object' && error !== null ? (error as SmtpError) : undefined;
}

/**
 * A 5xx reply refuses this message for good (unknown mailbox, rejected
 * content): retrying only repeats it. Connection errors and 4xx replies
 * (greylisting, a full queue) are worth retrying later. A refused login is
 * the operator's to fix for every mail at once, so it is retried like an
 * outage rather than failing each mail.
 */
export function isPermanentSmtpFailure(error: unknown): boolean {
  const smtp = asSmtpError(error);
  const code = smtp?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600 && smtp?.code !== 'EAUTH';
}

/** The server's own words when it replied, else the error's message: what staff need to see. */
export function smtpFailureReason(error: unknown): string {
  const smtp = asSmtpError(error);
  if (smtp?.response) return smtp.response;
  return smtp?.message ?? String(error);
}

/**
 * Codes of a server that could not be reached or lost mid-exchange: the
 * socket's own (refused, timed out, no route, no such host) and Nodemailer's
 * (ECONNECTION for a dropped connection, ETIMEDOUT for a greeting that never
 * came, ETLS for a failed handshake, EDNS, ESOCKET). Every mail fails alike
 * until the server is back, so none of them says anything about a recipient.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNECTION',
  'ESOCKET',
  'EDNS',
  'ETLS',
]);

/** The campaign transport's own words when a pooled connection ends under a send. */
const CLOSED_CONNECTION = /closed the connection/i;

/** The mail server could not be reached, or dropped the connection: no reply about this mail. */
export function isConnectionFailure(error: unknown): boolean {
  const smtp = asSmtpError(error);
  if (!smtp || typeof smtp.responseCode === 'number') return false;
  return (
    (smtp.code !== undefined && CONNECTION_CODES.has(smtp.code)) ||
    CLOSED_CONNECTION.test(String(smtp.message))
  );
}

/** What an operator reads of a connection failure: its code, else its message. */
export function connectionFailureCode(error: unknown): string {
  const smtp = asSmtpError(error);
  return smtp?.originalCode ?? smtp?.code ?? smtp?.message ?? String(error);
}
