import { expect, type APIRequestContext } from '@playwright/test';
import { mailCatcherUrl } from './e2e-env';

/**
 * Reads the mail the stack sent from MailDev's REST API (`GET /email`), the
 * same catcher `npm start`, the e2e stack and docker compose run:
 *
 *   const mail = await waitForMail(request, { to: notificationRecipient(), containing: text });
 *   expect(mail.subject).toContain('New enquiry');
 */

interface Address {
  address: string;
  name: string;
}

/** One caught mail, as MailDev's REST API gives it. */
export interface CaughtMail {
  id: string;
  /** When MailDev received it (ISO 8601). */
  time: string;
  subject: string;
  from: Address[];
  to: Address[];
  cc?: Address[];
  text?: string;
  html?: string;
  /** Header names in lower case. */
  headers: Record<string, string | string[]>;
  /** Where the mail was really sent (SMTP RCPT TO), Bcc included. */
  envelope: { from: { address: string }; to: { address: string }[] };
}

/** Every condition given must hold; `to` matches To, Cc or the SMTP envelope. */
export interface MailQuery {
  to?: string;
  subject?: string | RegExp;
  /** Text that the plain-text or HTML body contains. */
  containing?: string;
}

function recipients(mail: CaughtMail): string[] {
  const listed = [...mail.to, ...(mail.cc ?? []), ...mail.envelope.to];
  return listed.map((entry) => entry.address.toLowerCase());
}

function matches(mail: CaughtMail, { to, subject, containing }: MailQuery): boolean {
  if (to && !recipients(mail).includes(to.toLowerCase())) return false;
  if (typeof subject === 'string' && !mail.subject.includes(subject)) return false;
  if (subject instanceof RegExp && !subject.test(mail.subject)) return false;
  if (containing && !`${mail.text ?? ''}\n${mail.html ?? ''}`.includes(containing)) return false;
  return true;
}

/** Which MailDev to read: the e2e stack's unless told otherwise. */
interface CatcherOptions {
  catcherUrl?: string;
}

/** The caught mails that match `query`, newest first. */
export async function listMails(
  request: APIRequestContext,
  query: MailQuery = {},
  { catcherUrl = mailCatcherUrl() }: CatcherOptions = {},
): Promise<CaughtMail[]> {
  const response = await request.get(new URL('/email', catcherUrl).toString());
  if (!response.ok()) throw new Error(`MailDev answered ${response.status()} to GET /email`);
  const mails = (await response.json()) as CaughtMail[];
  return mails.filter((mail) => matches(mail, query)).reverse();
}

/** Waits until a mail matching `query` has arrived, and returns the newest such mail. */
export async function waitForMail(
  request: APIRequestContext,
  query: MailQuery,
  { timeout = 15_000, catcherUrl = mailCatcherUrl() }: CatcherOptions & { timeout?: number } = {},
): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        [found] = await listMails(request, query, { catcherUrl });
        return found !== undefined;
      },
      { timeout, message: `a mail matching ${JSON.stringify(query)} arrives in MailDev` },
    )
    .toBe(true);
  if (!found) throw new Error('unreachable: the poll above only passes once a mail is found');
  return found;
}
