/**
 * The bounce mailbox's settings, apart from the code that reads it: the
 * worker loads the IMAP client and the mail parser only when a mailbox is
 * set (they weigh about 10 MB per worker process), and its configuration
 * and start-up log need no more than this.
 */

/** Where returned mail is read, and where it goes once read. */
export interface BounceMailboxSettings {
  host: string;
  port: number;
  /** TLS from the first byte (imaps). */
  secure: boolean;
  /** Without `secure`: refuse to log in unless the server upgrades with STARTTLS. */
  requireTls: boolean;
  user: string;
  password: string;
  /** The folder returned mail arrives in. */
  mailbox: string;
  /** Where each report is moved once its bounces are recorded; created when missing. */
  processedFolder: string;
}

/** Where a log line says the mailbox is: never the password. */
export function mailboxLabel({ host, port, user, mailbox }: BounceMailboxSettings) {
  return { host, port, user, mailbox };
}
