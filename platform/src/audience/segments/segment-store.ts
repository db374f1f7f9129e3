import type { SegmentCountDto, SegmentInput, SegmentQuery, SegmentRule } from '@agency/contracts';
import { trusted, type Types } from 'mongoose';
import { DomainError } from '../../domain-error';
import { findPage, searchFilter } from '../../list-pages';
import { excludedKeys } from '../audience';
import { SegmentModel, type StoredSegment } from './segment.model';
import { consentingKeys, countSegmentMatches, segmentClock } from './segment-people';

export const segmentNotFound = () => new DomainError('NOT_FOUND', 'No segment with this id');

/** One page of the saved segments, by name or age, searched by name. */
export async function findSegmentsPage(
  query: SegmentQuery,
): Promise<{ segments: StoredSegment[]; total: number }> {
  const { docs, total } = await findPage(
    SegmentModel,
    searchFilter(query.search, ['name', 'description']),
    query,
  );
  return { segments: docs as unknown as StoredSegment[], total };
}

/** Those of `ids` that name a saved segment, as hex strings. */
export async function findExistingSegmentIds(
  ids: readonly (string | Types.ObjectId)[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await SegmentModel.find({ _id: trusted({ $in: ids }) }, { _id: 1 }).lean();
  return found.map(({ _id }) => String(_id));
}

/** The names of those of these segments that still exist, by id: one read by `_id`. */
export async function findSegmentNames(
  ids: readonly (string | Types.ObjectId)[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const found = await SegmentModel.find({ _id: trusted({ $in: ids }) }, { name: 1 }).lean();
  return new Map(found.map(({ _id, name }) => [String(_id), name]));
}

export async function findSegment(id: string): Promise<StoredSegment | null> {
  return SegmentModel.findById(id).lean<StoredSegment>();
}

export async function addSegment(input: SegmentInput, createdBy: string): Promise<StoredSegment> {
  const created = await SegmentModel.create({ ...input, createdBy });
  return created.toObject() as unknown as StoredSegment;
}

/** Replaces the name, description and rule; null when there is no such segment. */
export async function replaceSegment(
  id: string,
  input: SegmentInput,
): Promise<StoredSegment | null> {
  return SegmentModel.findByIdAndUpdate(
    id,
    { $set: { name: input.name, description: input.description, rule: input.rule } },
    { new: true },
  ).lean<StoredSegment>();
}

export async function deleteSegment(id: string): Promise<StoredSegment | null> {
  return SegmentModel.findByIdAndDelete(id).lean<StoredSegment>();
}

/**
 * What the builder shows as the rule is edited: everyone it matches, and of
 * those whom a campaign to it would mail, read as the send's walk reads
 * them (consent given, less the suppression list and the unsubscribed).
 */
export async function countSegmentRule(rule: SegmentRule): Promise<SegmentCountDto> {
  const clock = await segmentClock();
  const [matched, excluded] = await Promise.all([countSegmentMatches(rule, clock), excludedKeys()]);
  let mailable = 0;
  for await (const key of consentingKeys(rule, clock)) if (!excluded.has(key)) mailable += 1;
  return { matched, mailable };
}
