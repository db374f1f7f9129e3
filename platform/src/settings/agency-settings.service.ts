import type { Logger } from '../logger';
import {
  DEFAULT_LOCALE,
  DEFAULT_RETENTION_SETTINGS,
  DEFAULT_TRACKING_SETTINGS,
  LOCALES,
  allowedSender,
  mailboxOf,
  type AgencyLanguageTexts,
  type AgencySender,
  type AgencySettingsInput,
  type Locale,
  type RetentionSettings,
  type TrackingMode,
  type TrackingSettings,
} from '@agency/contracts';
import { senderNameOf } from '../campaigns/rendering/campaign.template';
import { AGENCY_SETTINGS_ID, AgencySettingsModel } from './agency-settings.model';

/** The agency's settings as the API and the worker use them. */
export interface AgencySettings {
  languages: Record<Locale, AgencyLanguageTexts>;
  senders: AgencySender[];
  defaultFrom: string;
  replyTo: string;
  postalAddress: string;
  timeZone: string;
  defaultLocale: Locale;
  /** A new campaign's tracking switches, the events' mode and the key's retention. */
  tracking: TrackingSettings;
  /** How long enquiries keep their personal details and the activity log its entries. */
  retention: RetentionSettings;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** What an installation's environment said before the settings were kept in the store. */
export interface AgencySettingsFallback {
  /** `MAIL_FROM`: the one sender, and the agency's name in every language. */
  mailFrom: string;
  /** `AGENCY_TIME_ZONE`. */
  timeZone: string;
}

/** Written under every campaign mail until an admin writes their own. */
export const DEFAULT_MAIL_FOOTERS: Record<Locale, string> = {
  en: 'You receive this mail because you contacted us or subscribed to our news.',
  fr: 'Vous recevez cet e-mail parce que vous nous avez contactés ou êtes abonné à nos actualités.',
  ar: 'تصلك هذه الرسالة لأنك تواصلت معنا أو اشتركت في أخبارنا.',
};

/** The address inside `Name <address>`, or the value itself when it is a bare address. */
function addressOf(mailbox: string): string {
  return (/<([^>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox).trim();
}

/**
 * The settings of an installation no admin has saved yet: the environment's
 * values, so that it keeps sending as before the settings moved to the store.
 */
export function firstRunAgencySettings(fallback: AgencySettingsFallback): AgencySettings {
  const address = addressOf(fallback.mailFrom);
  const name = senderNameOf(fallback.mailFrom);
  const languages = Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      { agencyName: name, header: '', footer: DEFAULT_MAIL_FOOTERS[locale] },
    ]),
  ) as Record<Locale, AgencyLanguageTexts>;
  return {
    languages,
    senders: [{ name, address }],
    defaultFrom: address,
    replyTo: address,
    postalAddress: '',
    timeZone: fallback.timeZone,
    defaultLocale: DEFAULT_LOCALE,
    tracking: { ...DEFAULT_TRACKING_SETTINGS },
    retention: { ...DEFAULT_RETENTION_SETTINGS },
    updatedAt: null,
    updatedBy: null,
  };
}

let fallback: AgencySettingsFallback = {
  mailFrom: 'Agency <no-reply@agency.local>',
  timeZone: 'Africa/Tunis',
};

/**
 * How long a process keeps the settings it read. Another process's save
 * reaches this one within this time, without a restart; the process that
 * saves sees its save at once. Short, since a read is one small document.
 */
export const AGENCY_SETTINGS_CACHE_MS = 5000;

let cached: { readAt: number; settings: Promise<AgencySettings> } | undefined;

/** Each process says, once at start, what its environment held (MAIL_FROM, AGENCY_TIME_ZONE). */
export function setAgencySettingsFallback(values: AgencySettingsFallback): void {
  fallback = values;
  cached = undefined;
}

type StoredLanguages = Partial<Record<Locale, Partial<AgencyLanguageTexts> | null>>;

function languagesOf(stored: StoredLanguages | undefined, first: AgencySettings) {
  return Object.fromEntries(
    LOCALES.map((locale) => {
      const texts = stored?.[locale];
      return [
        locale,
        {
          agencyName: texts?.agencyName ?? first.languages[locale].agencyName,
          header: texts?.header ?? '',
          footer: texts?.footer ?? '',
        },
      ];
    }),
  ) as Record<Locale, AgencyLanguageTexts>;
}

