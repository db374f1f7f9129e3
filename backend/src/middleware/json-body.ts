import {
  API_ROUTES,
  CAMPAIGN_CONTENT_MAX,
  LOCALES,
  TEMPLATE_HTML_MAX,
  matchesRoute,
} from '@agency/contracts';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';

/**
 * A campaign draft's content may be CAMPAIGN_CONTENT_MAX characters in each
 * of its languages, and as JSON each can take up to six bytes (a control
 * character written \u0001), plus a template's parts (a preview may carry
 * one) and the draft's other fields.
 */
export const CAMPAIGN_DRAFT_BODY_LIMIT_BYTES =
  (CAMPAIGN_CONTENT_MAX * LOCALES.length + TEMPLATE_HTML_MAX * 3) * 6 + 64 * 1024;

/**
 * Creating or editing a campaign draft or a template, and previewing
 * either: the bodies that carry a campaign's or a template's HTML.
 */
function isCampaignDraftWrite(ctx: Context): boolean {
  if (ctx.method === 'POST') {
    return [API_ROUTES.campaigns, API_ROUTES.campaignPreview, API_ROUTES.campaignTemplates].some(
      (route) => route === ctx.path,
    );
  }
  return (
    ctx.method === 'PUT' &&
    (matchesRoute(API_ROUTES.campaign, ctx.path) ||
      matchesRoute(API_ROUTES.campaignTemplate, ctx.path))
  );
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
export function jsonBodies(
  limit: string,
  rawBodies: (path: string) => boolean = () => false,
): Middleware {
  const standard = jsonParser(limit);
  const campaignDraft = jsonParser(CAMPAIGN_DRAFT_BODY_LIMIT_BYTES);
  return (ctx, next) => {
    // Left unread for the route, which reads the bytes itself.
    if (rawBodies(ctx.path)) return next();
    return (isCampaignDraftWrite(ctx) ? campaignDraft : standard)(ctx, next);
  };
}
