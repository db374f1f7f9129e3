import {
  DEFAULT_PLACEHOLDER_FALLBACKS,
  DEFAULT_TEMPLATE_ID,
  DEFAULT_TRACKING_SETTINGS,
  LOCALES,
  campaignSchema,
  type CampaignDto,
  type CampaignInput,
  type EnquiryLawfulBasis,
  type Locale,
  type PlaceholderFallbacks,
  type RecipientType,
  type Weekday,
} from '@agency/contracts';
import { setIn, type FormikErrors } from 'formik';
import { ValidationError } from 'yup';

type Written = { subject: string; content: string };

/**
 * The campaign editor's form: one subject and content per language (the
 * default one required, the others sent only when written), the sending
 * window behind a switch and the rate as typed. `inputOf` makes the API's
 * input of it, which `campaignSchema` checks as the API does.
 */
export interface CampaignFormValues {
  name: string;
  recipientType: RecipientType;
  /** The lists a campaign of type `lists` goes to. */
  listIds: string[];
  /** The segments a campaign of type `segments` goes to. */
  segmentIds: string[];
  /** The basis on which enquiry contacts without consent are mailed too; empty: none. */
  enquiryLawfulBasis: EnquiryLawfulBasis | '';
  defaultLocale: Locale;
  templateId: string;
  languages: Record<Locale, Written>;
  /** What a placeholder without its own fallback says, per language. */
  placeholderFallbacks: PlaceholderFallbacks;
  windowEnabled: boolean;
  window: { days: Weekday[]; start: string; end: string };
  ratePerMinute: string | number;
  /** One of the allowed senders' addresses; empty: the agency's default. */
  fromAddress: string;
  /** Empty: the agency's Reply-To. */
  replyTo: string;
  /** Whether the mail counts opens (a pixel) and clicks (tracking links). */
  tracking: CampaignTracking;
  /** Shown on the public archive once sent. */
  publishToArchive: boolean;
}

export type CampaignTracking = { opens: boolean; clicks: boolean };

const EMPTY: Written = { subject: '', content: '' };
/** What an empty editor holds: nothing written. */
const isBlank = (html: string) => html.replace(/<p><\/p>|<br\s*\/?>|\s/g, '') === '';
const written = ({ subject, content }: Written) => subject.trim() !== '' || !isBlank(content);

/**
 * A new campaign starts in `agencyLocale`, the agency's default language,
 * tracking what the agency tracks by default.
 */
export function initialCampaignValues(
  campaign?: CampaignDto,
  agencyLocale: Locale = 'en',
  agencyTracking: CampaignTracking = DEFAULT_TRACKING_SETTINGS,
): CampaignFormValues {
  const tracking = campaign?.tracking ?? agencyTracking;
  const defaultLocale = campaign?.defaultLocale ?? agencyLocale;
  const languages = Object.fromEntries(LOCALES.map((locale) => [locale, { ...EMPTY }])) as Record<
    Locale,
    Written
  >;
  if (campaign) {
    languages[defaultLocale] = { subject: campaign.subject, content: campaign.content };
    for (const { locale, subject, content } of campaign.translations) {
      languages[locale] = { subject, content };
    }
  }
  return {
    name: campaign?.name ?? '',
    recipientType: campaign?.recipientType ?? 'all',
    listIds: campaign?.listIds ?? [],
    segmentIds: campaign?.segmentIds ?? [],
    enquiryLawfulBasis: campaign?.enquiryLawfulBasis ?? '',
    defaultLocale,
    templateId: campaign?.templateId ?? DEFAULT_TEMPLATE_ID,
    languages,
    placeholderFallbacks: { ...(campaign?.placeholderFallbacks ?? DEFAULT_PLACEHOLDER_FALLBACKS) },
    windowEnabled: Boolean(campaign?.sendingWindow),
    // Office hours on weekdays: what most agencies pick.
    window: campaign?.sendingWindow ?? { days: [1, 2, 3, 4, 5], start: '08:00', end: '20:00' },
    ratePerMinute: campaign?.ratePerMinute ? String(campaign.ratePerMinute) : '',
    fromAddress: campaign?.fromAddress ?? '',
    replyTo: campaign?.replyTo ?? '',
    tracking: { opens: tracking.opens, clicks: tracking.clicks },
    publishToArchive: campaign?.publishToArchive ?? false,
  };
}

