import {
  DEFAULT_TEMPLATE,
  LOCALES,
  NEWSLETTER_PAGES,
  directionOf,
  newsletterPagePath,
  type AudienceTarget,
  type CampaignLanguageAudienceDto,
  type CampaignLanguages,
  type CampaignPreviewDto,
  type CampaignPreviewInput,
  type CampaignSampleRecipientDto,
  type Locale,
} from '@agency/contracts';
import {
  audienceRecipients,
  findCampaignLanguageTarget,
  findMailTemplate,
  compileCampaignMail,
  sanitizeCampaignHtml,
  sanitizeTemplateLayout,
  type AgencySettings,
  type CampaignMailTemplate,
  type RecipientLinks,
} from '@agency/platform';
import { HttpError } from '../../errors';

const SAMPLE_SIZE = 20;

/**
 * A few of the audience to preview the mail for: the first of the walk the
 * send makes, so never someone it would skip or someone outside its lists.
 */
export async function sampleRecipients(
  target: AudienceTarget,
): Promise<CampaignSampleRecipientDto[]> {
  const sample: CampaignSampleRecipientDto[] = [];
  for await (const { email, firstName, lastName, locale } of audienceRecipients(target)) {
    sample.push({ email, firstName, lastName: lastName ?? '', locale });
    if (sample.length >= SAMPLE_SIZE) break;
  }
  return sample;
}

/**
 * How many of the campaign's audience get each language: their stored one
 * when the campaign is written in it, else the campaign's default (what the
 * worker's messenger decides per recipient). Counted over the send's own
 * walk, its lists and suppressions included.
 */
export async function languageAudience(id: string): Promise<CampaignLanguageAudienceDto> {
  const campaign = await findCampaignLanguageTarget(id);
  if (!campaign) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  const { target, defaultLocale } = campaign;
  const written = new Set<string>([defaultLocale, ...campaign.translatedLocales]);
  const languages = Object.fromEntries(LOCALES.map((locale) => [locale, 0])) as Record<
    Locale,
    number
  >;
  let total = 0;
  for await (const member of audienceRecipients(target)) {
    const locale = written.has(member.locale) ? (member.locale as Locale) : defaultLocale;
    languages[locale] += 1;
    total += 1;
  }
  return { total, languages };
}

async function templateFor(input: CampaignPreviewInput): Promise<CampaignMailTemplate> {
  if (input.template) {
    return {
      ...input.template,
      header: sanitizeCampaignHtml(input.template.header),
      footer: sanitizeCampaignHtml(input.template.footer),
      layout: sanitizeTemplateLayout(input.template.layout),
    };
  }
  if (!input.templateId) return DEFAULT_TEMPLATE;
  const stored = await findMailTemplate(input.templateId);
  if (!stored) throw new HttpError('NOT_FOUND', 'No template with this id');
  return stored;
}

/** A footer link of the preview: the real page's address, with an inert token. */
function previewLink(siteUrl: string, path: string, locale: Locale): string {
  const url = new URL(path, `${siteUrl}/`);
  url.searchParams.set('token', 'preview');
  url.searchParams.set('lang', locale);
  return url.toString();
}

/** The footer's unsubscribe and manage links as a preview shows them. */
function previewLinks(siteUrl: string, locale: Locale): RecipientLinks {
  return {
    unsubscribeUrl: previewLink(siteUrl, NEWSLETTER_PAGES.unsubscribe, locale),
    manageUrl: previewLink(
      siteUrl,
      newsletterPagePath(NEWSLETTER_PAGES.preferences, locale),
      locale,
    ),
  };
}

/**
 * The mail as the worker sends it, rendered by the same code: the draft's
 * subject and content in one language, in its template, filled in for one
 * recipient. The unsubscribe and manage links are shaped like the real ones
 * but lead nowhere: a preview must never carry a working token.
 */
export async function previewCampaign(
  input: CampaignPreviewInput,
  options: { agency: AgencySettings; siteUrl: string },
): Promise<CampaignPreviewDto> {
  const locale = input.locale as Locale;
  const languages: CampaignLanguages = {
    [locale]: { subject: input.subject, content: sanitizeCampaignHtml(input.content) },
  };
  const { languages: texts, postalAddress } = options.agency;
  const mail = {
    defaultLocale: locale,
    languages,
    placeholderFallbacks: input.placeholderFallbacks,
    template: await templateFor(input),
    agency: { languages: texts, postalAddress },
  };
  const recipient = input.recipient ?? { email: 'ada@example.com', firstName: '', lastName: '' };
  const senderName = texts[locale].agencyName;
  const rendered = compileCampaignMail(mail, { senderName }).render(
    locale,
    {
      email: recipient.email,
      firstName: recipient.firstName,
      lastName: recipient.lastName,
    },
    previewLinks(options.siteUrl, locale),
  );
  return { ...rendered, locale, dir: directionOf(locale) };
}
