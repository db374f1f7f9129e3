import { array, object, type InferType } from 'yup';
import { LOCALES } from '../locales';
import { listQuerySchema } from '../admin/list-query';
import { message, oneOfText, optionalText, text } from '../validation/fields';
import { emailAddress } from '../validation/email-address';

export const LIST_NAME_MAX = 100;
export const LIST_DESCRIPTION_MAX = 1000;
export const MEMBER_TAGS_MAX = 20;
export const MEMBER_TAG_MAX_LENGTH = 50;

/** The list dialog, on create and on edit. */
export const mailingListSchema = object({
  name: text(LIST_NAME_MAX).required(message('required')),
  description: optionalText(LIST_DESCRIPTION_MAX),
});
export type MailingListInput = InferType<typeof mailingListSchema>;

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

/** Why a person is in a list: proof of the basis a campaign to the list mails them on. */
export interface ConsentRecordDto {
  basis: 'import' | 'staff';
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
