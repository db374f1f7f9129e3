import type { Types, mongo } from 'mongoose';
import type { ImportRowReason, Locale } from '@agency/contracts';
import { insertUnlessPresent, isDuplicateKeyError } from '../database-errors';
import { ImportReportModel } from './list-import.model';
import { ListMemberModel, type ListMember } from './list-member.model';

/**
 * What an import writes while it reads its file, a chunk of rows at a time:
 * the members (new ones inserted, known ones merged), and the report of the
 * rows it did not take. The record's own life cycle is in
 * list-import-records.ts.
 */

/**
 * Which fields a row gives, as bits: only those may change a member already
 * in the list. A number per row, not a set: the rows of two chunks are held
 * at once, and each object more is garbage the worker's memory pays for.
 */
export const GIVEN_MEMBER_FIELDS = { firstName: 1, lastName: 2, locale: 4, tags: 8 } as const;

/** The bits of the fields a row gives. */
export function givenMemberFields(fields: {
  firstName?: string;
  lastName?: string;
  locale?: Locale;
  tags?: string[];
}): number {
  return (
    (fields.firstName === undefined ? 0 : GIVEN_MEMBER_FIELDS.firstName) |
    (fields.lastName === undefined ? 0 : GIVEN_MEMBER_FIELDS.lastName) |
    (fields.locale === undefined ? 0 : GIVEN_MEMBER_FIELDS.locale) |
    (fields.tags === undefined ? 0 : GIVEN_MEMBER_FIELDS.tags)
  );
}

/** A member as an import inserts it, built once from its row (a type: the driver's inserts take it). */
export type ImportedMember = {
  _id: string;
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: Locale;
  tags: string[];
  list: Types.ObjectId;
  importId: Types.ObjectId;
  consent: object;
  createdAt: Date;
  updatedAt: Date;
};

/** A row an import did not take, and why. */
export interface ImportReportLine {
  row: number;
  value: string;
  reason: ImportRowReason;
}

/** What one chunk's member writes came to. */
export interface ImportedMemberCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** The members' collection as the driver sees it: their `_id`s are strings. */
const members = () =>
  ListMemberModel.collection as unknown as mongo.Collection<
    { _id: string } & Record<string, unknown>
  >;

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, index) => tag === b[index]);
}

/** The fields of `member` that differ from `existing`, among those its row gave. */
function changesFor(existing: ListMember, member: ImportedMember, fields: number) {
  const changes: Record<string, unknown> = {};
  if (fields & GIVEN_MEMBER_FIELDS.firstName && existing.firstName !== member.firstName)
    changes.firstName = member.firstName;
  if (fields & GIVEN_MEMBER_FIELDS.lastName && existing.lastName !== member.lastName)
    changes.lastName = member.lastName;
  if (fields & GIVEN_MEMBER_FIELDS.locale && existing.locale !== member.locale)
    changes.locale = member.locale;
  if (fields & GIVEN_MEMBER_FIELDS.tags && !sameTags(existing.tags ?? [], member.tags))
    changes.tags = member.tags;
  return changes;
}

/** Compares the members the insert refused (already in the list) with their rows. */
async function mergeKnownMembers(
  importId: string,
  batch: readonly ImportedMember[],
  givenOf: readonly number[],
  refused: Set<number>,
  counts: ImportedMemberCounts,
): Promise<void> {
  const ids = [...refused].map((index) => (batch[index] as ImportedMember)._id);
  const known = new Map(
    (
      await members()
        .find({ _id: { $in: ids } })
        .toArray()
    ).map((existing) => [existing._id, existing as unknown as ListMember] as const),
  );
  for (const index of refused) {
    const member = batch[index] as ImportedMember;
    const existing = known.get(member._id);
    if (!existing) continue;
    if (existing.importId && String(existing.importId) === importId) {
      // Written by this import before a crash: counted as what it was.
      counts.created += 1;
      continue;
    }
    const changes = changesFor(existing, member, givenOf[index] ?? 0);
    if (Object.keys(changes).length === 0) {
      counts.unchanged += 1;
    } else {
      await ListMemberModel.updateOne({ _id: member._id }, { $set: changes });
      counts.updated += 1;
    }
  }
}

/**
 * One chunk's members for import `importId`: the new ones in one insert
 * (a member's `_id` is `<list>:<address>`, so one already in the list is
 * refused by the index), those refused then compared one by one and updated
 * when their row changes a field it gives. `givenOf[i]` holds the fields
 * row `i` gives (givenMemberFields).
 */
export async function writeImportedMembers(
  importId: string,
  batch: ImportedMember[],
  givenOf: readonly number[],
): Promise<ImportedMemberCounts> {
  const counts: ImportedMemberCounts = { created: 0, updated: 0, unchanged: 0 };
  if (batch.length === 0) return counts;
  const refused = new Set(await insertUnlessPresent(members(), batch));
  counts.created += batch.length - refused.size;
  if (refused.size > 0) await mergeKnownMembers(importId, batch, givenOf, refused, counts);
  return counts;
}

/**
 * The report lines of one chunk, written once (`<import>:<chunk>`): a chunk
 * written again after a crash finds its lines there already.
 */
export async function recordImportReportChunk(part: {
  importId: string;
  storedId: Types.ObjectId;
  chunk: number;
  lines: ImportReportLine[];
}): Promise<void> {
  if (part.lines.length === 0) return;
  try {
    await ImportReportModel.create({
      _id: `${part.importId}:${part.chunk}`,
      importId: part.storedId,
      chunk: part.chunk,
      lines: part.lines,
    });
  } catch (error) {
    // Written before a crash: the same chunk's lines, once.
    if (!isDuplicateKeyError(error)) throw error;
  }
}
