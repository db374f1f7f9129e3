import { array, mixed, number, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { isRecordId, message, oneOfText, text } from '../validation/fields';
import { TIME_OF_DAY, WEEKDAYS, minutesOf, type SendingWindow, type Weekday } from './agency-time';
import { listQuerySchema } from './list-query';
import {
  PLACEHOLDER_PATTERN,
  misplacedPlaceholder,
  type MisplacedPlaceholder,
} from './layout-placeholders';
import {
  DEFAULT_PLACEHOLDER_FALLBACKS,
  FALLBACK_VARIABLES,
  PLACEHOLDER_FALLBACK_MAX,
  fallbackProblem,
  isFallbackVariable,
  parsePlaceholders,
  strayPlaceholderBraces,
} from './placeholder-fallback';

/**
 * What a campaign may say about its recipient (and its sender), written
 * `{{name}}` in the subject, the content and a template. The staff pick them
 * from a menu; anything else between double braces is refused at save.
 */
export const CAMPAIGN_VARIABLES = [
  'firstName',
  'lastName',
  'email',
  'unsubscribeUrl',
  'senderName',
] as const;
export type CampaignVariable = (typeof CAMPAIGN_VARIABLES)[number];

/** Where a template puts its parts and colours: only a template's layout holds them. */
export const TEMPLATE_SLOTS = [
  'content',
  'header',
  'footer',
  'brandColor',
  'backgroundColor',
  'textColor',
] as const;
export type TemplateSlot = (typeof TEMPLATE_SLOTS)[number];

/** The names between double braces in `text` that are not in `known`, each once. */
export function unknownPlaceholders(text: string, known: readonly string[]): string[] {
  const unknown = new Set<string>();
  for (const [, name = ''] of text.matchAll(PLACEHOLDER_PATTERN)) {
    if (!known.includes(name)) unknown.add(name);
  }
  return [...unknown];
}

/** Why one placeholder may not stand as written, or undefined. */
function placeholderMessage(
  { name, fallback }: { name: string; fallback: string | undefined },
  known: readonly string[],
  html: boolean,
) {
  if (!known.includes(name)) {
    return message('unknownVariable', { name, known: CAMPAIGN_VARIABLES.join(', ') });
  }
  if (fallback === undefined) return undefined;
  if (!isFallbackVariable(name)) {
    return message('fallbackNotAllowed', { name, allowed: FALLBACK_VARIABLES.join(', ') });
  }
  const problem = fallbackProblem(fallback, html);
  return problem
    ? message(problem, { name, max: PLACEHOLDER_FALLBACK_MAX, example: `{{${name}|there}}` })
    : undefined;
}

/**
 * A text field whose placeholders must all be among `known`, each with a
 * fallback only where the recipient's value may be missing, and that fallback
 * short plain text: refused with the first problem. `html`: the field is HTML,
 * where a fallback is written entity-encoded.
 */
export function withPlaceholders(
  maxLength: number,
  known: readonly string[] = CAMPAIGN_VARIABLES,
  { html = true }: { html?: boolean } = {},
) {
  return text(maxLength).test('known-variables', (value, context) => {
    for (const placeholder of parsePlaceholders(value ?? '')) {
      const problem = placeholderMessage(placeholder, known, html);
      if (problem) return context.createError({ message: problem });
    }
    if (strayPlaceholderBraces(value ?? '')) {
      return context.createError({
        message: message('placeholderMalformed', { example: '{{firstName|there}}' }),
      });
    }
    return true;
  });
}

/**
 * A campaign's default fallback in one language: what a placeholder without
 * its own says for a recipient without the value. Plain text, never empty
 * (an empty one would leave the hole it is there to fill).
 */
const defaultFallback = (locale: Locale) =>
  text(PLACEHOLDER_FALLBACK_MAX)
    .default(DEFAULT_PLACEHOLDER_FALLBACKS[locale])
    .transform((value: unknown) => (value === undefined || value === null ? undefined : value))
    .test('plain-fallback', (value, context) => {
      const problem = fallbackProblem(value ?? '', false);
      // Only `required`-like and markup problems: the length is text()'s own message.
      if (problem === null || problem === 'fallbackTooLong') return true;
      return context.createError({
        message: message(problem === 'fallbackEmpty' ? 'required' : problem, {
          name: locale,
          example: '',
        }),
      });
    });

/** The default fallback per language, each defaulting to the shipped one. */
export const placeholderFallbacksSchema = () =>
  object(
    Object.fromEntries(LOCALES.map((locale) => [locale, defaultFallback(locale)])) as Record<
      Locale,
      ReturnType<typeof defaultFallback>
    >,
  )
    .typeError(message('mustBeText'))
    .transform((value: unknown) => (value === null ? undefined : value));

export const CAMPAIGN_SUBJECT_MAX = 200;
export const CAMPAIGN_CONTENT_MAX = 100_000;

/** A subject and content in one more language than the campaign's default. */
export const campaignTranslationSchema = object({
  locale: oneOfText(LOCALES).required(message('required')),
  subject: withPlaceholders(CAMPAIGN_SUBJECT_MAX, CAMPAIGN_VARIABLES, { html: false }).required(
    message('required'),
  ),
  content: withPlaceholders(CAMPAIGN_CONTENT_MAX).required(message('required')),
});
export type CampaignTranslation = InferType<typeof campaignTranslationSchema> & {
  locale: Locale;
};

export const RATE_PER_MINUTE_MAX = 100_000;

const timeOfDay = () =>
  text(5)
    .required(message('required'))
    .matches(TIME_OF_DAY, { message: message('timeOfDay') });

/** Days and hours on the agency's clock; the end must come after the start. */
export const sendingWindowSchema = object({
  days: array(
    number()
      .typeError(message('mustBeWholeNumber'))
      .integer(message('mustBeWholeNumber'))
      .oneOf([...WEEKDAYS], message('oneOf', { values: WEEKDAYS.join(', ') }))
      .required(),
  )
    .typeError(message('windowDays'))
    .min(1, message('windowDays'))
    .max(7, message('windowDays'))
    .required(message('windowDays')),
  start: timeOfDay(),
  end: timeOfDay().test(
    'after-start',
    message('windowNoHours'),
    (end, context) =>
      !end ||
      !TIME_OF_DAY.test(String(context.parent.start)) ||
      minutesOf(end) > minutesOf(String(context.parent.start)),
  ),
});

/** What a stored sending window looks like, days deduplicated and in order. */
export function normalizedWindow(window: {
  days: number[];
  start: string;
  end: string;
}): SendingWindow {
  const days = [...new Set(window.days)].sort((a, b) => a - b) as Weekday[];
  return { days, start: window.start, end: window.end };
}

/** Messages per minute for one campaign: a whole number, at most the global cap. */
export const ratePerMinuteSchema = () =>
  number()
    .transform((_value: unknown, original: unknown) =>
      typeof original === 'number' ? original : original === null ? undefined : Number.NaN,
    )
    .typeError(message('mustBeWholeNumber'))
    .integer(message('mustBeWholeNumber'))
    .min(1, message('minValue', { min: 1 }))
    .max(RATE_PER_MINUTE_MAX, message('maxValue', { max: RATE_PER_MINUTE_MAX }))
    .nullable()
    .default(null);

/** A template's own id: the built-in default has this one, stored ones an ObjectId. */
export const DEFAULT_TEMPLATE_ID = 'default';

/** A campaign's template: a stored one's id, or none (or `default`) for the built-in one. */
export const optionalTemplateId = () =>
  mixed<string>()
    .transform((value: unknown) =>
      value === undefined || value === null || value === '' || value === DEFAULT_TEMPLATE_ID
        ? null
        : value,
    )
    .test(
      'record-id',
      message('idInvalid'),
      (value) => value === null || value === undefined || isRecordId(value),
    )
    .nullable()
    .default(null);

/* ---------------------------------------------------------------------------
 * Templates
 * ------------------------------------------------------------------------- */

export const TEMPLATE_HTML_MAX = 50_000;
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

const colour = () =>
  text(7)
    .required(message('required'))
    .matches(HEX_COLOUR, { message: message('colourInvalid') });

/** Why a layout may not put a placeholder where it did, naming the tag and attribute. */
export function misplacedPlaceholderMessage({ name, place }: MisplacedPlaceholder) {
  const slot = `{{${name}}}`;
  switch (place.kind) {
    case 'attribute':
      return message('placeholderInAttribute', {
        slot,
        attribute: place.attribute,
        tag: place.tag,
      });
    case 'tag':
      return message('placeholderInTag', { slot, tag: place.tag });
    case 'element':
      return message('placeholderInElement', { slot, tag: place.tag });
    case 'markup':
      return message('placeholderInMarkup', { slot });
  }
}

/** Only a template's layout places the content, header, footer and colours. */
const LAYOUT_PLACEHOLDERS: readonly string[] = [...CAMPAIGN_VARIABLES, ...TEMPLATE_SLOTS];

/**
 * A reusable layout: a header and a footer written in the editor, brand
 * colours, and the layout's HTML holding `{{content}}` where each campaign goes.
 */
export const campaignTemplateSchema = object({
  name: text(120).required(message('required')),
  header: withPlaceholders(TEMPLATE_HTML_MAX).default(''),
  footer: withPlaceholders(TEMPLATE_HTML_MAX).default(''),
  layout: withPlaceholders(TEMPLATE_HTML_MAX, LAYOUT_PLACEHOLDERS)
    .required(message('required'))
    .test(
      'content-slot',
      message('contentSlotMissing', { slot: '{{content}}' }),
      (layout) => !layout || /\{\{\s*content\s*\}\}/.test(layout),
    )
    // A value put inside a tag, attribute, comment or script could close its
    // quote and add markup of its own (an event handler): text only.
    .test('placeholders-in-text', (layout, context) => {
      const misplaced = misplacedPlaceholder(layout ?? '');
      return misplaced
        ? context.createError({ message: misplacedPlaceholderMessage(misplaced) })
        : true;
    }),
  brandColor: colour(),
  backgroundColor: colour(),
  textColor: colour(),
});
export type CampaignTemplateInput = InferType<typeof campaignTemplateSchema>;

export interface CampaignTemplateDto extends CampaignTemplateInput {
  id: string;
  /** The one that ships: not stored, not editable, duplicated to make one's own. */
  builtIn: boolean;
  /** Campaigns that use it: a template in use cannot be deleted. */
  usedBy: number;
  createdAt: string | null;
  updatedAt: string | null;
}

export const campaignTemplateListQuerySchema = listQuerySchema({
  sortFields: ['name', 'createdAt'] as const,
  defaultSort: 'name',
  filters: {},
});
export type CampaignTemplateListQuery = InferType<typeof campaignTemplateListQuerySchema>;

/**
 * The layout that ships: a coloured header band, a white card for the
 * content, a quiet footer; 600 px wide on a desktop, the full width of a
 * phone. Tables, attributes and inline styles, as mail clients need.
 */
export const DEFAULT_TEMPLATE_LAYOUT = [
  '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:{{brandColor}};border-radius:8px 8px 0 0">',
  '<tr><td class="mail-pad" style="padding:24px 32px;color:#ffffff">{{header}}</td></tr>',
  '</table>',
  '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#ffffff">',
  '<tr><td class="mail-pad" style="padding:32px;color:{{textColor}}">{{content}}</td></tr>',
  '</table>',
  '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#ffffff;border-top:1px solid #e5e7eb;border-radius:0 0 8px 8px">',
  '<tr><td class="mail-pad" style="padding:20px 32px;font-size:13px;line-height:1.5;color:#6b7280">{{footer}}</td></tr>',
  '</table>',
].join('\n');

export const DEFAULT_TEMPLATE: CampaignTemplateDto = {
  id: DEFAULT_TEMPLATE_ID,
  name: 'Agency (default)',
  header: '<h1>{{senderName}}</h1>',
  footer: '<p>{{senderName}}</p>',
  layout: DEFAULT_TEMPLATE_LAYOUT,
  brandColor: '#4f46e5',
  backgroundColor: '#f3f4f6',
  textColor: '#1f2937',
  builtIn: true,
  usedBy: 0,
  createdAt: null,
  updatedAt: null,
};

/* ---------------------------------------------------------------------------
 * Preview
 * ------------------------------------------------------------------------- */

/** A sample of the audience to preview the mail for. */
export interface CampaignSampleRecipientDto {
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
}

/**
 * POST /api/admin/campaigns/preview: the draft as the editor holds it (saved
 * or not), rendered by the code that sends it, in one language for one
 * recipient.
 */
export const campaignPreviewSchema = object({
  subject: text(CAMPAIGN_SUBJECT_MAX).default(''),
  content: text(CAMPAIGN_CONTENT_MAX).default(''),
  locale: oneOfText(LOCALES).default('en'),
  templateId: optionalTemplateId(),
  /** The editor's default fallbacks, as yet unsaved: the preview says them for a nameless recipient. */
  placeholderFallbacks: placeholderFallbacksSchema(),
  /** A template being edited, previewed before it is saved. */
  template: campaignTemplateSchema.default(undefined).optional(),
  recipient: object({
    email: text(254).default('ada@example.com'),
    firstName: text(100).default(''),
    lastName: text(100).default(''),
  }).default(undefined),
});
export type CampaignPreviewInput = InferType<typeof campaignPreviewSchema>;

export interface CampaignPreviewDto {
  subject: string;
  html: string;
  text: string;
  locale: Locale;
  dir: 'ltr' | 'rtl';
}
