import { isValidObjectId, trusted } from 'mongoose';
import {
  DEFAULT_LOCALE,
  NEWSLETTER_CONFIRMATION_TTL_MS,
  NEWSLETTER_CONSENT_WORDING_VERSION,
  QUEUE_NAMES,
  type Locale,
  type SubscriberStatus,
  type NewsletterConfirmationJob,
  type NewsletterSource,
} from '@agency/contracts';
import {
  SubscriberModel,
  type SubscriberDocument,
  type UnsubscribeMethod,
} from './subscriber.model';
import {
  normalizeEmail,
  verifyConfirmationToken,
  verifyUnsubscribeToken,
} from './newsletter-token';
import { isDuplicateKeyError } from '../../database-errors';
import { oneWriterPerDocument } from '../../embedded-store';
import type { SubscriberChanges } from './subscriber-changes';
import {
  findReceipt,
  oweMail,
  recordReceipt,
  settleOwedMail,
  type Receipt,
  type ReceiptMail,
} from '../mail-outbox/store';

/** Reads every address on the list once, with its status, as the reconciliation recounts them. */
export async function forEachSubscriber(
  visit: (subscriber: { email: string; status: SubscriberStatus }) => void,
): Promise<void> {
  const cursor = SubscriberModel.find({})
    .select({ email: 1, status: 1, _id: 0 })
    .lean()
    .cursor({ batchSize: 1000 });
  for await (const { email, status } of cursor) {
    visit({ email, status: status as SubscriberStatus });
  }
}

/**
 * One atomic write that inserts the address when it is new, and answers the
 * document as it was before (null for a new one) with the new one's id:
 * from that "before" the kept figures learn which status the address left.
 */
const UPSERT_READING_BEFORE = {
  upsert: true,
  returnDocument: 'before',
  includeResultMetadata: true,
  runValidators: true,
} as const;

export interface SubscriptionRequest {
  email: string;
  locale: Locale;
  source: NewsletterSource;
  /** The visitor's address, kept as part of the consent record. */
  ip: string;
  at?: Date;
}

/**
 * Records a request to join the newsletter and says which confirmation mail
 * it owes, if any. A new, pending or unsubscribed address becomes `pending`
 * with a fresh consent record and one more confirmation mail owed (in the
 * request's language); a confirmed address is left as it is and owes nothing.
 * The caller answers the same in every case.
 */
export async function requestSubscription(
  request: SubscriptionRequest,
  changes: SubscriberChanges,
): Promise<NewsletterConfirmationJob | undefined> {
  const at = request.at ?? new Date();
  const email = normalizeEmail(request.email);
  return oneWriterPerDocument(`subscriber:${email}`, async () => {
    try {
      // One atomic write: an upsert for a new address, an update for one that
      // is pending or left. A confirmed address fails the filter, so the upsert
      // collides with it on the unique e-mail index. The document as it was
      // tells the kept figures which status the address left.
      const written = await SubscriberModel.findOneAndUpdate(
        { email, status: trusted({ $ne: 'confirmed' }) },
        {
          $set: {
            status: 'pending',
            locale: request.locale,
            consent: {
              requestedAt: at,
              ip: request.ip,
              locale: request.locale,
              source: request.source,
              wordingVersion: NEWSLETTER_CONSENT_WORDING_VERSION,
            },
          },
          $inc: { confirmationRequests: 1 },
        },
        UPSERT_READING_BEFORE,
      ).exec();
      const before = written.value;
      const subscriberId = before ? String(before._id) : String(written.lastErrorObject?.upserted);
      const owed = { subscriberId, request: (before?.confirmationRequests ?? 0) + 1 };
      if (before?.status !== 'pending') {
        await changes.statusChanged(email, (before?.status as SubscriberStatus) ?? null, 'pending');
      }
      // The visitor hears "accepted" only once the mail is owed too: if this
      // write fails they are told so, and asking again owes a new mail.
      await oweConfirmationMail(owed);
      return owed;
    } catch (error: unknown) {
      // Confirmed already (or the same address inserted a moment ago by a twin
      // request, whose own answer owes the mail): nothing more to send.
      if (isDuplicateKeyError(error)) return undefined;
      throw error;
    }
  });
}

export type ConfirmOutcome =
  { outcome: 'confirmed'; locale: Locale } | { outcome: 'expired' } | { outcome: 'invalid' };

async function findSubscriber(id: string): Promise<SubscriberDocument | null> {
  return isValidObjectId(id) ? SubscriberModel.findById(id).exec() : null;
}

/**
 * Confirms the subscription a link names. Clicking again is harmless; a link
 * older than the confirmation window, or for an address that has since left,
 * no longer subscribes anyone.
 */