async function loadAgencySettings(): Promise<AgencySettings> {
  const first = firstRunAgencySettings(fallback);
  const stored = await AgencySettingsModel.findById(AGENCY_SETTINGS_ID).lean();
  if (!stored) return first;
  return {
    languages: languagesOf(stored.languages as StoredLanguages | undefined, first),
    senders: stored.senders.map(({ name, address }) => ({ name, address })),
    defaultFrom: stored.defaultFrom,
    replyTo: stored.replyTo,
    postalAddress: stored.postalAddress ?? '',
    timeZone: stored.timeZone,
    defaultLocale: stored.defaultLocale as Locale,
    tracking: stored.tracking
      ? { ...stored.tracking, mode: stored.tracking.mode as TrackingMode }
      : { ...DEFAULT_TRACKING_SETTINGS },
    retention: stored.retention
      ? {
          enquiryMonths: stored.retention.enquiryMonths ?? null,
          activityMonths: stored.retention.activityMonths,
        }
      : { ...DEFAULT_RETENTION_SETTINGS },
    updatedAt: stored.updatedAt ?? null,
    updatedBy: stored.updatedBy ?? null,
  };
}

/** The settings in force: the store's once an admin saved them, else the first-run defaults. */
export function readAgencySettings(): Promise<AgencySettings> {
  const now = Date.now();
  if (!cached || now - cached.readAt >= AGENCY_SETTINGS_CACHE_MS) {
    const settings = loadAgencySettings();
    cached = { readAt: now, settings };
    // A failed read is not kept: the next use asks the store again.
    settings.catch(() => {
      if (cached?.settings === settings) cached = undefined;
    });
  }
  return cached.settings;
}

/**
 * The agency's time zone as its settings say now, for what is counted or
 * written on its clock (days of the dashboard, staff mail). A failed read
 * must not stop that work: it then takes `configured` (AGENCY_TIME_ZONE) and
 * logs why.
 */
export function agencyTimeZoneSource(configured: string, logger: Logger): () => Promise<string> {
  return () =>
    readAgencySettings().then(
      (settings) => settings.timeZone,
      (error: unknown) => {
        logger.warn({ err: error }, 'agency settings unreadable; using the configured time zone');
        return configured;
      },
    );
}

/** Replaces the settings (already validated); this process reads the new ones at once. */
export async function saveAgencySettings(
  input: AgencySettingsInput,
  updatedBy: string,
): Promise<AgencySettings> {
  cached = undefined;
  await AgencySettingsModel.findOneAndUpdate(
    { _id: AGENCY_SETTINGS_ID },
    {
      $set: {
        languages: input.languages,
        senders: input.senders.map(({ name, address }) => ({ name, address })),
        defaultFrom: allowedSender(input.senders, input.defaultFrom)?.address ?? input.defaultFrom,
        replyTo: input.replyTo,
        postalAddress: input.postalAddress,
        timeZone: input.timeZone,
        defaultLocale: input.defaultLocale,
        tracking: input.tracking ?? { ...DEFAULT_TRACKING_SETTINGS },
        retention: input.retention ?? { ...DEFAULT_RETENTION_SETTINGS },
        updatedBy,
      },
    },
    { upsert: true, returnDocument: 'after' },
  );
  cached = undefined;
  return readAgencySettings();
}

/** What one campaign's mail carries of the settings: its sender and the agency's texts. */
export interface CampaignSender {
  /** The From header: `"Name" <address>`. */
  from: string;
  replyTo: string;
  languages: Record<Locale, AgencyLanguageTexts>;
  postalAddress: string;
}

/**
 * The sender of a campaign that chose `fromAddress` (null: the agency's
 * default) and `replyTo` (null: the agency's). An address an admin has
 * since removed from the allowed ones gives way to the default.
 */
export function campaignSenderOf(
  settings: AgencySettings,
  choice: { fromAddress?: string | null; replyTo?: string | null },
): CampaignSender {
  const chosen = choice.fromAddress
    ? allowedSender(settings.senders, choice.fromAddress)
    : undefined;
  const sender = chosen ??
    allowedSender(settings.senders, settings.defaultFrom) ?? {
      name: settings.languages[settings.defaultLocale].agencyName,
      address: settings.defaultFrom,
    };
  return {
    from: mailboxOf(sender),
    replyTo: choice.replyTo || settings.replyTo,
    languages: settings.languages,
    postalAddress: settings.postalAddress,
  };
}
