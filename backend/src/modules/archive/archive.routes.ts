import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import {
  API_ROUTES,
  archiveCampaignParamsSchema,
  archiveLocaleParamsSchema,
  type ArchiveCampaignDto,
  type ArchiveIndexDto,
  type Locale,
} from '@agency/contracts';
import {
  findArchiveAddresses,
  findArchivedCampaign,
  findArchivedCampaigns,
  type Redis,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { rateLimit } from '../../middleware/rate-limit';
import { validateParams } from '../../middleware/validate';
import { archiveAtomFeed } from './archive-feed';
import {
  ARCHIVE_PAGE_POLICY,
  archiveCampaignPage,
  archiveIndexPage,
  archiveNotFoundPage,
} from './archive-pages';
import { archiveSitemap } from './archive-sitemap';

export interface ArchiveRoutesDeps {
  redis: Redis;
  /** The website's public origin, which canonical, alternate and feed addresses are written with. */
  siteUrl: string;
  rateLimit: { name: string; max: number; windowMs: number };
}

/**
 * How long a browser or a proxy may keep an archive answer: a campaign
 * taken off the archive is gone from every cache within this time.
 */
export const ARCHIVE_MAX_AGE_SECONDS = 300;

function cacheable(ctx: Context): void {
  ctx.set('Cache-Control', `public, max-age=${ARCHIVE_MAX_AGE_SECONDS}`);
}

function answerHtml(ctx: Context, html: string): void {
  cacheable(ctx);
  // The API's own policy forbids every style; an archive page has one, by its hash.
  ctx.set('Content-Security-Policy', ARCHIVE_PAGE_POLICY);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

const noArchivedCampaign = () =>
  new HttpError('NOT_FOUND', 'No published campaign with this id in this language');

async function localeOf(ctx: Context): Promise<Locale> {
  return (await validateParams(ctx, archiveLocaleParamsSchema)).locale;
}

async function campaignOf(ctx: Context): Promise<ArchiveCampaignDto> {
  const { id, locale } = await validateParams(ctx, archiveCampaignParamsSchema);
  const campaign = await findArchivedCampaign(id, locale);
  if (!campaign) throw noArchivedCampaign();
  return campaign;
}

/** The index's campaigns with their content, for the feed. */
async function feedCampaigns(locale: Locale): Promise<ArchiveCampaignDto[]> {
  const entries = await findArchivedCampaigns(locale);
  const campaigns = await Promise.all(entries.map(({ id }) => findArchivedCampaign(id, locale)));
  return campaigns.filter((campaign): campaign is ArchiveCampaignDto => campaign !== null);
}

/**
 * The public campaign archive: read-only, unauthenticated, only published
 * sent campaigns. JSON for the index and one campaign, an Atom feed, and the
 * pages themselves as complete HTML (no script needed), which the website
 * serves at `/newsletter`, `/fr/newsletter`, `/ar/newsletter`.
 */
export function archiveRoutes({ redis, siteUrl, rateLimit: limit }: ArchiveRoutesDeps): Router {
  const limited: Middleware = rateLimit({ redis, ...limit });
  return new Router()
    .get(API_ROUTES.archiveSitemap, limited, async (ctx) => {
      cacheable(ctx);
      ctx.type = 'application/xml; charset=utf-8';
      ctx.body = archiveSitemap(await findArchiveAddresses(), siteUrl);
    })
    .get(API_ROUTES.archive, limited, async (ctx) => {
      const locale = await localeOf(ctx);
      cacheable(ctx);
      ctx.body = { locale, items: await findArchivedCampaigns(locale) } satisfies ArchiveIndexDto;
    })
    .get(API_ROUTES.archiveCampaign, limited, async (ctx) => {
      const campaign = await campaignOf(ctx);
      cacheable(ctx);
      ctx.body = campaign;
    })
    .get(API_ROUTES.archiveFeed, limited, async (ctx) => {
      const locale = await localeOf(ctx);
      cacheable(ctx);
      ctx.type = 'application/atom+xml; charset=utf-8';
      ctx.body = archiveAtomFeed(locale, await feedCampaigns(locale), siteUrl);
    })
    .get(API_ROUTES.archiveIndexPage, limited, async (ctx) => {
      const locale = await localeOf(ctx);
      answerHtml(ctx, archiveIndexPage(locale, await findArchivedCampaigns(locale), siteUrl));
    })
    .get(API_ROUTES.archiveCampaignPage, limited, async (ctx) => {
      const { id, locale } = await validateParams(ctx, archiveCampaignParamsSchema);
      const campaign = await findArchivedCampaign(id, locale);
      if (campaign) return answerHtml(ctx, archiveCampaignPage(campaign, siteUrl, locale));
      // A visitor's page, not an error document; kept out of the index (noindex).
      answerHtml(ctx, archiveNotFoundPage(locale, siteUrl));
      ctx.status = 404;
    });
}
