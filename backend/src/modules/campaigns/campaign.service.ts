import type {
  CampaignDto,
  CampaignInput,
  CampaignListQuery,
  CampaignStatus,
  Page,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import { equalityFilter, isoOrNull, pageOf, searchFilter, findPage } from '../../list-query';
import { enqueueCampaignDispatch, type CampaignQueue } from '../../queues/campaign-queue';
import {
  CampaignModel,
  type Campaign,
  CampaignBatchModel,
  CampaignOutcomeModel,
} from '@agency/platform';
import { sanitizeCampaignHtml } from './campaign-html';

type StoredCampaign = Campaign & { _id: unknown };

/** A send in progress (or waiting to resume) must finish or be cancelled first. */
const UNDELETABLE: readonly CampaignStatus[] = ['queued', 'sending', 'paused'];

export function toCampaignDto(campaign: StoredCampaign): CampaignDto {
  return {
    id: String(campaign._id),
    name: campaign.name,
    subject: campaign.subject,
    content: campaign.content,
    recipientType: campaign.recipientType as CampaignDto['recipientType'],
    status: campaign.status as CampaignStatus,
    total: campaign.total,
    sentCount: campaign.sentCount,
    failedCount: campaign.failedCount,
    queuedAt: isoOrNull(campaign.queuedAt),
    startedAt: isoOrNull(campaign.startedAt),
    finishedAt: isoOrNull(campaign.finishedAt),
    createdAt: campaign.createdAt.toISOString(),
    updatedAt: campaign.updatedAt.toISOString(),
  };
}

/** Only these fields come from a request; status and counters never do. */
function draftFieldsOf(input: CampaignInput) {
  const content = sanitizeCampaignHtml(input.content);
  if (!content) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      content: 'Nothing is left once unsafe HTML is removed',
    });
  }
  return {
    name: input.name,
    subject: input.subject,
    content,
    recipientType: input.recipientType,
  };
}

async function notFoundOrConflict(id: string, conflict: string): Promise<never> {
  const exists = await CampaignModel.exists({ _id: id });
  if (!exists) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  throw new HttpError('CONFLICT', conflict);
}

export async function listCampaigns(query: CampaignListQuery): Promise<Page<CampaignDto>> {
  const filter = {
    ...equalityFilter(query, ['status']),
    ...searchFilter(query.search, ['name', 'subject']),
  };
  const { docs: campaigns, total } = await findPage(CampaignModel, filter, query);
  return pageOf(campaigns.map(toCampaignDto), total, query);
}

export async function getCampaign(id: string): Promise<CampaignDto> {
  const campaign = await CampaignModel.findById(id).lean();
  if (!campaign) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  return toCampaignDto(campaign);
}

export async function countCampaigns(): Promise<number> {
  return CampaignModel.countDocuments({});
}

export async function createCampaign(
  input: CampaignInput,
  createdBy: string,
): Promise<CampaignDto> {
  const campaign = await CampaignModel.create({ ...draftFieldsOf(input), createdBy });
  return toCampaignDto(campaign.toObject());
}

/** Only a draft is edited: what was queued or sent stays as it went out. */
export async function updateCampaign(id: string, input: CampaignInput): Promise<CampaignDto> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: 'draft' },
    { $set: draftFieldsOf(input) },
    { returnDocument: 'after', runValidators: true },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a draft campaign can be edited');
  return toCampaignDto(campaign);
}

/**
 * Deletes a campaign that is not being sent, and then its ledger: every
 * recipient's address and outcome goes with it. The ledger goes second, so a
 * resend that starts meanwhile (and wins) still finds the failed recipients.
 */
export async function deleteCampaign(id: string): Promise<CampaignDto> {
  const campaign = await CampaignModel.findById(id).lean();
  if (!campaign) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  if (UNDELETABLE.includes(campaign.status as CampaignStatus)) {
    throw new HttpError('CONFLICT', 'A campaign being sent cannot be deleted');
  }
  // Conditional, so a send that starts meanwhile is not deleted under the worker.
  const { deletedCount } = await CampaignModel.deleteOne({ _id: id, status: campaign.status });
  if (deletedCount === 0) throw new HttpError('CONFLICT', 'The campaign changed; try again');
  await CampaignBatchModel.deleteMany({ campaign: campaign._id });
  await CampaignOutcomeModel.deleteMany({ campaign: campaign._id });
  return toCampaignDto(campaign);
}

/**
 * draft → queued in one conditional update (two clicks cannot both win),
 * then one dispatch job. If Redis cannot take the job the campaign goes back
 * to draft and the user is told to retry: nothing is half-sent.
 */
export async function sendCampaign(queue: CampaignQueue, id: string): Promise<CampaignDto> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: 'draft' },
    { $set: { status: 'queued', queuedAt: new Date() } },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a draft campaign can be sent');
  try {
    await enqueueCampaignDispatch(queue, id);
  } catch {
    await CampaignModel.updateOne(
      { _id: id, status: 'queued' },
      { $set: { status: 'draft' }, $unset: { queuedAt: 1 } },
    );
    throw new HttpError(
      'UNAVAILABLE',
      'Sending is unavailable right now; please try again shortly',
    );
  }
  return toCampaignDto(campaign);
}
