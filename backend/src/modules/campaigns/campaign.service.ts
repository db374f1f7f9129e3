import {
  allowedSender,
  campaignCopyNames,
  fallbacksOf,
  formatValidationMessage,
  message,
  normalizedWindow,
  type CampaignDto,
  type CampaignInput,
  type CampaignListQuery,
  type CampaignSettingsDto,
  type CampaignStatus,
  type Locale,
  type Page,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  equalityFilter,
  isoOrNull,
  pageOf,
  searchFilter,
  findPage,
  CampaignModel,
  CampaignTemplateModel,
  type Campaign,
  deleteLedger,
  MailingListModel,
  ACTIVE_LIST_FILTER,
  readAgencySettings,
  sanitizeCampaignHtml,
} from '@agency/platform';
import { enqueueCampaignDispatch, type CampaignQueue } from '../../queues/campaign-queue';
import { trusted } from 'mongoose';

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
    listIds: (campaign.listIds ?? []).map(String),
    defaultLocale: (campaign.defaultLocale ?? 'en') as Locale,
    translations: (campaign.translations ?? []).map(({ locale, subject, content }) => ({
      locale: locale as Locale,
      subject,
      content,
    })),
    placeholderFallbacks: fallbacksOf(campaign.placeholderFallbacks),
    templateId: campaign.templateId ? String(campaign.templateId) : null,
    scheduledAt: isoOrNull(campaign.scheduledAt),
    sendingWindow: campaign.sendingWindow
      ? normalizedWindow({
          days: campaign.sendingWindow.days,
          start: campaign.sendingWindow.start,
          end: campaign.sendingWindow.end,
        })
      : null,
    ratePerMinute: campaign.ratePerMinute ?? null,
    fromAddress: campaign.fromAddress ?? null,
    replyTo: campaign.replyTo ?? null,
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

/** A campaign to lists names lists that exist and are not being deleted, each once. */
async function targetListsOf(input: CampaignInput): Promise<string[]> {
  if (input.recipientType !== 'lists') return [];
  const listIds = [...new Set(input.listIds.map((id) => id.toLowerCase()))];
  const found = await MailingListModel.countDocuments({
    _id: trusted({ $in: listIds }),
    deletion: trusted(ACTIVE_LIST_FILTER.deletion),
  });
  if (found !== listIds.length) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      listIds: 'One of these lists does not exist or is being deleted',
    });
  }
  return listIds;
}

const invalid = (fields: Record<string, string>) =>
  new HttpError('VALIDATION_FAILED', 'Some fields are invalid', fields);

const NOTHING_LEFT = 'Nothing is left once unsafe HTML is removed';

/**
 * The From a campaign chose, as the agency's settings spell it, or null for
 * the default. One an admin does not allow is refused: the settings decide
 * which mailboxes the agency's mail may claim to come from.
 */
async function allowedFromAddress(address: string | undefined): Promise<string | null> {
  if (!address) return null;
  const sender = allowedSender((await readAgencySettings()).senders, address);
  if (!sender) {
    throw new HttpError('UNPROCESSABLE', 'This From address is not allowed', {
      fromAddress: formatValidationMessage(message('senderNotAllowed'), 'en'),
    });
  }
  return sender.address;
}

/** What the drafts' checks need of the settings: the global cap on the send rate. */
export type DraftSettings = Pick<CampaignSettingsDto, 'maxRatePerMinute'>;

/**
 * Only these fields come from a request; status, schedule and counters never
 * do. Every language's HTML is sanitised; the template must exist and the
 * campaign's own rate stay under the global cap.
 */
