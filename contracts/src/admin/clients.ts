import { object, type InferType } from 'yup';
import { jsonNumber, message, oneOfText, optionalText, text, urlText } from '../validation/fields';
import { emailAddress } from '../validation/email-address';
import { listQuerySchema } from './list-query';

export const CLIENT_INDUSTRIES = [
  'technology',
  'healthcare',
  'finance',
  'retail',
  'manufacturing',
  'education',
  'real-estate',
  'hospitality',
  'other',
] as const;
export type ClientIndustry = (typeof CLIENT_INDUSTRIES)[number];

export const CLIENT_STATUSES = ['active', 'inactive', 'potential'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** Budgets are money: never negative, at most cents, and of a sane size. */
export const CLIENT_BUDGET_MAX = 1_000_000_000;

/** The client modal, on create and on edit. */
export const clientSchema = object({
  companyName: text(200).required(message('required')),
  contactPerson: text(200).required(message('required')),
  email: emailAddress(),
  phone: optionalText(40),
  website: urlText(),
  monthlyBudget: jsonNumber()
    .optional()
    .min(0, message('minValue', { min: 0 }))
    .max(CLIENT_BUDGET_MAX, message('maxValue', { max: CLIENT_BUDGET_MAX }))
    // Step 0.01: whole cents only.
    .test('cents', message('mustBeNumber'), (value) =>
      value === undefined ? true : Math.abs(Math.round(value * 100) - value * 100) < 1e-6,
    ),
  industry: oneOfText(CLIENT_INDUSTRIES).optional(),
  status: oneOfText(CLIENT_STATUSES).default('active'),
  notes: optionalText(5000),
});
export type ClientInput = InferType<typeof clientSchema>;

export const CLIENT_SORT_FIELDS = ['companyName', 'createdAt', 'monthlyBudget', 'status'] as const;
export const clientListQuerySchema = listQuerySchema({
  sortFields: CLIENT_SORT_FIELDS,
  defaultSort: '-createdAt',
  filters: {
    status: oneOfText(CLIENT_STATUSES).optional(),
    industry: oneOfText(CLIENT_INDUSTRIES).optional(),
  },
});
export type ClientListQuery = InferType<typeof clientListQuerySchema>;

export interface ClientDto {
  id: string;
  companyName: string;
  contactPerson: string;
  email: string;
  phone?: string;
  website?: string;
  monthlyBudget?: number;
  industry?: ClientIndustry;
  status: ClientStatus;
  notes?: string;
  createdAt: string;
  updatedAt: string;
}
