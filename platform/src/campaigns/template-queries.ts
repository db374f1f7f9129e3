import type { CampaignTemplateDto, CampaignTemplateListQuery } from '@agency/contracts';
import { findPage, isoOrNull, searchFilter } from '../list-pages';
import { CampaignModel } from './campaign.model';
import { CampaignTemplateModel, type CampaignTemplate } from './campaign-template.model';
import type { CampaignMailTemplate } from './rendering/campaign.template';

/** A template as the store holds it. */
export type StoredTemplate = CampaignTemplate & { _id: unknown; createdAt: Date; updatedAt: Date };

export function toTemplateDto(template: StoredTemplate, usedBy: number): CampaignTemplateDto {
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

/** How many campaigns name the template: one in use is not deleted. */
export function countCampaignsUsingTemplate(id: unknown): Promise<number> {
  return CampaignModel.countDocuments({ templateId: String(id) });
}

export async function withTemplateUsage(template: StoredTemplate): Promise<CampaignTemplateDto> {
  return toTemplateDto(template, await countCampaignsUsingTemplate(template._id));
}

/** A page of the stored templates, each with how many campaigns use it. */
export async function findCampaignTemplatesPage(
  query: CampaignTemplateListQuery,
): Promise<{ items: CampaignTemplateDto[]; total: number }> {
  const filter = searchFilter(query.search, ['name']);
  const { docs, total } = await findPage(CampaignTemplateModel, filter, query);
  const items = await Promise.all(docs.map((doc) => withTemplateUsage(doc as StoredTemplate)));
  return { items, total };
}

/** One stored template with its usage, or null when there is none with this id. */
export async function findCampaignTemplate(id: string): Promise<CampaignTemplateDto | null> {
  const template = await CampaignTemplateModel.findById(id).lean<StoredTemplate>();
  return template ? withTemplateUsage(template) : null;
}

export async function campaignTemplateExists(id: string): Promise<boolean> {
  return Boolean(await CampaignTemplateModel.exists({ _id: id }));
}

/** A stored template as a mail is rendered with, or null when there is none with this id. */
export async function findMailTemplate(id: string): Promise<CampaignMailTemplate | null> {
  const stored = await CampaignTemplateModel.findById(id).lean();
  if (!stored) return null;
  return { ...stored, header: stored.header ?? '', footer: stored.footer ?? '' };
}
