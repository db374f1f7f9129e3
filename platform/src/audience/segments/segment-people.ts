import { Types } from 'mongoose';
import type { Locale, SegmentRule } from '@agency/contracts';
import { readAgencySettings } from '../../settings/agency-settings.service';
import { countPeopleWhere, peopleWhere } from '../people';
import { mailableSegmentFilterOf, segmentFilterOf, type SegmentClock } from './segment-filter';
import { SegmentModel } from './segment.model';

/** The clock a rule's days are read on now: the agency's zone, as its settings say. */
export async function segmentClock(now = new Date()): Promise<SegmentClock> {
  const { timeZone } = await readAgencySettings();
  return { timeZone, now };
}

/** A person a campaign to a segment may mail, with the segment's place in the campaign's list. */
export interface SegmentCandidate {
  email: string;
  firstName: string;
  lastName: string;
  locale: Locale;
  source: number;
}

/** The rules of `segmentIds`, in that order, each with its place (a deleted one is left out). */
async function rulesOf(segmentIds: readonly string[]): Promise<[SegmentRule, number][]> {
  const ids = segmentIds.filter((id) => Types.ObjectId.isValid(id));
  const found = await SegmentModel.collection
    .find<{ _id: Types.ObjectId; rule: SegmentRule }>(
      { _id: { $in: ids.map((id) => new Types.ObjectId(id)) } },
      { projection: { rule: 1 } },
    )
    .toArray();
  const ruleOf = new Map(found.map(({ _id, rule }) => [_id.toHexString(), rule]));
  return segmentIds.flatMap((id, index) => {
    const rule = ruleOf.get(id.toLowerCase());
    return rule ? [[rule, index] as [SegmentRule, number]] : [];
  });
}

/**
 * The consenting people of each segment in turn, with that segment's place
 * as their source: the audience walk takes out the excluded and those
 * already met, as it does for lists.
 */
export async function* segmentCandidates(
  segmentIds: readonly string[],
  clock?: SegmentClock,
): AsyncGenerator<SegmentCandidate> {
  if (segmentIds.length === 0) return;
  const rules = await rulesOf(segmentIds);
  const at = clock ?? (await segmentClock());
  for (const [rule, source] of rules) {
    for await (const person of peopleWhere(mailableSegmentFilterOf(rule, at))) {
      const { email, firstName, lastName, locale } = person;
      yield { email, firstName, lastName, locale: locale as Locale, source };
    }
  }
}

/** Everyone a rule matches now, whatever their consent. */
export async function countSegmentMatches(rule: SegmentRule, clock: SegmentClock): Promise<number> {
  return countPeopleWhere(segmentFilterOf(rule, clock));
}

/** The addresses a rule matches who consented (normalised: the people's ids). */
export async function* consentingKeys(
  rule: SegmentRule,
  clock: SegmentClock,
): AsyncGenerator<string> {
  for await (const { _id } of peopleWhere(mailableSegmentFilterOf(rule, clock))) yield _id;
}
