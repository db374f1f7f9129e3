import type { ActivityValue, FieldChange } from '@agency/contracts';

/** Fields every record has that say nothing about what a person changed. */
const BOOKKEEPING = new Set(['id', 'createdAt', 'updatedAt']);
/** Long texts (a campaign's HTML) are kept cut to this many characters. */
export const ACTIVITY_VALUE_MAX = 500;

function loggable(value: unknown): ActivityValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return value.map((item) => item.slice(0, ACTIVITY_VALUE_MAX));
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > ACTIVITY_VALUE_MAX ? `${text.slice(0, ACTIVITY_VALUE_MAX)}…` : text;
}

function fieldsOf(record: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([field]) => !BOOKKEEPING.has(field)));
}

/**
 * The fields of a change, with their values before and after, from the
 * records as the API answers them (DTOs: never a hash or a secret). A field
 * of `secretInput` that the request set (a password) is listed as changed
 * without its values.
 */
export function fieldChanges(
  before: object | null,
  after: object | null,
  secretInput: Record<string, unknown> = {},
): FieldChange[] {
  const old = before ? fieldsOf(before) : {};
  const now = after ? fieldsOf(after) : {};
  const changes: FieldChange[] = [];
  // An edit compares the fields the answer shows; a delete lists what was there.
  for (const field of Object.keys(after ? now : old)) {
    const was = loggable(old[field]);
    const is = loggable(now[field]);
    if (before && after && JSON.stringify(was) === JSON.stringify(is)) continue;
    changes.push({
      field,
      ...(before ? { before: was } : {}),
      ...(after ? { after: is } : {}),
    });
  }
  for (const [field, value] of Object.entries(secretInput)) {
    if (value !== undefined && value !== null && value !== '') {
      changes.push({ field, redacted: true });
    }
  }
  return changes;
}
