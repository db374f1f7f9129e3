import { array, boolean, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { listQuerySchema } from '../admin/list-query';
import { message, oneOfText, optionalText, text } from '../validation/fields';
import { emailAddress } from '../validation/email-address';

export const LIST_NAME_MAX = 100;
export const LIST_DESCRIPTION_MAX = 1000;
export const MEMBER_TAGS_MAX = 20;
export const MEMBER_TAG_MAX_LENGTH = 50;

/** A public list's name in one language: required in each language once the list is public. */
function publicName() {
  return text(LIST_NAME_MAX).when('public', {
    is: true,
    then: (name) => name.required(message('required')),
    otherwise: (name) =>
      name.transform((value: unknown) => (value === '' || value === null ? undefined : value)),
  });
}

/**
 * The list dialog, on create and on edit. A public list is offered on the
 * newsletter sign-up and the preference page, so it carries its name (and
 * optionally a description) in each language of the site; the staff name
 * and description stay internal. The per-language fields are flat so that
 * the dialog binds each to one input.
 */
export const mailingListSchema = object({
  name: text(LIST_NAME_MAX).required(message('required')),
  description: optionalText(LIST_DESCRIPTION_MAX),
  /** Only a JSON true or false: a list is never made public by a stray "yes". */
  public: boolean()
    .transform((_value: unknown, original: unknown) => original)
    .typeError(message('mustBeTrueOrFalse'))
    .nonNullable(message('mustBeTrueOrFalse'))
    .default(false),
  nameEn: publicName(),
  nameFr: publicName(),
  nameAr: publicName(),
  descriptionEn: optionalText(LIST_DESCRIPTION_MAX),
  descriptionFr: optionalText(LIST_DESCRIPTION_MAX),
  descriptionAr: optionalText(LIST_DESCRIPTION_MAX),
});
export type MailingListInput = InferType<typeof mailingListSchema>;

/** The input's field holding a public list's name, and its description, in one language. */
export const PUBLIC_LIST_FIELDS: Record<
  Locale,
  {
    name: 'nameEn' | 'nameFr' | 'nameAr';
    description: 'descriptionEn' | 'descriptionFr' | 'descriptionAr';
  }
> = {
  en: { name: 'nameEn', description: 'descriptionEn' },
  fr: { name: 'nameFr', description: 'descriptionFr' },
  ar: { name: 'nameAr', description: 'descriptionAr' },
};

/** A list's public face in one language. */
export interface PublicListTextDto {
  name: string;
  description: string | null;
}

/** The public lists' query: the language their names are wanted in (English when absent). */
export const publicListQuerySchema = object({
  lang: oneOfText(LOCALES).optional(),
});
export type PublicListQuery = InferType<typeof publicListQuerySchema>;

/** A public list as visitors see it: names only, never its members or their count. */
export interface PublicListDto {
  id: string;
  name: string;
  description: string | null;
}

export interface PublicListsResponse {
  locale: Locale;
  items: PublicListDto[];
}

/** A list is `active`, or `deleting` from the delete request until its last member is gone. */
export const MAILING_LIST_STATES = ['active', 'deleting'] as const;
export type MailingListState = (typeof MAILING_LIST_STATES)[number];

export const mailingListQuerySchema = listQuerySchema({
  sortFields: ['name', 'createdAt', 'memberCount'] as const,
  defaultSort: 'name',
  // Audience pickers ask for `active` lists only: a list being deleted takes no campaign or import.
  filters: { state: oneOfText(MAILING_LIST_STATES).optional() },
});
export type MailingListQuery = InferType<typeof mailingListQuerySchema>;

export interface MailingListDto {
  id: string;
  name: string;
  description: string | null;
  /** Offered on the newsletter sign-up and the preference page. */
  public: boolean;
  /** The list's name and description in each language (empty names while it was never public). */
  localized: Record<Locale, PublicListTextDto>;
  /** People in the list, whatever their state: the campaign count leaves out the suppressed. */
  memberCount: number;
  state: MailingListState;
  /** While `deleting`: how far the removal of its members has come; null when active. */
  deletion: MailingListDeletionDto | null;
  createdAt: string;
  updatedAt: string;
}

/** The progress of a list's deletion, as the worker's job saves it after each chunk. */
export interface MailingListDeletionDto {
  /** Members when the deletion was asked for. */
  total: number;
  /** Members removed so far (at most `total`). */
  removed: number;
  startedAt: string;
}

/** One person added to a list by hand. */
export const listMemberSchema = object({
  email: emailAddress(),
  firstName: optionalText(100),
  lastName: optionalText(100),
  locale: oneOfText(LOCALES).optional(),
  tags: array(text(MEMBER_TAG_MAX_LENGTH).required(message('required')))
    .max(MEMBER_TAGS_MAX, message('maxValue', { max: MEMBER_TAGS_MAX }))
    .optional(),
});
export type ListMemberInput = InferType<typeof listMemberSchema>;

export const listMemberQuerySchema = listQuerySchema({
  sortFields: ['email', 'createdAt'] as const,
  defaultSort: 'email',
  filters: {},
});
export type ListMemberQuery = InferType<typeof listMemberQuerySchema>;

/**
 * How a person came into a list: an import, staff adding them, or their own
 * newsletter sign-up (a public list chosen on the form, confirmed by its mail)
 * or their preference page.
 */
export const LIST_MEMBER_CONSENT_BASES = ['import', 'staff', 'sign-up'] as const;
export type ListMemberConsentBasis = (typeof LIST_MEMBER_CONSENT_BASES)[number];

/** Why a person is in a list: proof of the basis a campaign to the list mails them on. */
export interface ConsentRecordDto {
  basis: ListMemberConsentBasis;
  by: { id: string; username: string } | null;
  at: string;
  /** The imported file's name, for basis `import`. */
  file: string | null;
  list: { id: string; name: string };
}

export interface ListMemberDto {
  /** The normalised address: what a person is known by in every list. */
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
  tags: string[];
  consent: ConsentRecordDto | null;
  /** Suppressed or unsubscribed: kept in the list, never mailed. */
  excluded: boolean;
  createdAt: string;
}
