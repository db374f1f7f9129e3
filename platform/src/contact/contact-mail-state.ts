import pLimit from 'p-limit';
import { trusted } from 'mongoose';
import {
  QUEUE_NAMES,
  type ContactDto,
  type ContactMailContent,
  type MailState,
} from '@agency/contracts';
import {
  findFailedReceipts,
  findOwedMailById,
  findOwedRefs,
  findReceipt,
  forgetReceipt,
  oweMail,
  recordReceipt,
  settleOwedMail,
  type Receipt,
} from '../mail-outbox/mail-outbox.service';
import type { ReceiptMail } from '../mail-outbox';
import { ContactModel } from './contact.model';

/**
 * Reads by `_id` in flight at once for the enquiries still in the outbox: a
 * few of the store's connections. Unbounded, an export after a mail-server
 * outage fired one read per owed mail at once and took the API from 300 MB
 * to 1 GB.
 */
const READS_IN_FLIGHT = 20;

/** The two mails of an enquiry, and the name each one's receipt carries. */
export const CONTACT_MAILS = {
  notification: 'contact-notification',
  acknowledgement: 'contact-acknowledgement',
} as const satisfies Record<string, ReceiptMail>;
export type ContactMail = keyof typeof CONTACT_MAILS;

/** Where one mail of an enquiry stands. */
export interface ContactMailStatus {
  state: MailState;
  at?: Date;
  error?: string;
}
export type ContactMailStatuses = Record<ContactMail, ContactMailStatus>;

/** The outbox entry of an enquiry's mail job: both its mails travel in one job. */
export function contactOutboxId(contactId: string): string {
  return `contact:${contactId}`;
}

export function contactReceiptId(mail: ContactMail, contactId: string): string {
  return `${CONTACT_MAILS[mail]}:${contactId}`;
}

/** What an enquiry's mails are written from, kept in its outbox entry (and on its first job). */
export type ContactMailPayload = ContactMailContent;

/**
 * Records both mails of a new enquiry as owed, with what they are written
 * from, before the enquiry itself is written.
 */
export function oweContactMails(contactId: string, payload: ContactMailPayload): Promise<void> {
  return oweMail(
    [{ id: contactOutboxId(contactId), job: QUEUE_NAMES.contactMail, contactId, payload }],
    new Date(payload.createdAt),
  );
}

const PAYLOAD_TEXTS = ['firstName', 'lastName', 'email', 'service', 'message', 'locale'] as const;

function isContactMailPayload(value: unknown): value is ContactMailPayload {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (
    PAYLOAD_TEXTS.every((field) => typeof fields[field] === 'string') &&
    typeof fields.createdAt === 'string' &&
    (fields.phone === undefined || typeof fields.phone === 'string')
  );
}

/**
 * The enquiry as its mails need it, from its outbox entry: one read by `_id`
 * in a small collection, never in the contacts. Null once its mails are
 * settled (or for an entry without its payload).
 */
export async function findContactForMail(contactId: string): Promise<ContactDto | null> {
  const [entry, mails] = await Promise.all([
    findOwedMailById(contactOutboxId(contactId)),
    contactMailStatuses(contactId),
  ]);
  if (!entry || !isContactMailPayload(entry.payload)) return null;
  return contactForMail(contactId, entry.payload, mails);
}

const NOTHING_SETTLED: ContactMailStatuses = {
  notification: { state: 'pending' },
  acknowledgement: { state: 'pending' },
};

/**
 * The enquiry as its mails need it, from what they are written from and
 * where they stand (by default both owed: a new enquiry's first job).
 */
export function contactForMail(
  contactId: string,
  { phone, ...content }: ContactMailPayload,
  mails: ContactMailStatuses = NOTHING_SETTLED,
): ContactDto {
  return {
    id: contactId,
    ...content,
    ...(phone ? { phone } : {}),
    status: 'new',
    mailState: mails.notification.state,
    acknowledgementState: mails.acknowledgement.state,
  };
}

/**
 * How long an outbox entry may wait for its enquiry. `storeContact` writes
 * the entry first and the enquiry next; on a store slowed by a burst, the
 * second write can come many seconds later, within the same request. An
 * entry without its enquiry is taken out only once it is older than any
 * request can last, so a slow write is never mistaken for one that died.
 */
export const UNWRITTEN_ENQUIRY_GRACE_MS = 10 * 60_000;

/**
 * Of these enquiries owing mail, the ones that exist. An outbox entry whose
 * enquiry was never written (the API stopped between its two writes, and
 * the visitor was told it failed) is taken out of the outbox once older than
 * `abandonedBefore`; a younger one is left for a later pass. Only the relay
 * asks, for entries it found old, so these reads stay rare.
 */
export async function keepStoredContacts(
  owed: readonly { id: string; owedSince: Date }[],
  abandonedBefore: Date,
): Promise<string[]> {
  const found = await Promise.all(
    owed.map(async (entry) => ({ ...entry, stored: await ContactModel.exists({ _id: entry.id }) })),
  );
  const abandoned = found.filter(({ stored, owedSince }) => !stored && owedSince < abandonedBefore);
  await Promise.all(abandoned.map(({ id }) => settleContactMails(id)));
  return found.filter(({ stored }) => stored).map(({ id }) => id);
}

