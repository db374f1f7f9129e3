import { array, lazy, mixed, object, type InferType } from 'yup';
import { LOCALES } from '../locales';
import { SERVICE_SLUGS } from '../services';
import { listQuerySchema } from '../admin/list-query';
import { calendarDate } from '../validation/dates';
import { jsonNumber, message, oneOfText, optionalText, recordId, text } from '../validation/fields';
import { MEMBER_TAG_MAX_LENGTH } from './lists';
import { PERSON_SOURCES } from './people';

/**
 * What the people view keeps of the mail sent to an address: `bounced` (a
 * hard or soft bounce put it on the suppression list), `complained` (a
 * complaint did) or `none` (no bounce or complaint is held). Deliveries are
 * not kept per person: that would be a write per recipient of every send.
 */
export const LAST_MAIL_OUTCOMES = ['bounced', 'complained', 'none'] as const;
export type LastMailOutcome = (typeof LAST_MAIL_OUTCOMES)[number];

/** The people fields a segment's rule reads: each one is indexed on the people view. */
export const SEGMENT_FIELDS = [
  'locale',
  'tags',
  'listIds',
  'services',
  'source',
  'firstSeenAt',
  'lastMailOutcome',
] as const;
export type SegmentField = (typeof SEGMENT_FIELDS)[number];

/**
 * `is`/`isNot` take one value, `anyOf`/`noneOf` a list; `before`/`after` a
 * day (`before` excludes it, `after` too), `withinLastDays` a number of days.
 */
export const SEGMENT_OPS = [
  'is',
  'isNot',
  'anyOf',
  'noneOf',
  'before',
  'after',
  'withinLastDays',
] as const;
export type SegmentOp = (typeof SEGMENT_OPS)[number];

const ONE_OF_SET: readonly SegmentOp[] = ['is', 'isNot', 'anyOf', 'noneOf'];
const MEMBERSHIP: readonly SegmentOp[] = ['anyOf', 'noneOf'];

/** The ops each field takes: a person has one language and outcome, but many tags or lists. */
export const SEGMENT_OPS_OF_FIELD: Record<SegmentField, readonly SegmentOp[]> = {
  locale: ONE_OF_SET,
  lastMailOutcome: ONE_OF_SET,
  tags: MEMBERSHIP,
  listIds: MEMBERSHIP,
  services: MEMBERSHIP,
  source: MEMBERSHIP,
  firstSeenAt: ['before', 'after', 'withinLastDays'],
};

export const SEGMENT_NAME_MAX = 100;
export const SEGMENT_DESCRIPTION_MAX = 500;
export const SEGMENT_CONDITIONS_MAX = 20;
/** Values of one `anyOf`/`noneOf` condition. */
export const SEGMENT_VALUES_MAX = 50;
/** About thirty years: beyond that, "first seen in the last N days" is everyone. */
export const SEGMENT_DAYS_MAX = 10_000;
export const SEGMENT_MATCHES = ['all', 'any'] as const;
export type SegmentMatch = (typeof SEGMENT_MATCHES)[number];

/** One value of a field: a language, a tag, a list's id, a service, a source, an outcome. */
function fieldValue(field: SegmentField) {
  switch (field) {
    case 'locale':
      return oneOfText(LOCALES);
    case 'services':
      return oneOfText(SERVICE_SLUGS);
    case 'source':
      return oneOfText(PERSON_SOURCES);
    case 'lastMailOutcome':
      return oneOfText(LAST_MAIL_OUTCOMES);
    case 'listIds':
      return recordId();
    default:
      return text(MEMBER_TAG_MAX_LENGTH).min(1, message('required'));
  }
}

