import { API_ROUTES, CAMPAIGN_CONTENT_MAX, matchesRoute } from '@agency/contracts';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';

/**
 * A campaign draft's content may be CAMPAIGN_CONTENT_MAX characters, and as
 * JSON each can take up to six bytes (a control character written \u0001),
 * plus the draft's other fields.
 */
export const CAMPAIGN_DRAFT_BODY_LIMIT_BYTES = CAMPAIGN_CONTENT_MAX * 6 + 64 * 1024;

/** Creating (POST on the campaigns) or editing (PUT on one campaign) a campaign draft. */
function isCampaignDraftWrite(ctx: Context): boolean {
  if (ctx.method === 'POST') return ctx.path === API_ROUTES.campaigns;
  return ctx.method === 'PUT' && matchesRoute(API_ROUTES.campaign, ctx.path);
}

function jsonParser(limit: string | number): Middleware {
  return koaBody({
    json: true,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonStrict: true,
    jsonLimit: limit,
    onError: (error) => {
      throw error;
    },
  });
}

/**
 * Parses JSON bodies of at most `limit` (JSON_BODY_LIMIT); over it, 413. A
 * campaign draft may be as long as its content allows: a newsletter the
 * form accepts must not be refused by the API. Only signed-in staff reach
 * those routes (the admin area's check runs first).
 */
export function jsonBodies(limit: string): Middleware {
  const standard = jsonParser(limit);
  const campaignDraft = jsonParser(CAMPAIGN_DRAFT_BODY_LIMIT_BYTES);
  return (ctx, next) => (isCampaignDraftWrite(ctx) ? campaignDraft : standard)(ctx, next);
}
