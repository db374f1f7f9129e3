import Router from '@koa/router';
import {
  API_ROUTES,
  CAMPAIGN_CONTROL_ROUTES,
  LAWFUL_BASIS_PERMISSION,
  can,
  type ApiRoute,
  campaignArchiveSchema,
  campaignAudienceQuerySchema,
  campaignListQuerySchema,
  campaignPreviewSchema,
  campaignRecipientQuerySchema,
  campaignSampleQuerySchema,
  campaignScheduleSchema,
  campaignSchema,
  campaignTestSendSchema,
  formatValidationMessage,
  listIdsOfQuery,
  message,
  type ActivityAction,
  type CampaignSettingsDto,
} from '@agency/contracts';
import type { CampaignQueue } from '../../queues/campaign-queue';
import {
  readAgencySettings,
  readCampaignProgress,
  setCampaignPublication,
  testRecipientRefusal,
  type KeptCounts,
  type Redis,
  type TestRecipientRefusal,
} from '@agency/platform';
import type { Context, Middleware } from 'koa';
import { HttpError } from '../../errors';
import { fieldChanges } from '../../activity-changes';
import { addRecordRoutes } from '../../admin/record-routes';
import { audit, changesNothing } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { rateLimitBy } from '../../middleware/rate-limit';
import {
  recordIdParam,
  requestLocale,
  validateBody,
  validateQuery,
} from '../../middleware/validate';
import { campaignAudience } from './campaign-audience';
import {
  campaignDrafts,
  deleteCampaign,
  type DraftSettings,
  getCampaign,
  listCampaigns,
  sendCampaign,
} from './campaign.service';
import { languageAudience, previewCampaign, sampleRecipients } from './campaign-preview.service';
import { campaignScheduling } from './campaign-schedule.service';
import { campaignControls, sendTestMail } from './campaign-controls.service';
import { listCampaignRecipients } from './campaign-recipients.service';

export interface CampaignRoutesDeps {
  campaignQueue: CampaignQueue;
  /** Where the worker samples the send rate; read for the progress. */
  redis: Redis;
  queuePrefix: string;
  /** The global cap on the send rate; the rest of the editor's settings are the agency's. */
  settings: DraftSettings;
  /** The website, whose unsubscribe page the preview's link is shaped after. */
  siteUrl: string;
  /** The kept figures: the campaigns count and the audiences. */
  kept: KeptCounts;
  /** Test sends one user may make per hour. */
  testSendsPerHour: number;
}

const HOUR_MS = 3_600_000;

const REFUSAL_MESSAGES = {
  outside: 'testRecipientOutside',
  suppressed: 'testRecipientSuppressed',
  unsubscribed: 'testRecipientUnsubscribed',
} as const satisfies Record<TestRecipientRefusal, string>;

/** A 400 on `email` saying why a test may not go there, in the request's language. */
async function refuseUnlessTestRecipient(ctx: Context, email: string): Promise<void> {
  const refusal = await testRecipientRefusal(email);
  if (!refusal) return;
  throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
    email: formatValidationMessage(message(REFUSAL_MESSAGES[refusal]), requestLocale(ctx)),
  });
}

/**
 * What the editor shows of the settings: the agency's clock, name, senders
 * and language, read from the agency's settings on each call (an admin's
 * save shows at once), and the global cap from the environment.
 */
async function editorSettings(settings: DraftSettings): Promise<CampaignSettingsDto> {
  const agency = await readAgencySettings();
  return {
    timeZone: agency.timeZone,
    senderName: agency.languages[agency.defaultLocale].agencyName,
    maxRatePerMinute: settings.maxRatePerMinute,
    senders: agency.senders,
    defaultFrom: agency.defaultFrom,
    replyTo: agency.replyTo,
    defaultLocale: agency.defaultLocale,
    tracking: agency.tracking,
  };
}

type CampaignDrafts = ReturnType<typeof campaignDrafts>;

/** What the editor reads before a draft is saved: the audience, the settings, samples, a preview. */
function addEditorRoutes(
  router: Router,
  { kept, settings, siteUrl }: Pick<CampaignRoutesDeps, 'kept' | 'settings' | 'siteUrl'>,
): void {
  // Before the one campaign's route, which would otherwise take "audience" for an id.
  router.get(API_ROUTES.campaignAudience, authorize('campaigns:read'), async (ctx) => {
    const { listIds, segmentIds } = await validateQuery(ctx, campaignAudienceQuerySchema);
    ctx.body = await campaignAudience(kept, listIdsOfQuery(listIds), listIdsOfQuery(segmentIds));
  });

  router.get(API_ROUTES.campaignSettings, authorize('campaigns:read'), async (ctx) => {
    ctx.body = await editorSettings(settings);
  });

  router.get(API_ROUTES.campaignSampleRecipients, authorize('campaigns:read'), async (ctx) => {
    const { recipientType, listIds, segmentIds } = await validateQuery(
      ctx,
      campaignSampleQuerySchema,
    );
    ctx.body = {
      items: await sampleRecipients({
        recipientType,
        listIds: listIdsOfQuery(listIds),
        segmentIds: listIdsOfQuery(segmentIds),
      }),
    };
  });

  // Renders, stores nothing: a POST only because the draft may be long.
  router.post(
    API_ROUTES.campaignPreview,
    changesNothing,
    authorize('campaigns:read'),
    async (ctx) => {
      const input = await validateBody(ctx, campaignPreviewSchema);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await previewCampaign(input, { agency: await readAgencySettings(), siteUrl });
    },
  );
}