async function draftFieldsOf(input: CampaignInput, settings: DraftSettings) {
  const content = sanitizeCampaignHtml(input.content);
  if (!content) throw invalid({ content: NOTHING_LEFT });
  const translations = input.translations.map((translation, index) => {
    const translated = sanitizeCampaignHtml(translation.content);
    if (!translated) throw invalid({ [`translations[${index}].content`]: NOTHING_LEFT });
    return { locale: translation.locale, subject: translation.subject, content: translated };
  });
  if (input.templateId && !(await CampaignTemplateModel.exists({ _id: input.templateId }))) {
    throw invalid({ templateId: 'No template with this id' });
  }
  const cap = settings.maxRatePerMinute;
  if (cap !== null && input.ratePerMinute !== null && input.ratePerMinute > cap) {
    throw invalid({
      ratePerMinute: formatValidationMessage(message('rateAboveCap', { max: cap }), 'en'),
    });
  }
  return {
    name: input.name,
    subject: input.subject,
    content,
    fromAddress: await allowedFromAddress(input.fromAddress),
    replyTo: input.replyTo ?? null,
    recipientType: input.recipientType,
    listIds: await targetListsOf(input),
    defaultLocale: input.defaultLocale,
    translations,
    placeholderFallbacks: fallbacksOf(input.placeholderFallbacks),
    templateId: input.templateId ?? null,
    sendingWindow: input.sendingWindow ? normalizedWindow(input.sendingWindow) : null,
    ratePerMinute: input.ratePerMinute ?? null,
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

/** How many copy names are tried per look-up for a free one. */
const COPY_NAMES_PER_LOOKUP = 20;

/** The first of "Copy of X", "Copy of X (2)"… that no campaign has yet. */
async function freeCopyName(sourceName: string, locale: Locale): Promise<string> {
  for (let first = 1; ; first += COPY_NAMES_PER_LOOKUP) {
    const names = campaignCopyNames(sourceName, locale, COPY_NAMES_PER_LOOKUP, first);
    const taken = new Set(
      (await CampaignModel.find({ name: trusted({ $in: names }) }, { name: 1 }).lean()).map(
        ({ name }) => name,
      ),
    );
    const free = names.find((name) => !taken.has(name));
    if (free) return free;
  }
}

/** The lists among `listIds` that still exist: a copy never names a deleted list. */
async function listsStillThere<Id>(listIds: readonly Id[]): Promise<Id[]> {
  if (listIds.length === 0) return [];
  const found = await MailingListModel.find({ _id: trusted({ $in: listIds }) }, { _id: 1 }).lean();
  const existing = new Set(found.map(({ _id }) => String(_id)));
  return listIds.filter((id) => existing.has(String(id)));
}

export function campaignDrafts(settings: DraftSettings) {
  return {
    async create(input: CampaignInput, createdBy: string): Promise<CampaignDto> {
      const campaign = await CampaignModel.create({
        ...(await draftFieldsOf(input, settings)),
        createdBy,
      });
      return toCampaignDto(campaign.toObject());
    },

    /** Only a draft is edited: what was scheduled, queued or sent stays as it goes out. */
    async update(id: string, input: CampaignInput): Promise<CampaignDto> {
      const fields = await draftFieldsOf(input, settings);
      const campaign = await CampaignModel.findOneAndUpdate(
        { _id: id, status: 'draft' },
        { $set: fields },
        { returnDocument: 'after', runValidators: true },
      ).lean();
      if (!campaign) return notFoundOrConflict(id, 'Only a draft campaign can be edited');
      return toCampaignDto(campaign);
    },

    /**
     * A new draft with what the author wrote and chose (languages, template,
     * audience, window, rate) and none of how the original went out: no
     * schedule, counters, rounds or ledger, whatever its status. What has
     * changed since (a list deleted, a lower cap) is applied, so the copy
     * saves as it is.
     */
    async duplicate(
      id: string,
      createdBy: string,
      locale: Locale,
    ): Promise<{ campaign: CampaignDto; original: { id: string; name: string } }> {
      const source = await CampaignModel.findById(id).lean();
      if (!source) throw new HttpError('NOT_FOUND', 'No campaign with this id');
      const cap = settings.maxRatePerMinute;
      const rate = source.ratePerMinute ?? null;
      const campaign = await CampaignModel.create({
        name: await freeCopyName(source.name, locale),
        subject: source.subject,
        content: source.content,
        recipientType: source.recipientType,
        listIds: await listsStillThere(source.listIds ?? []),
        defaultLocale: source.defaultLocale,
        translations: (source.translations ?? []).map(({ locale, subject, content }) => ({
          locale,
          subject,
          content,
        })),
        placeholderFallbacks: fallbacksOf(source.placeholderFallbacks),
        templateId: source.templateId ?? null,
        sendingWindow: source.sendingWindow ?? null,
        ratePerMinute: cap !== null && rate !== null ? Math.min(rate, cap) : rate,
        fromAddress: source.fromAddress ?? null,
        replyTo: source.replyTo ?? null,
        createdBy,
      });
      return {
        campaign: toCampaignDto(campaign.toObject()),
        original: { id: String(source._id), name: source.name },
      };
    },
  };
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
  await deleteLedger(campaign._id);
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
