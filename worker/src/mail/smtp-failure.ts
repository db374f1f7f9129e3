/** What Nodemailer adds to the Error of a send the SMTP server refused or that never got through. */
interface SmtpError extends Error {
  /** The server's reply code (451, 550...), when it replied. */
  responseCode?: number;
  /** The server's reply line, e.g. "550 5.1.1 No such user". */
  response?: string;
  /** Nodemailer's own classification: EENVELOPE, EMESSAGE, ECONNECTION, EAUTH... */
  code?: string;
}

function asSmtpError(error: unknown): SmtpError | undefined {
  return error instanceof Error ? (error as SmtpError) : undefined;
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
