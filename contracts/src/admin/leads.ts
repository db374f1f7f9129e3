import { object, type InferType } from 'yup';
import { jsonNumber, message, oneOfText, optionalText, recordId, text } from '../validation/fields';
import { optionalEmailAddress } from '../validation/email-address';
import { listQuerySchema } from './list-query';

export const LEAD_SOURCES = ['enquiry', 'manual', 'referral', 'other'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_VALUE_MAX = 1_000_000_000;

/**
 * A lead as staff enter or edit it. The enquiry it came from is set by the
 * server on conversion only, never from a request body.
 */
export const leadSchema = object({
  name: text(200).required(message('required')),
  email: optionalEmailAddress(),
  phone: optionalText(40),
  company: optionalText(200),
  source: oneOfText(LEAD_SOURCES).default('manual'),
  status: oneOfText(LEAD_STATUSES).default('new'),
  estimatedValue: jsonNumber()
    .optional()
    .min(0, message('minValue', { min: 0 }))
    .max(LEAD_VALUE_MAX, message('maxValue', { max: LEAD_VALUE_MAX })),
  notes: optionalText(5000),
  /** The staff member who follows the lead up. */
  assigneeId: recordId()
    .transform((value: unknown) => (value === '' || value === null ? undefined : value))
    .optional(),
});
export type LeadInput = InferType<typeof leadSchema>;

export const LEAD_SORT_FIELDS = ['name', 'createdAt', 'estimatedValue', 'status'] as const;
export const leadListQuerySchema = listQuerySchema({
  sortFields: LEAD_SORT_FIELDS,
  defaultSort: '-createdAt',
  filters: {
    status: oneOfText(LEAD_STATUSES).optional(),
    source: oneOfText(LEAD_SOURCES).optional(),
    assigneeId: recordId().optional(),
  },
});
export type LeadListQuery = InferType<typeof leadListQuerySchema>;

export interface LeadDto {
  id: string;
  name: string;
  email?: string;
  phone?: string;
  company?: string;
  source: LeadSource;
  status: LeadStatus;
  estimatedValue?: number;
  notes?: string;
  assignee: { id: string; username: string } | null;
  /** The enquiry this lead was converted from, if any. */
  contactId: string | null;
  createdAt: string;
  updatedAt: string;
}
