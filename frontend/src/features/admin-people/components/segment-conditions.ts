import {
  LAST_MAIL_OUTCOMES,
  LOCALES,
  PERSON_SOURCES,
  SEGMENT_OPS_OF_FIELD,
  SERVICE_SLUGS,
  segmentRuleSchema,
  type SegmentField,
  type SegmentMatch,
  type SegmentOp,
  type SegmentRule,
} from '@agency/contracts';

/** A condition as the builder edits it: the value as typed or chosen. */
export interface DraftCondition {
  field: SegmentField;
  op: SegmentOp;
  value: string | string[];
}

export interface DraftRule {
  match: SegmentMatch;
  conditions: DraftCondition[];
}

/** The values a field offers to choose from; null: typed (tags, days). */
export function choicesOf(field: SegmentField): readonly string[] | null {
  switch (field) {
    case 'locale':
      return LOCALES;
    case 'services':
      return SERVICE_SLUGS;
    case 'source':
      return PERSON_SOURCES;
    case 'lastMailOutcome':
      return LAST_MAIL_OUTCOMES;
    default:
      return null;
  }
}

export const takesList = (op: SegmentOp): boolean => op === 'anyOf' || op === 'noneOf';

/** A new condition on `field`, with its first op and an empty value. */
export function conditionOn(field: SegmentField): DraftCondition {
  const op = SEGMENT_OPS_OF_FIELD[field][0] as SegmentOp;
  // Tags are typed, comma-separated: the others are picked, several for a list op.
  return { field, op, value: takesList(op) && field !== 'tags' ? [] : '' };
}

/** The value as the API takes it: a list, a day, or a whole number of days. */
function valueOf(condition: DraftCondition): unknown {
  const { op, value } = condition;
  if (op === 'withinLastDays') return value === '' ? '' : Number(value);
  if (takesList(op) && typeof value === 'string') {
    return value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  return value;
}

/** The rule the API is sent, or null while the draft is not yet a valid one. */
export function ruleOf(draft: DraftRule): SegmentRule | null {
  const rule = {
    match: draft.match,
    conditions: draft.conditions.map((condition) => ({
      field: condition.field,
      op: condition.op,
      value: valueOf(condition),
    })),
  };
  return segmentRuleSchema.isValidSync(rule) ? (rule as SegmentRule) : null;
}

/** A saved rule as the builder edits it (tags back to the text typed). */
export function draftOf(rule: SegmentRule): DraftRule {
  return {
    match: rule.match,
    conditions: rule.conditions.map((condition) => ({
      field: condition.field,
      op: condition.op,
      value:
        condition.field === 'tags' && Array.isArray(condition.value)
          ? condition.value.join(', ')
          : Array.isArray(condition.value)
            ? condition.value
            : String(condition.value),
    })),
  };
}
