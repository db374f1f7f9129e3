import {
  DEFAULT_TEMPLATE,
  DEFAULT_TEMPLATE_ID,
  formatValidationMessage,
  misplacedPlaceholder,
  misplacedPlaceholderMessage,
  type CampaignTemplateDto,
  type CampaignTemplateInput,
  type CampaignTemplateListQuery,
  type Page,
} from '@agency/contracts';
import {
  createCampaignTemplate,
  deleteCampaignTemplate,
  findCampaignTemplate,
  findCampaignTemplatesPage,
  pageOf,
  sanitizeCampaignHtml,
  sanitizeTemplateLayout,
  updateCampaignTemplate,
  type CampaignTemplateFields,
} from '@agency/platform';
import { HttpError } from '../../errors';

const layoutRefused = (reason: string) =>
  new HttpError('VALIDATION_FAILED', 'Some fields are invalid', { layout: reason });

/**
 * Every part of HTML sanitised as a campaign's is; the layout's colour slots
 * kept. The layout is checked again as it will be stored, since sanitising
 * re-writes it (entities decoded, tags closed) and the store must never hold
 * a placeholder outside text.
 */
export function templateFieldsOf(input: CampaignTemplateInput): CampaignTemplateFields {
  const layout = sanitizeTemplateLayout(input.layout);
  if (!/\{\{\s*content\s*\}\}/.test(layout)) {
    throw layoutRefused('The layout must hold {{content}} where the campaign goes');
  }
  const misplaced = misplacedPlaceholder(layout);
  if (misplaced) {
    throw layoutRefused(formatValidationMessage(misplacedPlaceholderMessage(misplaced), 'en'));
  }
  return {
    name: input.name,
    header: sanitizeCampaignHtml(input.header),
    footer: sanitizeCampaignHtml(input.footer),
    layout,
    brandColor: input.brandColor.toLowerCase(),
    backgroundColor: input.backgroundColor.toLowerCase(),
    textColor: input.textColor.toLowerCase(),
  };
}

/** The built-in default first (on the first page), then the stored ones. */
export async function listTemplates(
  query: CampaignTemplateListQuery,
): Promise<Page<CampaignTemplateDto>> {
  const { items, total } = await findCampaignTemplatesPage(query);
  const builtIn = query.page === 1 && !query.search ? [DEFAULT_TEMPLATE] : [];
  return pageOf([...builtIn, ...items], total + 1, query);
}

export async function getTemplate(id: string): Promise<CampaignTemplateDto> {
  const template = await findCampaignTemplate(id);
  if (!template) throw new HttpError('NOT_FOUND', 'No template with this id');
  return template;
}

export async function createTemplate(
  input: CampaignTemplateInput,
  createdBy: string,
): Promise<CampaignTemplateDto> {
  return createCampaignTemplate(templateFieldsOf(input), createdBy);
}

/** Refused while a campaign using it is being sent: its mails stay alike to the last. */
export async function updateTemplate(
  id: string,
  input: CampaignTemplateInput,
): Promise<CampaignTemplateDto> {
  return updateCampaignTemplate(id, templateFieldsOf(input));
}

/** Refused while any campaign uses it: its previews, sends and resends need it. */
export function deleteTemplate(id: string): Promise<CampaignTemplateDto> {
  return deleteCampaignTemplate(id);
}

/** A stored copy of a template (the built-in one included), named as a copy. */
export async function duplicateTemplate(
  id: string,
  createdBy: string,
): Promise<CampaignTemplateDto> {
  const source: CampaignTemplateInput =
    id === DEFAULT_TEMPLATE_ID ? DEFAULT_TEMPLATE : await getTemplate(id);
  return createTemplate(
    {
      name: `${source.name} (copy)`.slice(0, 120),
      header: source.header,
      footer: source.footer,
      layout: source.layout,
      brandColor: source.brandColor,
      backgroundColor: source.backgroundColor,
      textColor: source.textColor,
    },
    createdBy,
  );
}
