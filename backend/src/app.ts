import type Router from '@koa/router';
import Koa from 'koa';
import { API_ROUTES, matchesRoute } from '@agency/contracts';
import type { ApiConfig } from './config';
import {
  allContactChanges,
  allSubscriberChanges,
  createContactAddressChanges,
  createKeptCounts,
  mailIdentityKey,
  agencyTimeZoneSource,
  createStalePeople,
  peopleContactChanges,
  peopleSubscriberChanges,
  setPeopleRefreshLogger,
  setAgencySettingsFallback,
  type KeptCounts,
  type Logger,
  type MailQueues,
  type Redis,
  type StalePeople,
  type SubscriberChanges,
  type TimeZoneSource,
} from '@agency/platform';
import { createCampaignQueue, type CampaignQueue } from './queues/campaign-queue';
import { clientAddress } from './middleware/client-address';
import { requestContext } from './middleware/request-context';
import { errorHandler } from './middleware/error-handler';
import { jsonBodies } from './middleware/json-body';
import { requireJson } from './middleware/require-json';
import { adminArea, corsPolicy, securityHeaders } from './middleware/security';
import { contactRoutes, createContactListIndex, type ContactViews } from './modules/contact';
import { healthRoutes } from './modules/health';
import { newsletterRoutes } from './modules/newsletter';
import { archiveRoutes } from './modules/archive';
import {
  accountRoutes,
  createLoginThrottle,
  createTokenService,
  loginRoutes,
  secretKeyFrom,
  SIGN_IN_PATHS,
  unknownUserHash,
  type LoginRoutesDeps,
  type TokenService,
} from './modules/auth';
import { userRoutes, userSecurityRoutes } from './modules/users';
import { ownSessionRoutes } from './modules/sessions';
import { PASSWORD_RESET_PATHS, passwordResetRoutes } from './modules/password-reset';
import { createPasswordResetQueue, type PasswordResetQueue } from './queues/password-reset-queue';
import { createPrivacyLinkQueue, type PrivacyLinkQueue } from './queues/privacy-link-queue';
import { activityLogRoutes, recordActivity } from './modules/activity-log';
import { adminContactRoutes } from './modules/admin-contacts';
import { clientRoutes } from './modules/clients';
import { leadRoutes } from './modules/leads';
import { campaignReportRoutes, campaignRoutes } from './modules/campaigns';
import { listRoutes } from './modules/lists';
import { preferenceRoutes, privacyLinkRoutes, publicListRoutes } from './modules/preferences';
import { suppressionRoutes } from './modules/suppressions';
import { createPrivacyService, privacyRoutes } from './modules/privacy';
import { peopleRoutes } from './modules/people';
import { segmentRoutes } from './modules/segments';
import { mailEventRoutes } from './modules/mail-events';
import {
  createTrackingEventBuffer,
  trackingRoutes,
  type TrackingEventBuffer,
} from './modules/tracking';
import { importRoutes, IMPORT_UPLOAD_PATH } from './modules/imports';
import { campaignTemplateRoutes } from './modules/campaign-templates';
import { agencySettingsRoutes, testRecipientRoutes } from './modules/settings';
import { statsRoutes } from './modules/stats';
import {
  createMediaService,
  createMediaStorage,
  createImageProcessPool,
  mediaRoutes,
  type ImageProcessor,
  type MediaStorage,
} from './modules/media';
import { queueBoard } from './modules/queue-board';
import { createQueueRegistry, recountStatsNow, type QueueRegistry } from './queues/queue-registry';

export interface AppDeps {
  config: Pick<
    ApiConfig,
    | 'corsOrigin'
    | 'trustProxy'
    | 'jsonBodyLimit'
    | 'rateLimit'
    | 'queuePrefix'
    | 'auth'
    | 'timeZone'
    | 'campaigns'
    | 'mailLinkSecret'
    | 'demo'
    | 'redisRequestTimeoutMs'
    | 'mailEvents'
    | 'media'
  >;
  logger: Logger;
  queues: MailQueues;
  /** Campaign sends; when not given, a queue on `redis` (callers that never send may omit it). */
  campaignQueue?: CampaignQueue;
  /** Password reset mails; when not given, a queue on `redis`. */
  passwordResetQueue?: PasswordResetQueue;
  /** The mails of a person's own download and erasure links; when not given, a queue on `redis`. */
  privacyLinkQueue?: PrivacyLinkQueue;
  /** The producer connection: rate-limit counters and the health check use it. */
  redis: Redis;
  /**
   * The opens and clicks answered, on their way to the worker; when not
   * given, a buffer on `redis` (the server passes its own, to flush it at shutdown).
   */
  trackingEvents?: TrackingEventBuffer;
  /** Where the media library keeps images; when not given, the store MEDIA_* configure. */
  mediaStorage?: MediaStorage;
  /**
   * Where uploads are checked and resized; when not given, an image process
   * of the app's own (the server passes its own, to stop it at shutdown).
   */
  imageProcessor?: ImageProcessor;
}

