import { array, mixed, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { message, recordId, text } from '../validation/fields';
import type { SubscriberStatus } from './newsletter.dto';
import { NEWSLETTER_LIMITS } from './newsletter.schema';

/** The manage link's token, as the preference page sends it with every call. */
const manageToken = () => text(NEWSLETTER_LIMITS.tokenMax).required(message('linkTokenRequired'));

/**
 * The preference page's save: the public lists the person wants (any other
 * public list they are in is left; a list that is not public is refused with
 * the field) and the language of their mail.
 */
export const preferenceUpdateSchema = object({
  token: manageToken(),
  locale: mixed<Locale>()
    .oneOf(LOCALES, message('localeInvalid'))
    .required(message('localeInvalid')),
  listIds: array(recordId().required(message('idInvalid')))
    .max(NEWSLETTER_LIMITS.listIdsMax, message('maxValue', { max: NEWSLETTER_LIMITS.listIdsMax }))
    .required(message('required')),
});
export type PreferenceUpdateInput = InferType<typeof preferenceUpdateSchema>;

/** A public list on the preference page, in the person's language, and whether they are in it. */
export interface PreferenceListDto {
  id: string;
  name: string;
  description: string | null;
  member: boolean;
}

/** What the preference page shows of the address its link names. */
export interface PreferencesDto {
  email: string;
  /** The language their mail comes in (English when nothing is stored). */
  locale: Locale;
  /** Their newsletter subscription, or null when they never subscribed. */
  subscription: SubscriberStatus | null;
  lists: PreferenceListDto[];
}