export async function confirmSubscription(
  token: string,
  {
    secret,
    ip,
    now = new Date(),
    changes,
  }: { secret: string; ip: string; now?: Date; changes: SubscriberChanges },
): Promise<ConfirmOutcome> {
  const claims = verifyConfirmationToken(token, secret);
  if (!claims) return { outcome: 'invalid' };
  const subscriber = await findSubscriber(claims.subscriberId);
  if (!subscriber) return { outcome: 'invalid' };
  if (subscriber.status === 'confirmed') {
    return { outcome: 'confirmed', locale: subscriber.locale as Locale };
  }
  const age = now.getTime() - claims.issuedAt.getTime();
  if (subscriber.status !== 'pending' || age > NEWSLETTER_CONFIRMATION_TTL_MS) {
    return { outcome: 'expired' };
  }
  const confirmed = await oneWriterPerDocument(`subscriber:${subscriber.email}`, async () => {
    const written = await SubscriberModel.findOneAndUpdate(
      { _id: subscriber._id, status: 'pending' },
      {
        $set: {
          status: 'confirmed',
          confirmedAt: now,
          'consent.confirmedAt': now,
          'consent.confirmedIp': ip,
        },
      },
      { returnDocument: 'after' },
    ).exec();
    if (written) await changes.statusChanged(written.email, 'pending', 'confirmed');
    return written;
  });
  if (confirmed) return { outcome: 'confirmed', locale: confirmed.locale as Locale };
  // A twin click confirmed it in between (fine), or an unsubscribe (too late).
  const current = await findSubscriber(claims.subscriberId);
  return current?.status === 'confirmed'
    ? { outcome: 'confirmed', locale: current.locale as Locale }
    : { outcome: 'expired' };
}

export type UnsubscribeOutcome =
  { outcome: 'unsubscribed'; locale: Locale } | { outcome: 'invalid' };

/**
 * Takes the address a link names off the list at once. Unsubscribing twice is
 * harmless; an address the agency mailed without a subscription (a campaign
 * to contacts) is recorded as unsubscribed so it stays excluded.
 */
export async function unsubscribe(
  token: string,
  {
    secret,
    method,
    now = new Date(),
    changes,
  }: { secret: string; method: UnsubscribeMethod; now?: Date; changes: SubscriberChanges },
): Promise<UnsubscribeOutcome> {
  const email = verifyUnsubscribeToken(token, secret);
  if (!email) return { outcome: 'invalid' };
  return oneWriterPerDocument(`subscriber:${email}`, async () => {
    try {
      const written = await SubscriberModel.findOneAndUpdate(
        { email, status: trusted({ $ne: 'unsubscribed' }) },
        { $set: { status: 'unsubscribed', unsubscribedAt: now, unsubscribeMethod: method } },
        UPSERT_READING_BEFORE,
      ).exec();
      const before = written.value;
      await changes.statusChanged(
        email,
        (before?.status as SubscriberStatus | undefined) ?? null,
        'unsubscribed',
      );
      return {
        outcome: 'unsubscribed',
        locale: (before?.locale as Locale | undefined) ?? DEFAULT_LOCALE,
      };
    } catch (error: unknown) {
      if (!isDuplicateKeyError(error)) throw error;
      // Already unsubscribed: the upsert met the existing record.
      const existing = await SubscriberModel.findOne({ email }).exec();
      return { outcome: 'unsubscribed', locale: (existing?.locale ?? 'en') as Locale };
    }
  });
}

/* ---------------------------------------------------------------------------
 * The confirmation mail's outbox entry and receipt, driven by the worker
 * ------------------------------------------------------------------------- */

export async function findSubscriberById(id: string): Promise<SubscriberDocument | null> {
  return findSubscriber(id);
}

export async function findSubscriberByEmail(email: string): Promise<SubscriberDocument | null> {
  return SubscriberModel.findOne({ email: normalizeEmail(email) }).exec();
}

/** One id for the outbox entry and the receipt of one request's confirmation mail. */
export function confirmationMailId({ subscriberId, request }: NewsletterConfirmationJob): string {
  return `${CONFIRMATION_MAIL}:${subscriberId}:${request}`;
}

const CONFIRMATION_MAIL = 'newsletter-confirmation' satisfies ReceiptMail;

function oweConfirmationMail(job: NewsletterConfirmationJob): Promise<void> {
  return oweMail([
    { id: confirmationMailId(job), job: QUEUE_NAMES.newsletterConfirmation, ...job },
  ]);
}

/** How one request's confirmation mail ended, or null while it is owed. */
export function findConfirmationReceipt(job: NewsletterConfirmationJob): Promise<Receipt | null> {
  return findReceipt(confirmationMailId(job));
}

/*
 * Each request's mail has its own receipt, written once: a mail for an older
 * request, a duplicate job or a late failure never changes the outcome of
 * another, nor the first outcome of its own.
 */

export async function markConfirmationMailSent(job: NewsletterConfirmationJob): Promise<void> {
  await recordReceipt({
    id: confirmationMailId(job),
    mail: CONFIRMATION_MAIL,
    ref: job.subscriberId,
    outcome: 'sent',
  });
}

export async function markConfirmationMailFailed(
  job: NewsletterConfirmationJob,
  reason: string,
): Promise<void> {
  await recordReceipt({
    id: confirmationMailId(job),
    mail: CONFIRMATION_MAIL,
    ref: job.subscriberId,
    outcome: 'failed',
    error: reason,
  });
}

/** The request's mail is settled (sent, failed, or owed no more): its outbox entry goes. */
export function settleConfirmationMail(job: NewsletterConfirmationJob): Promise<void> {
  return settleOwedMail(confirmationMailId(job));
}
