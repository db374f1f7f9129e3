import type { Context } from 'koa';
import { ValidationError, type ISchema } from 'yup';
import {
  DEFAULT_LOCALE,
  LOCALES,
  formatValidationMessage,
  isLocale,
  isRecordId,
  isValidationMessage,
  message,
  type Locale,
} from '@agency/contracts';
import { HttpError } from '../errors';

/** The language an error should be written in: the best match of Accept-Language. */
export function requestLocale(ctx: Context): Locale {
  const accepted = ctx.acceptsLanguages([...LOCALES]);
  return isLocale(accepted) ? accepted : DEFAULT_LOCALE;
}

function messageOf(issue: ValidationError, locale: Locale): string {
  const raw: unknown = issue.message;
  if (isValidationMessage(raw)) return formatValidationMessage(raw, locale);
  return typeof raw === 'string' ? raw : formatValidationMessage({ key: 'required' }, locale);
}

/** Deeper than any form we have; deeper input is refused before it costs anything. */
const MAX_DEPTH = 20;

/**
 * A copy of parsed JSON (or a parsed query) without keys that name members of
 * Object.prototype. Yup's object() looks field names up on a plain object, so
 * a body key such as `constructor`, `toString` or `__proto__` is taken for a
 * field schema and validation throws a TypeError (an open yup bug) that would
 * become a 500. No schema of ours has such a field, and unknown keys are
 * stripped anyway, so dropping them changes nothing else.
 */
export function withoutPrototypeKeys(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) {
    throw new HttpError('BAD_REQUEST', 'The request body is nested too deeply');
  }
  if (Array.isArray(value)) return value.map((item) => withoutPrototypeKeys(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key in Object.prototype) continue;
    copy[key] = withoutPrototypeKeys(item, depth + 1);
  }
  return copy;
}

async function validateInput<T>(ctx: Context, schema: ISchema<T>, input: unknown): Promise<T> {
  try {
    return await schema.validate(withoutPrototypeKeys(input), {
      abortEarly: false,
      stripUnknown: true,
    });
  } catch (caught: unknown) {
    if (!(caught instanceof ValidationError)) throw caught;
    throw new HttpError(
      'VALIDATION_FAILED',
      'Some fields are invalid',
      fieldReasons(caught, requestLocale(ctx)),
    );
  }
}

/** Each failing field of a validation, by its path, with its reason written in `locale`. */
export function fieldReasons(caught: ValidationError, locale: Locale): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of caught.inner.length > 0 ? caught.inner : [caught]) {
    const path = issue.path ?? '_';
    fields[path] ??= messageOf(issue, locale);
  }
  return fields;
}

/**
 * Validates a request body with a schema from contracts: unknown fields are
 * dropped, every failing field is reported with its reason, nothing is stored.
 */
export async function validateBody<T>(ctx: Context, schema: ISchema<T>): Promise<T> {
  const body: unknown = ctx.request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError('BAD_REQUEST', 'The request body must be a JSON object');
  }
  return validateInput(ctx, schema, body);
}

/** Validates the query string of a list (page, pageSize, sort, search, filters). */
export async function validateQuery<T>(ctx: Context, schema: ISchema<T>): Promise<T> {
  return validateInput(ctx, schema, ctx.query);
}

/** Validates a route's parameters (`:email`...) with a schema: a malformed one is a 400 naming it. */
export async function validateParams<T>(ctx: Context, schema: ISchema<T>): Promise<T> {
  return validateInput(ctx, schema, { ...(ctx.params as Record<string, unknown> | undefined) });
}

/** The `:id` of a route: a malformed id is a 400 naming the field, never a 500. */
export function recordIdParam(ctx: Context, name = 'id'): string {
  return idParam(ctx, isRecordId, name).toLowerCase();
}

/** A route's `:id` of the shape `isId` accepts (a session's, a record's): else a 400 naming it. */
export function idParam(
  ctx: Context,
  isId: (value: unknown) => value is string,
  name = 'id',
): string {
  const raw: unknown = (ctx.params as Record<string, unknown> | undefined)?.[name];
  if (!isId(raw)) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      [name]: formatValidationMessage(message('idInvalid'), requestLocale(ctx)),
    });
  }
  return raw;
}