/** The lawful basis a create or update asks for; undefined when the body names none. */
function askedLawfulBasis(ctx: Context): unknown {
  const body: unknown = ctx.request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  return (body as Record<string, unknown>).enquiryLawfulBasis;
}

/**
 * Refuses (403, naming the field) a create or update by a role that may not
 * choose a lawful basis, when it would set one the campaign does not have.
 * Saving a draft with the basis an admin chose, or with none, stays open to
 * every role that writes campaigns: only choosing to mail those who did not
 * consent is the admin's.
 */
function lawfulBasisGuard(current: (ctx: Context) => Promise<string | null>): Middleware {
  return async (ctx, next) => {
    const asked = askedLawfulBasis(ctx);
    const setsOne = asked !== undefined && asked !== null;
    if (setsOne && !can(sessionUser(ctx.state).role, LAWFUL_BASIS_PERMISSION)) {
      if (asked !== (await current(ctx))) {
        throw new HttpError('FORBIDDEN', 'Only an admin may choose a lawful basis', {
          enquiryLawfulBasis: 'Only an admin may choose a lawful basis for mailing enquiries',
        });
      }
    }
    await next();
  };
}

/** Before the record routes: who may set a campaign's lawful basis. */
function addLawfulBasisGuards(router: Router): void {
  router.post(
    API_ROUTES.campaigns,
    authorize('campaigns:write'),
    lawfulBasisGuard(() => Promise.resolve(null)),
  );
  router.put(
    API_ROUTES.campaign,
    authorize('campaigns:write'),
    lawfulBasisGuard(async (ctx) => (await getCampaign(recordIdParam(ctx))).enquiryLawfulBasis),
  );
}

/** The drafts as records (list, read, create, update, delete) and their copies. */
function addDraftRoutes(
  router: Router,
  { kept, drafts }: Pick<CampaignRoutesDeps, 'kept'> & { drafts: CampaignDrafts },
): void {
  addRecordRoutes(router, {
    kind: 'campaign',
    collection: API_ROUTES.campaigns,
    item: API_ROUTES.campaign,
    read: 'campaigns:read',
    write: 'campaigns:write',
    listQuerySchema: campaignListQuerySchema,
    createSchema: campaignSchema,
    updateSchema: campaignSchema,
    list: listCampaigns,
    get: getCampaign,
    // The author is whoever writes the draft.
    create: async (input, createdBy) => {
      const campaign = await drafts.create(input, createdBy);
      await kept.campaignCreated();
      return campaign;
    },
    update: drafts.update,
    remove: async (id) => {
      const campaign = await deleteCampaign(id);
      await kept.campaignDeleted();
      return campaign;
    },
    labelOf: (campaign) => campaign.name,
  });

  // Made in the asker's language ("Copy of …"), named after the original in the log.
  router.post(API_ROUTES.campaignDuplicate, authorize('campaigns:write'), async (ctx) => {
    const { campaign, original } = await drafts.duplicate(
      recordIdParam(ctx),
      sessionUser(ctx.state).id,
      requestLocale(ctx),
    );
    await kept.campaignCreated();
    audit(ctx, 'campaign.duplicate', { type: 'campaign', id: campaign.id, label: campaign.name }, [
      { field: 'copiedFrom', after: original.name },
      ...fieldChanges(null, campaign),
    ]);
    ctx.status = 201;
    ctx.body = campaign;
  });
}

/**
 * On or off the public archive, at any status: the archive shows a campaign
 * once sent, and taking it off must stay possible then.
 */
function addArchiveRoute(router: Router): void {
  router.put(API_ROUTES.campaignArchive, authorize('campaigns:send'), async (ctx) => {
    const id = recordIdParam(ctx);
    const { publishToArchive } = await validateBody(ctx, campaignArchiveSchema);
    const campaign = await setCampaignPublication(id, publishToArchive);
    audit(ctx, 'campaign.archive', { type: 'campaign', id, label: campaign.name }, [
      { field: 'publishToArchive', after: String(publishToArchive) },
    ]);
    ctx.body = campaign;
  });
}

