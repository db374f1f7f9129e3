import { DateTime } from 'luxon';
import { trusted } from 'mongoose';
import type { SegmentCondition, SegmentField, SegmentRule } from '@agency/contracts';

/** The people view's field a segment field reads: the person's `sources` for `source`. */
const STORED_FIELD: Record<SegmentField, string> = {
  locale: 'locale',
  tags: 'tags',
  listIds: 'listIds',
  services: 'services',
  source: 'sources',
  firstSeenAt: 'firstSeenAt',
  lastMailOutcome: 'lastMailOutcome',
};

export interface SegmentClock {
  /** The agency's zone, which names the days of `before` and `after`. */
  timeZone: string;
  now: Date;
}

/** The first instant of `day` (YYYY-MM-DD) on the agency's clock. */
const startOfDay = (day: string, timeZone: string): Date =>
  DateTime.fromISO(day, { zone: timeZone }).startOf('day').toJSDate();

/**
 * A date condition as a range on `firstSeenAt`: `before` a day is before its
 * first instant, `after` it from the next day's, `withinLastDays` from `now`
 * less that many days.
 */
function firstSeenRange(condition: SegmentCondition, clock: SegmentClock): Record<string, Date> {
  if (condition.op === 'withinLastDays') {
    return { $gte: DateTime.fromJSDate(clock.now).minus({ days: condition.value }).toJSDate() };
  }
  const day = startOfDay(String(condition.value), clock.timeZone);
  if (condition.op === 'before') return { $lt: day };
  return { $gte: DateTime.fromJSDate(day, { zone: clock.timeZone }).plus({ days: 1 }).toJSDate() };
}

/**
 * One condition as a store filter on one indexed field: equality, `$ne`,
 * `$in`, `$nin` or a range. The operators are ours (hence `trusted`); every
 * value the rule gives is data inside them, validated by the schema before
 * it was stored, so no input names an operator.
 */
export function conditionFilter(
  condition: SegmentCondition,
  clock: SegmentClock,
): Record<string, unknown> {
  const field = STORED_FIELD[condition.field];
  switch (condition.op) {
    case 'is':
      return { [field]: String(condition.value) };
    case 'isNot':
      return { [field]: trusted({ $ne: String(condition.value) }) };
    case 'anyOf':
      return { [field]: trusted({ $in: (condition.value as string[]).map(String) }) };
    case 'noneOf':
      return { [field]: trusted({ $nin: (condition.value as string[]).map(String) }) };
    default:
      return { [field]: trusted(firstSeenRange(condition, clock)) };
  }
}

/** A rule as one store filter over the people view: `$and` of its conditions, or `$or`. */
export function segmentFilterOf(rule: SegmentRule, clock: SegmentClock): Record<string, unknown> {
  const filters = rule.conditions.map((condition) => conditionFilter(condition, clock));
  return rule.match === 'any' ? { $or: filters } : { $and: filters };
}

/**
 * Whom a campaign to the segment may mail, before the walk takes out the
 * suppressed and the unsubscribed: only those whose consent is given.
 */
export function mailableSegmentFilterOf(
  rule: SegmentRule,
  clock: SegmentClock,
): Record<string, unknown> {
  return { $and: [segmentFilterOf(rule, clock), { consent: 'given' }] };
}