/** Whether anything is written in one language: a copy over it asks first. */
export function hasWritten(values: CampaignFormValues, locale: Locale): boolean {
  return written(values.languages[locale]);
}

/**
 * The form with the default language's subject and content copied into
 * `locale`, as a starting point for its translation.
 */
export function withDefaultLanguageCopied(
  values: CampaignFormValues,
  locale: Locale,
): CampaignFormValues {
  return {
    ...values,
    languages: { ...values.languages, [locale]: { ...values.languages[values.defaultLocale] } },
  };
}

/** The languages the form holds something in, the default first. */
export function writtenLocales(values: CampaignFormValues): Locale[] {
  return [
    values.defaultLocale,
    ...LOCALES.filter(
      (locale) => locale !== values.defaultLocale && written(values.languages[locale]),
    ),
  ];
}

export function inputOf(values: CampaignFormValues) {
  const main = values.languages[values.defaultLocale];
  // A number field: formik keeps a number once typed, an empty string when cleared.
  const rate = String(values.ratePerMinute).trim();
  return {
    name: values.name,
    recipientType: values.recipientType,
    listIds: values.listIds,
    segmentIds: values.segmentIds,
    enquiryLawfulBasis: values.enquiryLawfulBasis || null,
    defaultLocale: values.defaultLocale,
    subject: main.subject,
    content: isBlank(main.content) ? '' : main.content,
    translations: writtenLocales(values)
      .slice(1)
      .map((locale) => ({ locale, ...values.languages[locale] })),
    placeholderFallbacks: values.placeholderFallbacks,
    templateId: values.templateId === DEFAULT_TEMPLATE_ID ? null : values.templateId,
    sendingWindow: values.windowEnabled ? values.window : null,
    ratePerMinute: rate === '' ? null : Number(rate),
    fromAddress: values.fromAddress,
    replyTo: values.replyTo,
    tracking: values.tracking,
    publishToArchive: values.publishToArchive,
  };
}

/** Where an error of the API's input shows in the form. */
export function formPathOf(path: string, values: CampaignFormValues): string {
  if (path === 'subject' || path === 'content') {
    return `languages.${values.defaultLocale}.${path}`;
  }
  const translated = /^translations\[(\d+)\]\.(subject|content)$/.exec(path);
  if (translated) {
    const locale = writtenLocales(values).slice(1)[Number(translated[1])];
    return locale ? `languages.${locale}.${translated[2]}` : 'name';
  }
  if (path.startsWith('sendingWindow')) return path.replace(/^sendingWindow/, 'window');
  return path;
}

/** The form checked by the API's own schema, its reasons placed under the fields. */
export async function validateCampaign(
  values: CampaignFormValues,
): Promise<FormikErrors<CampaignFormValues>> {
  try {
    await campaignSchema.validate(inputOf(values), { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    let errors: FormikErrors<CampaignFormValues> = {};
    for (const issue of error.inner.length > 0 ? error.inner : [error]) {
      errors = setIn(errors, formPathOf(issue.path ?? 'name', values), issue.message);
    }
    return errors;
  }
}

/** The body the API takes: the schema's output, stripped of what it does not know. */
export async function campaignBody(values: CampaignFormValues): Promise<CampaignInput> {
  return (await campaignSchema.validate(inputOf(values), {
    stripUnknown: true,
  })) as CampaignInput;
}

/** The API's field paths a campaign save may answer with. */
export const CAMPAIGN_SERVER_FIELDS = [
  'name',
  'subject',
  'content',
  'recipientType',
  'listIds',
  'segmentIds',
  'enquiryLawfulBasis',
  'defaultLocale',
  'templateId',
  'ratePerMinute',
  ...LOCALES.map((locale) => `placeholderFallbacks.${locale}` as const),
  'fromAddress',
  'replyTo',
  'tracking.opens',
  'tracking.clicks',
  'sendingWindow.days',
  'sendingWindow.start',
  'sendingWindow.end',
  ...[0, 1].flatMap((index) => [
    `translations[${index}].subject`,
    `translations[${index}].content`,
  ]),
] as const;