/** Sending now or at a time, and what the send reached: its progress, languages and recipients. */
function addSendingRoutes(
  router: Router,
  { campaignQueue, redis, queuePrefix }: CampaignRoutesDeps,
): void {
  // Accepted, not done: the worker sends in the background (202).
  router.post(API_ROUTES.campaignSend, authorize('campaigns:send'), async (ctx) => {
    const campaign = await sendCampaign(campaignQueue, recordIdParam(ctx));
    audit(ctx, 'campaign.send', { type: 'campaign', id: campaign.id, label: campaign.name });
    ctx.status = 202;
    ctx.body = { campaign };
  });

  router.get(API_ROUTES.campaignProgress, authorize('campaigns:read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { timeZone } = await readAgencySettings();
    ctx.body = await readCampaignProgress(redis, queuePrefix, recordIdParam(ctx), timeZone);
  });

  router.get(API_ROUTES.campaignLanguages, authorize('campaigns:read'), async (ctx) => {
    ctx.body = await languageAudience(recordIdParam(ctx));
  });

  const scheduling = campaignScheduling({ queue: campaignQueue, redis, prefix: queuePrefix });
  router.post(API_ROUTES.campaignSchedule, authorize('campaigns:send'), async (ctx) => {
    const id = recordIdParam(ctx);
    const { scheduledAt } = await validateBody(ctx, campaignScheduleSchema);
    const campaign = await scheduling.schedule(id, new Date(scheduledAt));
    audit(ctx, 'campaign.schedule', { type: 'campaign', id, label: campaign.name });
    ctx.body = { campaign };
  });
  router.post(API_ROUTES.campaignUnschedule, authorize('campaigns:send'), async (ctx) => {
    const id = recordIdParam(ctx);
    const campaign = await scheduling.unschedule(id);
    audit(ctx, 'campaign.unschedule', { type: 'campaign', id, label: campaign.name });
    ctx.body = { campaign };
  });

  router.get(API_ROUTES.campaignRecipients, authorize('campaigns:read'), async (ctx) => {
    const query = await validateQuery(ctx, campaignRecipientQuerySchema);
    ctx.body = await listCampaignRecipients(recordIdParam(ctx), query);
  });
}

/** Pause, resume, cancel and resend to the failed: each one command on a sending campaign. */
function addControlRoutes(
  router: Router,
  { campaignQueue, redis, queuePrefix }: CampaignRoutesDeps,
): void {
  const control = (
    route: ApiRoute,
    action: ActivityAction,
    run: (id: string) => Promise<{ id: string; name: string }>,
    status = 200,
  ) =>
    router.post(route, authorize('campaigns:send'), async (ctx) => {
      const campaign = await run(recordIdParam(ctx));
      audit(ctx, action, { type: 'campaign', id: campaign.id, label: campaign.name });
      ctx.status = status;
      ctx.body = { campaign };
    });
  const controls = campaignControls({ queue: campaignQueue, redis, prefix: queuePrefix });
  control(CAMPAIGN_CONTROL_ROUTES.pause, 'campaign.pause', controls.pause);
  control(CAMPAIGN_CONTROL_ROUTES.resume, 'campaign.resume', controls.resume, 202);
  control(CAMPAIGN_CONTROL_ROUTES.cancel, 'campaign.cancel', controls.cancel);
  control(
    CAMPAIGN_CONTROL_ROUTES['resend-failed'],
    'campaign.resend',
    controls.resendToFailed,
    202,
  );
}

function addTestSendRoute(
  router: Router,
  { campaignQueue, redis, queuePrefix, testSendsPerHour }: CampaignRoutesDeps,
): void {
  // Each test is a real mail from the agency: counted per user, refused
  // beyond the hour's share whatever its address, so probing costs too.
  const testSendsOf = rateLimitBy({
    redis,
    name: `${queuePrefix}:ratelimit:campaign-test`,
    max: testSendsPerHour,
    windowMs: HOUR_MS,
  });
  // A test to one address: queued like any mail, answered before it is sent (202).
  router.post(
    API_ROUTES.campaignTest,
    authorize('campaigns:send'),
    (ctx, next) => testSendsOf(sessionUser(ctx.state).id)(ctx, next),
    async (ctx) => {
      const id = recordIdParam(ctx);
      const { email, locale } = await validateBody(ctx, campaignTestSendSchema);
      await refuseUnlessTestRecipient(ctx, email);
      await sendTestMail(campaignQueue, id, email, locale);
      audit(ctx, 'campaign.test', { type: 'campaign', id, label: email });
      ctx.status = 202;
      ctx.body = { queued: true, email };
    },
  );
}

export function campaignRoutes(deps: CampaignRoutesDeps): Router {
  const router = new Router();
  // In this order: the editor's fixed paths come before the record routes' `/:id`.
  addEditorRoutes(router, deps);
  addLawfulBasisGuards(router);
  addDraftRoutes(router, { kept: deps.kept, drafts: campaignDrafts(deps.settings) });
  addSendingRoutes(router, deps);
  addArchiveRoute(router);
  addControlRoutes(router, deps);
  addTestSendRoute(router, deps);
  return router;
}
