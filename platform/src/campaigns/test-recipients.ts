import { Schema, model } from 'mongoose';
import { isWholeDomain } from '@agency/contracts';
import { isSuppressed } from '../audience/suppression-queries';
import { normalizeEmail } from '../mail/email-address';
import { hasUnsubscribed } from '../newsletter/subscriber-queries';
import { findUserByEmail } from '../users/user-lookup';

/**
 * Whom test sends may go to besides the staff: addresses and whole domains
 * (`@client.tn`) an admin allows. One small document, replaced whole on each
 * change, so two admins saving at once leave one list or the other, never a mix.
 */
const testRecipientListSchema = new Schema(
  {
    _id: { type: String, required: true },
    entries: { type: [String], default: [] },
    updatedBy: { type: String },
  },
  { timestamps: true },
);

const TestRecipientListModel = model('TestRecipientList', testRecipientListSchema);
const ALLOW_LIST_ID = 'allow-list';

export interface TestRecipientList {
  entries: string[];
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** The allow-list as stored; empty while no admin has set it. */
export async function readTestRecipients(): Promise<TestRecipientList> {
  const stored = await TestRecipientListModel.findById(ALLOW_LIST_ID).lean();
  return {
    entries: stored?.entries ?? [],
    updatedAt: stored?.updatedAt ?? null,
    updatedBy: stored?.updatedBy ?? null,
  };
}

/** Replaces the allow-list (entries already validated and lower-cased). */
export async function saveTestRecipients(
  entries: readonly string[],
  updatedBy: string,
): Promise<TestRecipientList> {
  const saved = await TestRecipientListModel.findOneAndUpdate(
    { _id: ALLOW_LIST_ID },
    { $set: { entries: [...entries], updatedBy } },
    { upsert: true, returnDocument: 'after' },
  ).lean();
  return {
    entries: saved?.entries ?? [...entries],
    updatedAt: saved?.updatedAt ?? new Date(),
    updatedBy: saved?.updatedBy ?? updatedBy,
  };
}

/** Why a test send may not go to an address. */
export type TestRecipientRefusal = 'outside' | 'suppressed' | 'unsubscribed';

async function isAllowedTestRecipient(key: string): Promise<boolean> {
  const { entries } = await readTestRecipients();
  const domain = `@${key.slice(key.lastIndexOf('@') + 1)}`;
  if (entries.some((entry) => (isWholeDomain(entry) ? entry === domain : entry === key))) {
    return true;
  }
  return (await findUserByEmail(key)) !== null;
}

/**
 * Whether a test send may go to `email`, and if not why: only to a staff
 * member's address or one an admin allows, and never to an address a
 * campaign would skip (suppressed, or unsubscribed from the newsletter).
 * A test send is a campaign mail to a chosen address: without this, anyone
 * who may send could mail anything, to anyone, from the agency's domain.
 */
export async function testRecipientRefusal(email: string): Promise<TestRecipientRefusal | null> {
  const key = normalizeEmail(email);
  if (!(await isAllowedTestRecipient(key))) return 'outside';
  if (await isSuppressed(key)) return 'suppressed';
  if (await hasUnsubscribed(key)) return 'unsubscribed';
  return null;
}

/** Erasing a person: their address leaves the test allow-list (a whole domain stays). */
export async function dropTestRecipient(key: string): Promise<void> {
  await TestRecipientListModel.updateOne({ _id: ALLOW_LIST_ID }, { $pull: { entries: key } });
}