/** The value a condition's field and op take; anything else (an object too) is refused. */
function conditionValue(field: SegmentField, op: SegmentOp) {
  if (op === 'withinLastDays') {
    return jsonNumber()
      .required(message('required'))
      .integer(message('mustBeWholeNumber'))
      .min(1, message('minValue', { min: 1 }))
      .max(SEGMENT_DAYS_MAX, message('maxValue', { max: SEGMENT_DAYS_MAX }));
  }
  if (op === 'before' || op === 'after') return calendarDate().required(message('required'));
  if (op === 'anyOf' || op === 'noneOf') {
    return array(fieldValue(field).required(message('required')))
      .typeError(message('mustBeList'))
      .required(message('required'))
      .min(1, message('required'))
      .max(SEGMENT_VALUES_MAX, message('maxItems', { max: SEGMENT_VALUES_MAX }));
  }
  return fieldValue(field).required(message('required'));
}

const isField = (value: unknown): value is SegmentField =>
  typeof value === 'string' && (SEGMENT_FIELDS as readonly string[]).includes(value);
const isOp = (value: unknown): value is SegmentOp =>
  typeof value === 'string' && (SEGMENT_OPS as readonly string[]).includes(value);

/**
 * One condition, its op and value checked against its field: the schema is
 * chosen from what the condition names, so a wrong field is reported on
 * `field`, an op the field does not take on `op`, and a bad value on `value`.
 */
const segmentConditionSchema = lazy((raw: unknown) => {
  const given = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const field = isField(given.field) ? given.field : null;
  const op = field && isOp(given.op) && SEGMENT_OPS_OF_FIELD[field].includes(given.op);
  return object({
    field: oneOfText(SEGMENT_FIELDS).required(message('required')),
    op: field
      ? oneOfText(SEGMENT_OPS_OF_FIELD[field]).required(message('required'))
      : oneOfText(SEGMENT_OPS).required(message('required')),
    value: field && op ? conditionValue(field, given.op as SegmentOp) : mixed().strip().optional(),
  }).typeError(message('required'));
});

/** A condition as stored and compiled. */
export type SegmentCondition =
  | { field: 'locale'; op: 'is' | 'isNot'; value: string }
  | { field: 'lastMailOutcome'; op: 'is' | 'isNot'; value: string }
  | {
      field: 'locale' | 'lastMailOutcome' | 'tags' | 'listIds' | 'services' | 'source';
      op: 'anyOf' | 'noneOf';
      value: string[];
    }
  | { field: 'firstSeenAt'; op: 'before' | 'after'; value: string }
  | { field: 'firstSeenAt'; op: 'withinLastDays'; value: number };

/** A rule: all or any of its conditions, at least one and at most twenty. */
export interface SegmentRule {
  match: SegmentMatch;
  conditions: SegmentCondition[];
}

export const segmentRuleSchema = object({
  match: oneOfText(SEGMENT_MATCHES).default('all'),
  conditions: array(segmentConditionSchema)
    .typeError(message('mustBeList'))
    .required(message('required'))
    .min(1, message('required'))
    .max(SEGMENT_CONDITIONS_MAX, message('maxItems', { max: SEGMENT_CONDITIONS_MAX })),
});

/** The segment dialog, on create and on edit; the API takes the same. */
export const segmentSchema = object({
  name: text(SEGMENT_NAME_MAX).required(message('required')),
  description: optionalText(SEGMENT_DESCRIPTION_MAX),
  rule: segmentRuleSchema.required(message('required')),
});
export interface SegmentInput {
  name: string;
  description?: string;
  rule: SegmentRule;
}

export const segmentQuerySchema = listQuerySchema({
  sortFields: ['name', 'createdAt'] as const,
  defaultSort: 'name',
  filters: {},
});
export type SegmentQuery = InferType<typeof segmentQuerySchema>;

export interface SegmentDto {
  id: string;
  name: string;
  description: string | null;
  rule: SegmentRule;
  createdAt: string;
  updatedAt: string;
}

/** The builder's count (`POST segmentCount`): how many people a rule matches now. */
export interface SegmentCountDto {
  /** Everyone the rule matches. */
  matched: number;
  /** Of those, whom a campaign to the segment mails: consent given, neither suppressed nor unsubscribed. */
  mailable: number;
}
