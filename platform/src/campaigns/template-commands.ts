import { UNFINISHED_STATUSES } from '@agency/contracts';
import type { CampaignStatus, CampaignTemplateDto } from '@agency/contracts';
import { trusted } from 'mongoose';
import { DomainError } from '../domain-error';
import { mediaIdsIn } from './media-references';
import { CampaignModel } from './campaign.model';
import { CampaignTemplateModel } from './campaign-template.model';
import {
  countCampaignsUsingTemplate,
  toTemplateDto,
  withTemplateUsage,
  type StoredTemplate,
} from './template-queries';

/** What a template is stored with, every part of its HTML already sanitised. */
export interface CampaignTemplateFields {
  name: string;
  header: string;
  footer: string;
  layout: string;
  brandColor: string;
  backgroundColor: string;
  textColor: string;
}

/** The fields with the media library's images they show, recorded beside them. */
const withMediaIds = (fields: CampaignTemplateFields) => ({
  ...fields,
  mediaIds: mediaIdsIn(fields.header, fields.footer, fields.layout),
});

const noTemplate = () => new DomainError('NOT_FOUND', 'No template with this id');

export async function createCampaignTemplate(
  fields: CampaignTemplateFields,
  createdBy: string,
): Promise<CampaignTemplateDto> {
  const template = await CampaignTemplateModel.create({ ...withMediaIds(fields), createdBy });
  return toTemplateDto(template.toObject() as StoredTemplate, 0);
}

/** Refused while a campaign using it is being sent: its mails stay alike to the last. */
export async function updateCampaignTemplate(
  id: string,
  fields: CampaignTemplateFields,
): Promise<CampaignTemplateDto> {
  if (
    await CampaignModel.exists({
      templateId: id,
      status: trusted({ $in: UNFINISHED_STATUSES }) as unknown as CampaignStatus,
    })
  ) {
    throw new DomainError('CONFLICT', 'A campaign using this template is being sent');
  }
  const template = await CampaignTemplateModel.findByIdAndUpdate(
    id,
    { $set: withMediaIds(fields) },
    { returnDocument: 'after', runValidators: true },
  ).lean<StoredTemplate>();
  if (!template) throw noTemplate();
  return withTemplateUsage(template);
}

/** Refused while any campaign uses it: its previews, sends and resends need it. */
export async function deleteCampaignTemplate(id: string): Promise<CampaignTemplateDto> {
  const template = await CampaignTemplateModel.findById(id).lean<StoredTemplate>();
  if (!template) throw noTemplate();
  const usedBy = await countCampaignsUsingTemplate(template._id);
  if (usedBy > 0) {
    throw new DomainError(
      'CONFLICT',
      `This template is used by ${usedBy} campaign${usedBy === 1 ? '' : 's'}; choose another template for them first`,
    );
  }
  await CampaignTemplateModel.deleteOne({ _id: id });
  return toTemplateDto(template, 0);
}
