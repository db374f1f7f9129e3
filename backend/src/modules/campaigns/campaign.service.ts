import {
  allowedSender,
  fallbacksOf,
  formatValidationMessage,
  message,
  normalizedWindow,
  reachesEnquiries,
  type CampaignDto,
  type CampaignInput,
  type CampaignListQuery,
  type CampaignSettingsDto,
  type Locale,
  type Page,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  campaignTemplateExists,
  countExistingLists,
  createCampaignDraft,
  deleteCampaignAndLedger,
  duplicateCampaign,
  findCampaign,
  findCampaignsPage,
  findExistingSegmentIds,
  queueDraftCampaign,
  readAgencySettings,
  returnQueuedCampaignToDraft,
  sanitizeCampaignHtml,
  updateCampaignDraft,
  type CampaignCopy,
  type CampaignDraftFields,
} from '@agency/platform';
import { enqueueCampaignDispatch, type CampaignQueue } from '../../queues/campaign-queue';

/** A campaign to lists names lists that exist and are not being deleted, each once. */
async function targetListsOf(input: CampaignInput): Promise<string[]> {
  if (input.recipientType !== 'lists') return [];
  const listIds = [...new Set(input.listIds.map((id) => id.toLowerCase()))];
  const found = await countExistingLists(listIds);
  if (found !== listIds.length) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      listIds: 'One of these lists does not exist or is being deleted',
    });
  }
  return listIds;
}

/** A campaign to segments names saved segments, each once, in the editor's order. */
async function targetSegmentsOf(input: CampaignInput): Promise<string[]> {
  if (input.recipientType !== 'segments') return [];
  const segmentIds = [...new Set(input.segmentIds.map((id) => id.toLowerCase()))];
  const found = await findExistingSegmentIds(segmentIds);
  if (found.length !== segmentIds.length) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      segmentIds: 'One of these segments does not exist',
    });
  }
  return segmentIds;
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
async function draftFieldsOf(
  input: CampaignInput,
  settings: DraftSettings,
): Promise<CampaignDraftFields> {
  const content = sanitizeCampaignHtml(input.content);
  if (!content) throw invalid({ content: NOTHING_LEFT });
  const translations = input.translations.map((translation, index) => {
    const translated = sanitizeCampaignHtml(translation.content);
    if (!translated) throw invalid({ [`translations[${index}].content`]: NOTHING_LEFT });
    return { locale: translation.locale, subject: translation.subject, content: translated };
  });
  if (input.templateId && !(await campaignTemplateExists(input.templateId))) {
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
    segmentIds: await targetSegmentsOf(input),
    // A basis means something only for an audience with enquiry contacts.
    enquiryLawfulBasis: reachesEnquiries(input.recipientType)
      ? (input.enquiryLawfulBasis ?? null)
      : null,
    defaultLocale: input.defaultLocale,
    translations,
    placeholderFallbacks: fallbacksOf(input.placeholderFallbacks),
    templateId: input.templateId ?? null,
    sendingWindow: input.sendingWindow ? normalizedWindow(input.sendingWindow) : null,
    ratePerMinute: input.ratePerMinute ?? null,
    publishToArchive: input.publishToArchive,
    ...(input.tracking
      ? { tracking: { opens: input.tracking.opens, clicks: input.tracking.clicks } }
      : {}),
  };
}

export function listCampaigns(query: CampaignListQuery): Promise<Page<CampaignDto>> {
  return findCampaignsPage(query);
}

export async function getCampaign(id: string): Promise<CampaignDto> {
  const campaign = await findCampaign(id);
  if (!campaign) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  return campaign;
}

export function campaignDrafts(settings: DraftSettings) {
  return {
    async create(input: CampaignInput, createdBy: string): Promise<CampaignDto> {
      return createCampaignDraft(await draftFieldsOf(input, settings), createdBy);
    },

    /** Only a draft is edited: what was scheduled, queued or sent stays as it goes out. */
    async update(id: string, input: CampaignInput): Promise<CampaignDto> {
      return updateCampaignDraft(id, await draftFieldsOf(input, settings));
    },

    /** A new draft from what the author wrote, under a free copy name, within today's cap. */
    duplicate(id: string, createdBy: string, locale: Locale): Promise<CampaignCopy> {
      return duplicateCampaign(id, {
        createdBy,
        locale,
        maxRatePerMinute: settings.maxRatePerMinute,
      });
    },
  };
}

/** Deletes a campaign that is not being sent, and then its ledger. */
export function deleteCampaign(id: string): Promise<CampaignDto> {
  return deleteCampaignAndLedger(id);
}

/**
 * draft → queued in one conditional update (two clicks cannot both win),
 * then one dispatch job. If Redis cannot take the job the campaign goes back
 * to draft and the user is told to retry: nothing is half-sent.
 */
export async function sendCampaign(queue: CampaignQueue, id: string): Promise<CampaignDto> {
  const campaign = await queueDraftCampaign(id);
  try {
    await enqueueCampaignDispatch(queue, id);
  } catch {
    await returnQueuedCampaignToDraft(id);
    throw new HttpError(
      'UNAVAILABLE',
      'Sending is unavailable right now; please try again shortly',
    );
  }
  return campaign;
}
