import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { API_ROUTES, type TrackingEventRecord } from '@agency/contracts';
import {
  judgeClicks,
  judgeOpen,
  trackingTokenKey,
  verifyClickToken,
  verifyOpenToken,
  type ClickTokenPayload,
  type OpenTokenPayload,
  type RequestFacts,
  type TrackingTokenKey,
} from '@agency/platform';
import {
  createCampaignLinkTables,
  type CampaignLinkTables,
  type KeptLinkTable,
} from './campaign-link-tables';
import type { TrackingEventBuffer } from './tracking-event-buffer';
import {
  LINK_NOT_FOUND_HTML,
  LINK_UNAVAILABLE_HTML,
  TRANSPARENT_PIXEL_GIF,
  TRAP_PAGE_HTML,
} from './tracking-pages';

export interface TrackingRoutesDeps {
  /** The tokens' MAC key is derived from it once, here. */
  mailLinkSecret: string;
  /** Where the answered opens and clicks go; the answer never waits on it. */
  events: TrackingEventBuffer;
  linkTables?: CampaignLinkTables;
  /** The clock, for the time since delivery the verdicts read. */
  now?: () => Date;
}

/** The event's own part: which mail, and the request's verdict. Address and agent are not here. */
type EventOf = Omit<TrackingEventRecord, 'id' | 'at'>;

/**
 * The open pixel and the tracking redirect, public (no session, no CSRF:
 * mail clients and their proxies fetch them). A token is checked by its MAC
 * before anything else, so a forged one costs no store or Redis call. The
 * request's address and user agent are judged in memory and dropped: only
 * the verdict and the rule's name travel on.
 */
export function trackingRoutes(deps: TrackingRoutesDeps): Router {
  const tracking: Tracking = {
    key: trackingTokenKey(deps.mailLinkSecret),
    tables: deps.linkTables ?? createCampaignLinkTables(),
    now: deps.now ?? (() => new Date()),
    record: (event, at) => {
      deps.events.add({ id: randomUUID(), at: at.toISOString(), ...event });
    },
  };
  // GET answers HEAD too (@koa/router): a HEAD is itself a scanner's sign.
  return new Router()
    .get(API_ROUTES.trackOpen, (ctx) => answerOpen(ctx, tracking))
    .get(API_ROUTES.trackClick, (ctx) => answerClick(ctx, tracking));
}

/** What both routes share: the MAC key (derived once), the link tables, the clock, the buffer. */
interface Tracking {
  key: TrackingTokenKey;
  tables: CampaignLinkTables;
  now: () => Date;
  record: (event: EventOf, at: Date) => void;
}

/**
 * Once a campaign's key is destroyed (its retention ended), its mails' image
 * and links keep working for their readers, and nothing more is counted: an
 * event would carry a recipient key that the results no longer hold.
 */
async function answerOpen(ctx: Context, { key, tables, now, record }: Tracking): Promise<void> {
  const token = verifyOpenToken(key, String(ctx.params.token));
  const table = token ? await openTableOf(tables, token) : null;
  if (!token || !table) return answerNotFound(ctx);
  if (table.hasKey) {
    const at = now();
    record(eventOf(token, judgeOpen(factsOf(ctx, token, at))), at);
  }
  answerPixel(ctx);
}

/**
 * The target, or the trap link's page, by the index the token names in the
 * stored table; counted while the campaign's key lives (see answerOpen).
 */
async function answerClick(ctx: Context, { key, tables, now, record }: Tracking): Promise<void> {
  const token = verifyClickToken(key, String(ctx.params.token));
  if (!token) return answerNotFound(ctx);
  const table = await clickTableOf(tables, token);
  if (table === 'unavailable') return answerUnavailable(ctx);
  const isTrap = table !== null && token.linkIndex === table.links.length;
  const target = table?.locations[token.linkIndex];
  if (!table || (!isTrap && !target)) return answerNotFound(ctx);
  if (table.hasKey) {
    const at = now();
    const facts = { ...factsOf(ctx, token, at), linkIndex: token.linkIndex, isTrapLink: isTrap };
    const [judgement] = judgeClicks([facts]);
    record(eventOf(token, judgement ?? { verdict: 'person', rule: null }, isTrap), at);
  }
  if (isTrap) answerTrapPage(ctx);
  else answerRedirect(ctx, target ?? '');
}

/**
 * An open whose campaign cannot be read now (the store is down) is still
 * answered and recorded: its token is ours, and the worker drops an event
 * whose campaign is gone. Only a campaign known to be gone is refused.
 */
async function openTableOf(
  tables: CampaignLinkTables,
  token: OpenTokenPayload,
): Promise<Pick<KeptLinkTable, 'hasKey'> | null> {
  try {
    return await tables.get(token.campaignId);
  } catch {
    return { hasKey: true };
  }
}

/** A click needs the table for its target: without the store it cannot be followed. */
async function clickTableOf(
  tables: CampaignLinkTables,
  token: ClickTokenPayload,
): Promise<KeptLinkTable | null | 'unavailable'> {
  try {
    return await tables.get(token.campaignId);
  } catch {
    return 'unavailable';
  }
}

function factsOf(ctx: Context, token: { sentAt: Date }, at: Date): RequestFacts {
  return {
    method: ctx.method,
    userAgent: ctx.get('user-agent') || null,
    clientAddress: ctx.ip || null,
    secondsSinceDelivery: (at.getTime() - token.sentAt.getTime()) / 1000,
  };
}

/** What is kept of a request: the mail it names and its verdict, never its address or agent. */
function eventOf(
  token: OpenTokenPayload | ClickTokenPayload,
  { verdict, rule }: { verdict: TrackingEventRecord['verdict']; rule: string | null },
  trap = false,
): EventOf {
  return {
    kind: token.kind,
    campaignId: token.campaignId,
    recipientKey: token.recipientKey,
    locale: token.locale,
    source: token.source,
    linkIndex: token.kind === 'click' ? token.linkIndex : null,
    trap,
    sentAt: token.sentAt.toISOString(),
    verdict,
    rule,
  };
}

/** Never cached (each load is an open) and loadable from any mail client's page. */
function answerPixel(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  ctx.type = 'image/gif';
  ctx.body = TRANSPARENT_PIXEL_GIF;
}

/**
 * Not cached either: a browser that kept the redirect would hide the next
 * click. The Location was made when the table was read (Koa's redirect would
 * parse and encode the URL, and negotiate a body, on every click).
 */
function answerRedirect(ctx: Context, location: string): void {
  ctx.status = 302;
  ctx.set('Location', location);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Robots-Tag', 'noindex');
}

function answerPage(ctx: Context, status: number, html: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Robots-Tag', 'noindex');
  ctx.type = 'html';
  ctx.body = html;
}

const answerTrapPage = (ctx: Context) => answerPage(ctx, 200, TRAP_PAGE_HTML);
const answerNotFound = (ctx: Context) => answerPage(ctx, 404, LINK_NOT_FOUND_HTML);
const answerUnavailable = (ctx: Context) => answerPage(ctx, 503, LINK_UNAVAILABLE_HTML);