type AppConfig = AppDeps['config'];

/** What the routers share: the sign-in, the queues' handles and the kept figures. */
interface AppServices {
  tokens: TokenService;
  signIn: Omit<LoginRoutesDeps, 'demo'>;
  queueRegistry: QueueRegistry;
  agencyTimeZone: TimeZoneSource;
  kept: KeptCounts;
  contactViews: ContactViews;
  /** Every change of a subscription reaches the kept figures and the people view. */
  subscriberChanges: SubscriberChanges;
  /** The addresses whose person the visitors' writes left to recompute. */
  stalePeople: StalePeople;
}

function createSignIn(
  config: AppConfig,
  redis: Redis,
  tokens: TokenService,
): AppServices['signIn'] {
  const throttle = createLoginThrottle(
    redis,
    config.queuePrefix,
    config.auth.loginThrottle,
    config.redisRequestTimeoutMs,
  );
  return {
    tokens,
    throttle,
    twoFactor: config.auth.twoFactor,
    // Stored lower-cased, as ensureDemoAdmin writes it.
    demoAdmin: config.demo.enabled ? config.demo.username.toLowerCase() : null,
    secretKey: secretKeyFrom(config.auth.jwtSecret),
    redis,
    prefix: config.queuePrefix,
  };
}

/** Every change of an enquiry reaches the kept figures, the contacts list's index, the campaign audience's addresses and the people view. */
function createContactViews(
  { config, logger, redis }: Pick<AppDeps, 'config' | 'logger' | 'redis'>,
  kept: KeptCounts,
  stalePeople: StalePeople,
): ContactViews {
  const contactListIndex = createContactListIndex(redis, { prefix: config.queuePrefix, logger });
  return {
    changes: allContactChanges(
      kept.contactChanges,
      contactListIndex.changes,
      createContactAddressChanges({ logger }),
      peopleContactChanges(stalePeople),
    ),
    totals: kept.contactTotals,
    index: contactListIndex,
  };
}

function createAppServices(deps: Pick<AppDeps, 'config' | 'logger' | 'redis'>): AppServices {
  const { config, logger, redis } = deps;
  const tokens = createTokenService(config.auth);
  const signIn = createSignIn(config, redis, tokens);
  // Computed now, so the first sign-in of an unknown name costs no more than the others.
  void unknownUserHash();
  const queueRegistry = createQueueRegistry(redis, config.queuePrefix);
  // "Today", "this week" and the counted days are on the agency's clock as its settings say now.
  const agencyTimeZone = agencyTimeZoneSource(config.timeZone, logger);
  const kept = createKeptCounts(redis, {
    prefix: config.queuePrefix,
    timeZone: agencyTimeZone,
    logger,
  });
  const stalePeople = createStalePeople(redis, config.queuePrefix);
  const contactViews = createContactViews(deps, kept, stalePeople);
  const subscriberChanges = allSubscriberChanges(
    kept.subscriberChanges,
    peopleSubscriberChanges(stalePeople),
  );
  return {
    tokens,
    signIn,
    queueRegistry,
    agencyTimeZone,
    kept,
    contactViews,
    subscriberChanges,
    stalePeople,
  };
}

/** What every request goes through first: its address, its id and log, the error answer, the headers. */
function addRequestFrame(app: Koa, config: AppConfig, logger: Logger): void {
  app.use(clientAddress(config.trustProxy));
  app.use(requestContext(logger));
  app.use(errorHandler());
  app.use(securityHeaders());
  app.use(corsPolicy(config.corsOrigin));
}

function addAdminGate(
  app: Koa,
  config: AppConfig,
  { tokens, queueRegistry }: Pick<AppServices, 'tokens' | 'queueRegistry'>,
): void {
  // Before the admin area's bearer check: the board's page also accepts its own cookie.
  app.use(
    queueBoard({
      queues: queueRegistry.queues,
      resolveSession: tokens.resolve,
      sessionSeconds: config.auth.tokenTtlSeconds,
    }),
  );
  app.use(
    adminArea({
      resolveSession: tokens.resolve,
      recordActivity,
      publicPaths: [...SIGN_IN_PATHS, ...PASSWORD_RESET_PATHS],
    }),
  );
}

