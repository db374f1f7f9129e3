import {
  CAMPAIGN_CONTENT_MAX,
  CAMPAIGN_TEMPLATES_API_PATH,
  CAMPAIGNS_API_PATH,
  LOCALES,
  TEMPLATE_HTML_MAX,
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

/** One campaign or template: its id, one segment below the collection's path (no regex characters). */
const ONE_CAMPAIGN_PATH = new RegExp(`^${CAMPAIGNS_API_PATH}/[^/]+$`);
const ONE_TEMPLATE_PATH = new RegExp(`^${CAMPAIGN_TEMPLATES_API_PATH}/[^/]+$`);

/**
 * Creating or editing a campaign draft (POST /campaigns, PUT /campaigns/:id)
 * or a template, and previewing either (POST /campaigns/preview).
 */
function isCampaignDraftWrite(ctx: Context): boolean {
  if (ctx.method === 'POST') {
    return (
      ctx.path === CAMPAIGNS_API_PATH ||
      ctx.path === `${CAMPAIGNS_API_PATH}/preview` ||
      ctx.path === CAMPAIGN_TEMPLATES_API_PATH
    );
  }
  return (
    ctx.method === 'PUT' && (ONE_CAMPAIGN_PATH.test(ctx.path) || ONE_TEMPLATE_PATH.test(ctx.path))
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
export function jsonBodies(limit: string): Middleware {
  const standard = jsonParser(limit);
  const campaignDraft = jsonParser(CAMPAIGN_DRAFT_BODY_LIMIT_BYTES);
  return (ctx, next) => (isCampaignDraftWrite(ctx) ? campaignDraft : standard)(ctx, next);
}
