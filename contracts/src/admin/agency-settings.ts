import { array, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { emailAddress } from '../validation/email-address';
import { message, oneOfText, text } from '../validation/fields';
import { trackingSettingsSchema, type TrackingSettings } from './campaign-results';
import {
  retentionSettingsSchema,
  type RetentionReportDto,
  type RetentionSettings,
} from './retention';

export const AGENCY_NAME_MAX = 100;
export const MAIL_HEADER_TEXT_MAX = 300;
export const MAIL_FOOTER_TEXT_MAX = 1000;
export const POSTAL_ADDRESS_MAX = 500;
export const SENDER_NAME_MAX = 100;
/** From addresses an admin may allow: a handful of mailboxes, not an audience. */
export const AGENCY_SENDERS_MAX = 20;
const TIME_ZONE_MAX = 64;

/**
 * An IANA zone name (`Africa/Tunis`, `UTC`) the runtime knows. Offsets such
 * as `+01:00` are refused: they ignore summer time, which the agency's
 * schedules and counted days must follow.
 */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** What campaign mail says in one language: the agency's name, a line under the header, the footer. */
const languageTextsSchema = object({
  agencyName: text(AGENCY_NAME_MAX).required(message('required')),
  header: text(MAIL_HEADER_TEXT_MAX).default(''),
  footer: text(MAIL_FOOTER_TEXT_MAX).default(''),
})
  .typeError(message('required'))
  .required(message('required'));

/** One From an admin allows: the name mail clients show, and the address. */
export const agencySenderSchema = object({
  name: text(SENDER_NAME_MAX).required(message('required')),
  address: emailAddress(),
}).typeError(message('required'));

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * PUT /api/admin/agency-settings, and the Agency section of the settings
 * page: the whole document each time. The default From must be one of the
 * allowed ones, and each allowed address appears once.
 */
export const agencySettingsSchema = object({
  languages: object({
    en: languageTextsSchema,
    fr: languageTextsSchema,
    ar: languageTextsSchema,
  })
    .typeError(message('required'))
    .required(message('required')),
  senders: array(agencySenderSchema)
    .typeError(message('mustBeList'))
    .required(message('required'))
    .min(1, message('required'))
    .max(AGENCY_SENDERS_MAX, message('maxItems', { max: AGENCY_SENDERS_MAX }))
    .test('once', (senders, context) => {
      const seen: string[] = [];
      for (const [index, sender] of (senders ?? []).entries()) {
        if (seen.some((address) => sameAddress(address, sender.address))) {
          return context.createError({
            path: `senders[${index}].address`,
            message: message('senderTwice'),
          });
        }
        seen.push(sender.address);
      }
      return true;
    }),
  defaultFrom: emailAddress().test('allowed', message('senderNotAllowed'), (value, context) => {
    // The parent is the raw body: `senders` may be anything a caller sent.
    const senders: unknown = (context.parent as { senders?: unknown }).senders;
    if (value === undefined || !Array.isArray(senders)) return true;
    return senders.some(
      (sender: unknown) =>
        typeof sender === 'object' &&
        sender !== null &&
        typeof (sender as { address?: unknown }).address === 'string' &&
        sameAddress((sender as { address: string }).address, value),
    );
  }),
  replyTo: emailAddress(),
  postalAddress: text(POSTAL_ADDRESS_MAX).default(''),
  timeZone: text(TIME_ZONE_MAX)
    .required(message('required'))
    .test('time-zone', message('timeZoneInvalid'), (value) =>
      value === undefined ? true : isTimeZone(value),
    ),
  defaultLocale: oneOfText(LOCALES).required(message('required')),
  /** Open and click tracking: a new campaign's switches, the mode, the key's retention. */
  tracking: trackingSettingsSchema,
  /** How long enquiries keep their personal details and the activity log its entries. */
  retention: retentionSettingsSchema,
});
export type AgencySettingsInput = Omit<
  InferType<typeof agencySettingsSchema>,
  'defaultLocale' | 'tracking' | 'retention'
> & {
  defaultLocale: Locale;
  tracking?: TrackingSettings;
  retention?: RetentionSettings;
};

export interface AgencySender {
  name: string;
  address: string;
}

export interface AgencyLanguageTexts {
  agencyName: string;
  header: string;
  footer: string;
}

/** GET and PUT /api/admin/agency-settings: the settings in force. */
export interface AgencySettingsDto {
  languages: Record<Locale, AgencyLanguageTexts>;
  senders: AgencySender[];
  /** The address of the sender a campaign uses unless it chooses another. */
  defaultFrom: string;
  /** Where replies go unless a campaign names its own address. */
  replyTo: string;
  postalAddress: string;
  /** IANA zone: schedules, sending windows and every time staff read. */
  timeZone: string;
  defaultLocale: Locale;
  tracking: TrackingSettings;
  retention: RetentionSettings;
  /** What the last retention pass removed; null before its first pass. */
  retentionReport: RetentionReportDto | null;
  /** When an admin last saved them (ISO); null while they are the first-run defaults. */
  updatedAt: string | null;
  updatedBy: string | null;
}

/** `Name <address>` as a From header says it. */
export function mailboxOf(sender: AgencySender): string {
  const name = sender.name.replace(/["\\\r\n]/g, '');
  return name ? `"${name}" <${sender.address}>` : sender.address;
}

/** The allowed sender with this address (any case), if there is one. */
export function allowedSender(
  senders: readonly AgencySender[],
  address: string,
): AgencySender | undefined {
  return senders.find((sender) => sameAddress(sender.address, address));
}
