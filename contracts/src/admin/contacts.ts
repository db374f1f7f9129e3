import { object, type InferType } from 'yup';
import { CONTACT_STATUSES, MAIL_STATES, type ContactDto } from '../contact/contact.dto';
import { SERVICE_SLUGS } from '../services';
import { message, oneOfText } from '../validation/fields';
import { keysetListQuerySchema } from './list-query';

export const contactStatusSchema = object({
  status: oneOfText(CONTACT_STATUSES).required(message('required')),
});
export type ContactStatusInput = InferType<typeof contactStatusSchema>;

export const CONTACT_SORT_FIELDS = ['createdAt', 'lastName', 'email', 'status'] as const;
/**
 * The contacts table and its export: paged by keyset, sorted by any column,
 * filtered, and searched by the start of a name (or of any word in it) or of
 * the e-mail address, ignoring case and accents.
 */
export const contactListQuerySchema = keysetListQuerySchema({
  sortFields: CONTACT_SORT_FIELDS,
  defaultSort: '-createdAt',
  filters: {
    status: oneOfText(CONTACT_STATUSES).optional(),
    service: oneOfText(SERVICE_SLUGS).optional(),
    mailState: oneOfText(MAIL_STATES).optional(),
  },
});
export type ContactListQuery = InferType<typeof contactListQuerySchema>;

/** One enquiry as staff see it, with where its notification mail stands. */
export interface ContactDetailDto extends ContactDto {
  mailSentAt: string | null;
  mailError: string | null;
  updatedAt: string;
}

/** The columns of the CSV export, in order. */
export const CONTACT_EXPORT_COLUMNS = [
  'id',
  'createdAt',
  'firstName',
  'lastName',
  'email',
  'phone',
  'service',
  'status',
  'mailState',
  'locale',
  'message',
] as const;
