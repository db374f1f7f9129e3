import {
  DEFAULT_TEMPLATE,
  DEFAULT_TEMPLATE_ID,
  formatValidationMessage,
  misplacedPlaceholder,
  misplacedPlaceholderMessage,
  type CampaignTemplateDto,
  type CampaignTemplateInput,
  type CampaignStatus,
  type CampaignTemplateListQuery,
  type Page,
} from '@agency/contracts';
import {
  CampaignModel,
  CampaignTemplateModel,
  sanitizeCampaignHtml,
  sanitizeTemplateLayout,
  type CampaignTemplate,
  findPage,
  isoOrNull,
  pageOf,
  searchFilter,
} from '@agency/platform';
import { trusted } from 'mongoose';
import { HttpError } from '../../errors';

type StoredTemplate = CampaignTemplate & { _id: unknown; createdAt: Date; updatedAt: Date };

/** Campaigns being sent with a template: it stays as they go out. */
const IN_PROGRESS = ['queued', 'sending', 'paused'];

function toTemplateDto(template: StoredTemplate, usedBy: number): CampaignTemplateDto {
  return {
    id: String(template._id),
    name: template.name,
    header: template.header ?? '',
    footer: template.footer ?? '',
    layout: template.layout,
    brandColor: template.brandColor,
    backgroundColor: template.backgroundColor,
    textColor: template.textColor,
    builtIn: false,
    usedBy,
    createdAt: isoOrNull(template.createdAt),
    updatedAt: isoOrNull(template.updatedAt),
  };
}

const usersOf = (id: unknown) => CampaignModel.countDocuments({ templateId: String(id) });

const layoutRefused = (reason: string) =>
  new HttpError('VALIDATION_FAILED', 'Some fields are invalid', { layout: reason });

/**
 * Every part of HTML sanitised as a campaign's is; the layout's colour slots
 * kept. The layout is checked again as it will be stored, since sanitising
 * re-writes it (entities decoded, tags closed) and the store must never hold
 * a placeholder outside text.
 */
export function templateFieldsOf(input: CampaignTemplateInput) {
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

async function withUsage(template: StoredTemplate): Promise<CampaignTemplateDto> {
  return toTemplateDto(template, await usersOf(template._id));
}

/** The built-in default first (on the first page), then the stored ones. */
export async function listTemplates(
  query: CampaignTemplateListQuery,
): Promise<Page<CampaignTemplateDto>> {
  const filter = searchFilter(query.search, ['name']);
  const { docs, total } = await findPage(CampaignTemplateModel, filter, query);
  const items = await Promise.all(docs.map((doc) => withUsage(doc as StoredTemplate)));
  const builtIn = query.page === 1 && !query.search ? [DEFAULT_TEMPLATE] : [];
  return pageOf([...builtIn, ...items], total + 1, query);
}

export async function getTemplate(id: string): Promise<CampaignTemplateDto> {
  const template = await CampaignTemplateModel.findById(id).lean<StoredTemplate>();
  if (!template) throw new HttpError('NOT_FOUND', 'No template with this id');
  return withUsage(template);
}

export async function createTemplate(
  input: CampaignTemplateInput,
  createdBy: string,
): Promise<CampaignTemplateDto> {
  const template = await CampaignTemplateModel.create({ ...templateFieldsOf(input), createdBy });
  return toTemplateDto(template.toObject() as StoredTemplate, 0);
}

/** Refused while a campaign using it is being sent: its mails stay alike to the last. */
export async function updateTemplate(
  id: string,
  input: CampaignTemplateInput,
): Promise<CampaignTemplateDto> {
  const fields = templateFieldsOf(input);
  if (
    await CampaignModel.exists({
      templateId: id,
      status: trusted({ $in: IN_PROGRESS }) as unknown as CampaignStatus,
    })
  ) {
    throw new HttpError('CONFLICT', 'A campaign using this template is being sent');
  }
  const template = await CampaignTemplateModel.findByIdAndUpdate(
    id,
    { $set: fields },
    { returnDocument: 'after', runValidators: true },
  ).lean<StoredTemplate>();
  if (!template) throw new HttpError('NOT_FOUND', 'No template with this id');
  return withUsage(template);
}

/** Refused while any campaign uses it: its previews, sends and resends need it. */
export async function deleteTemplate(id: string): Promise<CampaignTemplateDto> {
  const template = await CampaignTemplateModel.findById(id).lean<StoredTemplate>();
  if (!template) throw new HttpError('NOT_FOUND', 'No template with this id');
  const usedBy = await usersOf(template._id);
  if (usedBy > 0) {
    throw new HttpError(
      'CONFLICT',
      `This template is used by ${usedBy} campaign${usedBy === 1 ? '' : 's'}; choose another template for them first`,
    );
  }
  await CampaignTemplateModel.deleteOne({ _id: id });
  return toTemplateDto(template, 0);
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
