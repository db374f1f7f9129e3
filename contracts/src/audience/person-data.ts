import { object, string, type InferType } from 'yup';
import type { Locale } from '../locales';
import type { SubscriberStatus } from '../newsletter/newsletter.dto';
import type { LedgerState } from '../admin/campaigns';
import { emailAddress } from '../validation/email-address';
import { message } from '../validation/fields';
import type { SuppressionReason } from './suppressions';

/**
 * The data download and the erasure of one address (GET personData, POST
 * personErasure, GET erasure in api-routes.ts).
 */

/** Raised when a section of the export changes shape, so a reader knows which it holds. */
export const PERSON_DATA_FORMAT_VERSION = 1;

/** `:email` of the person routes: one deliverable address, whatever the route. */
export const personAddressParamsSchema = object({
  email: emailAddress(),
});
export type PersonAddressParams = InferType<typeof personAddressParamsSchema>;

/**
 * POST personErasure: the address typed again by the admin, as the
 * dashboard's dialog asks; the API refuses a call whose body names another.
 */
export const personErasureSchema = object({
  confirm: emailAddress(),
});
export type PersonErasureInput = InferType<typeof personErasureSchema>;

/** An erasure's id is the address's keyed digest: 32 hex digits, nothing else. */
export const ERASURE_ID_PATTERN = /^[0-9a-f]{32}$/;

export const erasureParamsSchema = object({
  id: string()
    .trim()
    .required(message('required'))
    .matches(ERASURE_ID_PATTERN, { message: message('idInvalid'), excludeEmptyString: true }),
});

/** Everything held about one address, as the JSON file the person (or staff for them) downloads. */
export interface PersonDataExportDto {
  formatVersion: typeof PERSON_DATA_FORMAT_VERSION;
  /** When the file was made (ISO 8601). */
  generatedAt: string;
  email: string;
  subscription: {
    email: string;
    status: SubscriberStatus;
    locale: Locale;
    createdAt: string;
    confirmedAt: string | null;
    unsubscribedAt: string | null;
    unsubscribeMethod: string | null;
    /** The consent record of the last sign-up: when, from where, and which wording was shown. */
    consent: {
      requestedAt: string;
      ip: string | null;
      locale: string;
      source: string;
      wordingVersion: string;
      confirmedAt: string | null;
      confirmedIp: string | null;
    } | null;
  } | null;
  listMemberships: {
    list: { id: string; name: string };
    email: string;
    firstName: string;
    lastName: string;
    locale: string;
    tags: string[];
    /** Why the address may be mailed: an import (its file) or a staff member's addition. */
    consent: { basis: string; at: string | null; by: string | null; file: string | null };
    createdAt: string;
  }[];
  enquiries: {
    id: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string | null;
    service: string;
    message: string;
    locale: string;
    status: string;
    createdAt: string;
  }[];
  /** Every campaign mail addressed to it, with how it ended. */
  mailsSent: {
    campaign: { id: string; name: string | null };
    round: number;
    queuedAt: string;
    state: LedgerState | 'queued';
    reason: string | null;
    at: string | null;
  }[];
  /** Bounces and complaints received about the address. */
  mailEvents: {
    kind: string;
    provider: string;
    campaign: string | null;
    detail: string | null;
    at: string;
  }[];
  suppression: {
    reason: SuppressionReason;
    source: string;
    at: string;
    detail: string | null;
  } | null;
  /** Opens and clicks, where a campaign tracked them by address (individual mode). */
  trackingEvents: {
    campaign: string;
    opened: boolean;
    clicked: boolean;
    /** How many opens and clicks were recorded. */
    events: number;
  }[];
}

export const ERASURE_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ErasureState = (typeof ERASURE_STATES)[number];

/** An erasure as the dashboard follows it: never the address. */
export interface ErasureDto {
  id: string;
  state: ErasureState;
  requestedAt: string;
  finishedAt: string | null;
  /** The steps finished so far, out of `stepsTotal`. */
  stepsDone: number;
  stepsTotal: number;
}