/** The enquiry was deleted: whatever it still owed, and how its mails ended, goes with it. */
export async function forgetContactMails(contactId: string): Promise<void> {
  await Promise.all([
    settleOwedMail(contactOutboxId(contactId)),
    ...Object.keys(CONTACT_MAILS).map((mail) =>
      forgetReceipt(contactReceiptId(mail as ContactMail, contactId)),
    ),
  ]);
}

/** Every mail of the enquiry has its receipt: its outbox entry goes. */
export function settleContactMails(contactId: string): Promise<void> {
  return settleOwedMail(contactOutboxId(contactId));
}

function statusOf(receipt: Receipt | null): ContactMailStatus {
  if (!receipt) return { state: 'pending' };
  return {
    state: receipt.outcome,
    at: receipt.at,
    ...(receipt.error ? { error: receipt.error } : {}),
  };
}

/** Where both mails of an enquiry stand: two reads by `_id`, cheap on any store. */
export async function contactMailStatuses(contactId: string): Promise<ContactMailStatuses> {
  const [notification, acknowledgement] = await Promise.all([
    findReceipt(contactReceiptId('notification', contactId)),
    findReceipt(contactReceiptId('acknowledgement', contactId)),
  ]);
  return { notification: statusOf(notification), acknowledgement: statusOf(acknowledgement) };
}

async function recordOutcome(
  mail: ContactMail,
  contactId: string,
  outcome: 'sent' | 'failed',
  error?: string,
): Promise<void> {
  await recordReceipt({
    id: contactReceiptId(mail, contactId),
    mail: CONTACT_MAILS[mail],
    ref: contactId,
    outcome,
    ...(error === undefined ? {} : { error }),
  });
}

export function markContactMailSent(contactId: string): Promise<void> {
  return recordOutcome('notification', contactId, 'sent');
}

export function markContactMailFailed(contactId: string, reason: string): Promise<void> {
  return recordOutcome('notification', contactId, 'failed', reason);
}

export function markContactAcknowledgementSent(contactId: string): Promise<void> {
  return recordOutcome('acknowledgement', contactId, 'sent');
}

export function markContactAcknowledgementFailed(contactId: string, reason: string): Promise<void> {
  return recordOutcome('acknowledgement', contactId, 'failed', reason);
}

/**
 * The enquiries whose notification stands at `state`, as a filter on their
 * `_id`. Pending ones are in the outbox and failed ones have a failed
 * receipt, both few; every other enquiry's notification went out.
 */
export async function contactIdFilterForMailState(
  state: MailState,
): Promise<{ _id: ReturnType<typeof trusted> }> {
  const ids = await contactIdsForMailState(state);
  // Filters are sanitized globally; this operator is ours, not request data.
  return { _id: trusted(ids) };
}

async function contactIdsForMailState(
  state: MailState,
): Promise<{ $in: string[] } | { $nin: string[] }> {
  const [owed, failedReceipts] = await Promise.all([
    state === 'failed' ? Promise.resolve([]) : findOwedRefs(QUEUE_NAMES.contactMail),
    findFailedReceipts(CONTACT_MAILS.notification),
  ]);
  const failed = failedReceipts.map((receipt) => receipt.ref);
  if (state === 'failed') return { $in: failed };
  // An enquiry still in the outbox may have its notification settled (its acknowledgement is not).
  const failedSet = new Set(failed);
  const inTurn = pLimit(READS_IN_FLIGHT);
  const pendingChecks = await Promise.all(
    owed
      .filter((id) => !failedSet.has(id))
      .map((id) =>
        inTurn(async () => ({
          id,
          receipt: await findReceipt(contactReceiptId('notification', id)),
        })),
      ),
  );
  const pending = pendingChecks.filter(({ receipt }) => !receipt).map(({ id }) => id);
  if (state === 'pending') return { $in: pending };
  return { $nin: [...pending, ...failed] };
}

/**
 * Where the mails of every enquiry stand, for reading many enquiries (the
 * export): the outbox and the failed receipts are read once, both small.
 * An enquiry in neither had both its mails sent. Once `signal` aborts (the
 * download was cancelled), no further read starts and the call rejects.
 */
export async function contactMailStatesInBulk(
  signal?: AbortSignal,
): Promise<(contactId: string) => ContactMailStatuses> {
  const [owed, failedNotifications, failedAcknowledgements] = await Promise.all([
    findOwedRefs(QUEUE_NAMES.contactMail),
    findFailedReceipts(CONTACT_MAILS.notification),
    findFailedReceipts(CONTACT_MAILS.acknowledgement),
  ]);
  // Mails still in flight are read exactly, one enquiry at a time: few while
  // the mail server answers, thousands after an outage.
  const inTurn = pLimit(READS_IN_FLIGHT);
  const inFlight = new Map(
    await Promise.all(
      owed.map((id) =>
        inTurn(async () => {
          signal?.throwIfAborted();
          return [id, await contactMailStatuses(id)] as const;
        }),
      ),
    ),
  );
  const failed = {
    notification: new Map(failedNotifications.map((receipt) => [receipt.ref, receipt])),
    acknowledgement: new Map(failedAcknowledgements.map((receipt) => [receipt.ref, receipt])),
  };
  const settled = (mail: ContactMail, id: string): ContactMailStatus => {
    const receipt = failed[mail].get(id);
    return receipt ? statusOf(receipt) : { state: 'sent' };
  };
  return (id) =>
    inFlight.get(id) ?? {
      notification: settled('notification', id),
      acknowledgement: settled('acknowledgement', id),
    };
}