function addBodyReaders(app: Koa, config: AppConfig): void {
  // Webhooks are verified over their raw bytes, an import uploads a CSV
  // file and the media library an image: those routes read their bodies themselves.
  const rawBodies = (path: string) =>
    matchesRoute(API_ROUTES.mailEvents, path) ||
    path === IMPORT_UPLOAD_PATH ||
    path === API_ROUTES.media;
  app.use(requireJson({ formPaths: [API_ROUTES.newsletterUnsubscribe], rawBodies }));
  app.use(jsonBodies(config.jsonBodyLimit, rawBodies));
}

/** The public website's routes: health, the contact form, the newsletter, the tracking pixel and links. */
function siteRouters(
  deps: AppDeps,
  { queueRegistry, contactViews, subscriberChanges }: AppServices,
): Router[] {
  const { config, queues, redis, logger, trackingEvents } = deps;
  return [
    healthRoutes({ redis, queuePrefix: config.queuePrefix, queueRegistry }),
    contactRoutes({
      queues,
      changes: contactViews.changes,
      redis,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:contact`,
        max: config.rateLimit.contactMax,
        windowMs: config.rateLimit.windowMs,
      },
    }),
    newsletterRoutes({
      queues,
      changes: subscriberChanges,
      redis,
      mailLinkSecret: config.mailLinkSecret,
      queuePrefix: config.queuePrefix,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:newsletter`,
        windowMs: config.rateLimit.windowMs,
        perIpMax: config.rateLimit.newsletterMax,
        perAddressMax: config.rateLimit.newsletterAddressMax,
        linksPerIpMax: config.rateLimit.newsletterLinksMax,
      },
    }),
    archiveRoutes({
      redis,
      siteUrl: config.corsOrigin,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:archive`,
        max: config.rateLimit.archiveMax,
        windowMs: config.rateLimit.windowMs,
      },
    }),
    publicListRoutes({
      redis,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:public-lists`,
        windowMs: config.rateLimit.windowMs,
        perIpMax: config.rateLimit.newsletterLinksMax,
      },
    }),
    preferenceRoutes({
      redis,
      changes: subscriberChanges,
      mailLinkSecret: config.mailLinkSecret,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:preferences`,
        windowMs: config.rateLimit.windowMs,
        perIpMax: config.rateLimit.newsletterLinksMax,
      },
    }),
    personalPrivacyRouter(deps),
    trackingRoutes({
      mailLinkSecret: config.mailLinkSecret,
      events:
        trackingEvents ??
        createTrackingEventBuffer({ connection: redis, prefix: config.queuePrefix, logger }),
    }),
  ];
}

/** A person's own data download and erasure, asked on the preference page. */
function personalPrivacyRouter({ config, redis, privacyLinkQueue }: AppDeps): Router {
  return privacyLinkRoutes({
    redis,
    prefix: config.queuePrefix,
    mailLinkSecret: config.mailLinkSecret,
    queue: privacyLinkQueue ?? createPrivacyLinkQueue(redis, config.queuePrefix),
    privacy: createPrivacyService({
      redis,
      queuePrefix: config.queuePrefix,
      mailLinkSecret: config.mailLinkSecret,
    }),
    // The requests mail the address, as a subscription request does: the same limits.
    rateLimit: {
      windowMs: config.rateLimit.windowMs,
      requestsPerIpMax: config.rateLimit.newsletterMax,
      requestsPerAddressMax: config.rateLimit.newsletterAddressMax,
      linkUsesPerIpMax: config.rateLimit.newsletterLinksMax,
    },
  });
}

/** Signing in and out, the own account and session, and password resets. */
function accountRouters(
  { config, passwordResetQueue, redis }: AppDeps,
  { signIn }: AppServices,
): Router[] {
  return [
    loginRoutes({ ...signIn, demo: config.demo }),
    accountRoutes(signIn),
    ownSessionRoutes(),
    passwordResetRoutes({
      queue: passwordResetQueue ?? createPasswordResetQueue(redis, config.queuePrefix),
      redis,
      prefix: config.queuePrefix,
      rateLimit: {
        windowMs: config.rateLimit.windowMs,
        perIpMax: config.rateLimit.passwordResetMax,
        perAddressMax: config.rateLimit.passwordResetAddressMax,
      },
    }),
  ];
}

/** The dashboard's figures and the records it manages: enquiries, users, the log, clients, leads. */
function recordRouters({ kept, agencyTimeZone, contactViews }: AppServices): Router[] {
  return [
    statsRoutes({ kept, timeZone: agencyTimeZone }),
    adminContactRoutes({ views: contactViews }),
    userRoutes(),
    userSecurityRoutes(),
    activityLogRoutes(),
    clientRoutes(),
    leadRoutes(),
  ];
}

/** Campaigns, their audiences and templates, the mail provider's events, the agency's settings. */
function mailingRouters(
  { config, campaignQueue, redis }: AppDeps,
  { kept, queueRegistry, agencyTimeZone, subscriberChanges, stalePeople }: AppServices,
): Router[] {
  return [
    campaignRoutes({
      campaignQueue: campaignQueue ?? createCampaignQueue(redis, config.queuePrefix),
      redis,
      queuePrefix: config.queuePrefix,
      kept,
      settings: { maxRatePerMinute: config.campaigns.maxRatePerMinute },
      siteUrl: config.corsOrigin,
      testSendsPerHour: config.rateLimit.testSendsPerHour,
    }),
    campaignReportRoutes(),
    listRoutes({ redis, queuePrefix: config.queuePrefix, mailLinkSecret: config.mailLinkSecret }),
    importRoutes({ redis, queuePrefix: config.queuePrefix }),
    suppressionRoutes(),
    privacyRoutes(
      createPrivacyService({
        redis,
        queuePrefix: config.queuePrefix,
        mailLinkSecret: config.mailLinkSecret,
      }),
    ),
    peopleRoutes({
      timeZone: agencyTimeZone,
      mailLinkSecret: config.mailLinkSecret,
      stalePeople,
    }),
    segmentRoutes({ stalePeople }),
    mailEventRoutes({
      config: config.mailEvents,
      redis,
      prefix: config.queuePrefix,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:mail-events`,
        windowMs: config.rateLimit.windowMs,
      },
      subscriberChanges,
      identityKey: mailIdentityKey(config.mailLinkSecret),
    }),
    campaignTemplateRoutes(),
    testRecipientRoutes(),
    agencySettingsRoutes({
      recountDays: () => recountStatsNow(queueRegistry.queues),
    }),
  ];
}

