import { trusted } from 'mongoose';
import { BULK_INSERT, deleteBatcher, insertBatcher } from '../batched-writes';
import { MailReceiptModel, type ReceiptMail, type ReceiptOutcome } from './mail-receipt.model';
import { OwedMailModel, type OwedMail, type OwedMailJob } from './owed-mail.model';

/** One owed mail job, as the relay reads it back. */
export interface OwedMailEntry {
  id: string;
  job: OwedMailJob;
  contactId?: string;
  subscriberId?: string;
  request?: number;
  /** What the mails are written from, when the job needs more than ids. */
  payload?: Record<string, unknown>;
  createdAt: Date;
}

/** A recorded outcome, as readers of a mail's state need it. */
export interface Receipt {
  outcome: ReceiptOutcome;
  at: Date;
  error?: string;
}

/** Keeps a stored SMTP reply readable without letting one mail bloat its receipt. */
export const RECEIPT_ERROR_MAX_LENGTH = 500;

/**
 * Records mail jobs as owed. Writing an entry that exists already is no
 * error: the job is owed once, whoever wrote it first.
 */
export async function oweMail(
  entries: readonly Omit<OwedMailEntry, 'createdAt'>[],
  at = new Date(),
): Promise<void> {
  await Promise.all(
    entries.map(({ id, ...entry }) => insertOwedMail({ _id: id, ...entry, createdAt: at })),
  );
}

// Concurrent requests and jobs write their entries and receipts together,
// one insert per batch (see batched-writes.ts for why).
const insertOwedMail = insertBatcher((entries) => OwedMailModel.insertMany(entries, BULK_INSERT), {
  duplicatesAreInserted: true,
});
const insertReceipt = insertBatcher(
  (receipts) => MailReceiptModel.insertMany(receipts, BULK_INSERT),
  { duplicatesAreInserted: true },
);

/** Jobs owed since before `olderThan`, the oldest first, at most `limit`. */
export async function findOwedMail(olderThan: Date, limit: number): Promise<OwedMailEntry[]> {
  const entries = await OwedMailModel.find({
    // Filters are sanitized globally; this operator is ours, not request data.
    createdAt: trusted({ $lte: olderThan }),
  })
    .sort({ createdAt: 1 })
    .limit(limit)
    .lean<StoredOwedMail[]>()
    .exec();
  return entries.map(toEntry);
}

type StoredOwedMail = Pick<
  OwedMail,
  'job' | 'contactId' | 'subscriberId' | 'request' | 'payload' | 'createdAt'
> & { _id: string };

function toEntry({
  _id,
  job,
  contactId,
  subscriberId,
  request,
  payload,
  createdAt,
}: StoredOwedMail): OwedMailEntry {
  return {
    id: _id,
    job,
    ...(contactId ? { contactId } : {}),
    ...(subscriberId ? { subscriberId } : {}),
    ...(request === undefined || request === null ? {} : { request }),
    ...(isRecord(payload) ? { payload } : {}),
    createdAt,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One owed job by its id (a read by `_id` in a small collection), or null once settled. */
export async function findOwedMailById(id: string): Promise<OwedMailEntry | null> {
  const entry = await OwedMailModel.findById(id).lean<StoredOwedMail>().exec();
  return entry ? toEntry(entry) : null;
}

/** The ids (`contactId`s...) of the entries of one kind of job: few, as the outbox is small. */
export async function findOwedRefs(job: OwedMailJob): Promise<string[]> {
  const entries = await OwedMailModel.find({ job })
    .select({ contactId: 1, subscriberId: 1 })
    .lean()
    .exec();
  return entries.map((entry) => entry.contactId ?? entry.subscriberId ?? '').filter(Boolean);
}

/** The job is settled: every mail of it has its receipt, or it owes nothing any more. */
export async function settleOwedMail(id: string): Promise<void> {
  await deleteOwedMail(id);
}

// Jobs settling together leave the outbox in one delete (see batched-writes.ts).
const deleteOwedMail = deleteBatcher((ids) =>
  // Filters are sanitized globally; this operator is ours, not request data.
  OwedMailModel.deleteMany({ _id: trusted({ $in: ids }) }).exec(),
);

export async function findReceipt(id: string): Promise<Receipt | null> {
  const receipt = await MailReceiptModel.findById(id).lean().exec();
  if (!receipt) return null;
  return {
    outcome: receipt.outcome,
    at: receipt.at,
    ...(receipt.error ? { error: receipt.error } : {}),
  };
}

/**
 * Records how a mail ended, once: a duplicate job finishing after the
 * first, or a failure recorded late, meets the first receipt's `_id` and
 * changes nothing.
 */
export async function recordReceipt(receipt: {
  id: string;
  mail: ReceiptMail;
  ref: string;
  outcome: ReceiptOutcome;
  error?: string;
  at?: Date;
}): Promise<void> {
  const { id, error, at = new Date(), ...rest } = receipt;
  await insertReceipt({
    _id: id,
    ...rest,
    at,
    ...(error === undefined ? {} : { error: error.slice(0, RECEIPT_ERROR_MAX_LENGTH) }),
  });
}

/** Erases a receipt, with the record it belongs to (a deleted enquiry). */
export async function forgetReceipt(id: string): Promise<void> {
  await MailReceiptModel.deleteOne({ _id: id }).exec();
}

/** The receipts of the mails of this kind that failed, with the ref (enquiry id...) of each. */
export async function findFailedReceipts(
  mail: ReceiptMail,
): Promise<(Receipt & { ref: string })[]> {
  const receipts = await MailReceiptModel.find({ mail, outcome: 'failed' })
    .select({ ref: 1, outcome: 1, at: 1, error: 1 })
    .lean()
    .exec();
  return receipts.map(({ ref, outcome, at, error }) => ({
    ref,
    outcome,
    at,
    ...(error ? { error } : {}),
  }));
}
