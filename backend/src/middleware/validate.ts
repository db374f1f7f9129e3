import type { Context } from 'koa';
import { ValidationError, type ISchema } from 'yup';
import {
  DEFAULT_LOCALE,
  LOCALES,
  formatValidationMessage,
  isLocale,
  isValidationMessage,
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

/**
 * Validates a request body with a schema from contracts: unknown fields are
 * dropped, every failing field is reported with its reason, nothing is stored.
 */
export async function validateBody<T>(ctx: Context, schema: ISchema<T>): Promise<T> {
  const body: unknown = ctx.request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError('BAD_REQUEST', 'The request body must be a JSON object');
  }
  try {
    return await schema.validate(body, { abortEarly: false, stripUnknown: true });
  } catch (caught: unknown) {
    if (!(caught instanceof ValidationError)) throw caught;
    const locale = requestLocale(ctx);
    const fields: Record<string, string> = {};
    for (const issue of caught.inner.length > 0 ? caught.inner : [caught]) {
      const path = issue.path ?? '_';
      fields[path] ??= messageOf(issue, locale);
    }
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', fields);
  }
}
