import {
  DEFAULT_LOCALE,
  isLocale,
  type Locale,
  type PreferencesDto,
  type PreferenceUpdateInput,
  type SubscriberStatus,
} from '@agency/contracts';
import {
  findListIdsOfAddress,
  findPublicListIds,
  findPublicLists,
  findSubscriberByEmail,
  joinPublicList,
  markUnsubscribed,
  removeMemberFromList,
  setMemberLanguage,
  setSubscriberLanguage,
  verifyManageToken,
  type SubscriberChanges,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { toPublicListDto } from './public-list.service';

/** The address a manage link names; a 404 or 410 the page explains, never a 500. */
export function addressOfManageToken(token: string, secret: string, now = new Date()): string {
  const check = verifyManageToken(token, secret, now);
  if (check.outcome === 'valid') return check.email;
  if (check.outcome === 'expired') {
    throw new HttpError(
      'LINK_EXPIRED',
      'This link has expired: use the link in a more recent mail from us',
    );
  }
  throw new HttpError('NOT_FOUND', 'This link is not valid');
}

/** The language the address's mail comes in: its subscription's, else English. */
async function languageOf(
  email: string,
): Promise<{ locale: Locale; subscription: SubscriberStatus | null }> {
  const subscriber = await findSubscriberByEmail(email);
  if (!subscriber) return { locale: DEFAULT_LOCALE, subscription: null };
  return {
    locale: isLocale(subscriber.locale) ? subscriber.locale : DEFAULT_LOCALE,
    subscription: subscriber.status as SubscriberStatus,
  };
}

/** The language the address's own mail comes in, as the preference page shows it. */
export async function mailLocaleOf(email: string): Promise<Locale> {
  return (await languageOf(email)).locale;
}

/** What the page shows: the public lists in the person's language, and which they are in. */
export async function readPreferences(email: string): Promise<PreferencesDto> {
  const [{ locale, subscription }, lists, memberOf] = await Promise.all([
    languageOf(email),
    findPublicLists(),
    findListIdsOfAddress(email),
  ]);
  const joined = new Set(memberOf);
  return {
    email,
    locale,
    subscription,
    lists: lists.map((list) => ({
      ...toPublicListDto(list, locale),
      member: joined.has(String(list._id)),
    })),
  };
}

/**
 * Saves the page: joins the public lists ticked, leaves the public lists
 * unticked (a staff-only list they are in is not the page's to change), and
 * sets the language of every mail to the address. A list id that is not a
 * public list is refused with the field before anything changes.
 */
export async function updatePreferences(
  email: string,
  input: Pick<PreferenceUpdateInput, 'listIds' | 'locale'>,
  now = new Date(),
): Promise<PreferencesDto> {
  const wanted = new Set(input.listIds);
  const offered = await findPublicListIds([...wanted]);
  if ([...wanted].some((id) => !offered.has(id))) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      listIds: 'Choose among the lists offered',
    });
  }
  const publicLists = await findPublicLists();
  const memberOf = new Set(await findListIdsOfAddress(email));
  for (const list of publicLists) {
    const id = String(list._id);
    if (wanted.has(id) && !memberOf.has(id)) {
      await joinPublicList(id, { email, locale: input.locale, at: now }, { refreshPeople: false });
    } else if (!wanted.has(id) && memberOf.has(id)) {
      await removeMemberFromList(id, email, { refreshPeople: false });
    }
  }
  await setSubscriberLanguage(email, input.locale);
  // Also refreshes the person once for the joins and leaves above.
  await setMemberLanguage(email, input.locale);
  return readPreferences(email);
}

/** Leaves everything: off the newsletter and onto the suppression list, as the unsubscribe link does. */
export async function unsubscribeEverywhere(
  email: string,
  changes: SubscriberChanges,
  now = new Date(),
): Promise<PreferencesDto> {
  await markUnsubscribed(email, 'page', changes, now);
  return readPreferences(email);
}