/** The media library: uploads, the library's pages, and the public image files. */
function mediaRouter({ config, redis, mediaStorage, imageProcessor }: AppDeps): Router {
  const storage = mediaStorage ?? createMediaStorage(config.media.storage);
  const images =
    imageProcessor ?? createImageProcessPool({ concurrency: config.media.processingConcurrency });
  return mediaRoutes({
    service: createMediaService({ storage, siteUrl: config.media.siteUrl, images }),
    storage,
    redis,
    queuePrefix: config.queuePrefix,
    uploadsPerHour: config.media.uploadsPerHour,
    fileRateLimit: { max: config.rateLimit.mediaFileMax, windowMs: config.rateLimit.windowMs },
    uploadDir: config.media.uploadDir,
  });
}

function mountRouters(app: Koa, routers: readonly Router[]): void {
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: false }));
  }
}

/** Builds the API without listening, so tests can drive `app.callback()`. */
export function createApp(deps: AppDeps): Koa {
  const { config, logger } = deps;
  // Koa's `proxy` lets the forwarded protocol and host through; clientAddress
  // removes them, and finds the visitor's address, unless a trusted proxy sent them.
  const app = new Koa({ proxy: config.trustProxy !== false });
  // Errors are answered by errorHandler and logged with the request id there.
  app.silent = true;

  // The agency's settings fall back on this environment until an admin saves them.
  setAgencySettingsFallback({ mailFrom: config.campaigns.mailFrom, timeZone: config.timeZone });
  setPeopleRefreshLogger(logger);
  const services = createAppServices(deps);

  addRequestFrame(app, config, logger);
  addAdminGate(app, config, services);
  addBodyReaders(app, config);
  // In this order: a router mounted earlier answers a path first.
  mountRouters(app, [
    ...siteRouters(deps, services),
    ...accountRouters(deps, services),
    ...recordRouters(services),
    ...mailingRouters(deps, services),
    mediaRouter(deps),
  ]);
  return app;
}
