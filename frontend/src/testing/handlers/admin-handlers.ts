import {
  DEFAULT_TEMPLATE,
  type ApiErrorBody,
  type LoginOptionsResponse,
  type LoginSuccessResponse,
  type HealthWithQueuesDto,
  type MeResponse,
  type PasswordChangeResponse,
  type Role,
} from '@agency/contracts';
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import {
  buildActivity,
  buildAgencySettings,
  buildAudience,
  buildCampaign,
  buildCampaignSettings,
  buildClient,
  buildContact,
  buildContactDetail,
  buildEnquiryTrend,
  buildImport,
  buildLead,
  buildMailingList,
  buildProgress,
  buildStats,
  buildSuppression,
  buildTemplate,
  buildUser,
  keysetPageOf,
  pageOf,
  sessionUser,
} from '../admin-factory';

export const ADMIN = '/api/admin';

/** The role a test's stored token stands for (testing/admin-session.ts writes `token-of-<role>`). */
function roleOf(request: Request): Role {
  const match = /token-of-(\w+)/.exec(request.headers.get('Authorization') ?? '');
  const role = match?.[1];
  return role === 'manager' || role === 'editor' || role === 'viewer' ? role : 'admin';
}

/** A happy API with a little of everything; tests override what they are about. */
/** What /api/health answers while every service is up; a test of an outage overrides it. */
export function buildHealth(
  smtp: HealthWithQueuesDto['smtp'] = { status: 'reachable', since: null },
) {
  return {
    status: 'ok',
    services: { mongodb: 'up', redis: 'up' },
    smtp,
  } satisfies HealthWithQueuesDto;
}

export const adminHandlers: HttpHandler[] = [
  http.get('/api/health', () => HttpResponse.json(buildHealth())),
  http.get(`${ADMIN}/login-options`, () => HttpResponse.json<LoginOptionsResponse>({ demo: null })),
  http.post(`${ADMIN}/login`, async ({ request }) => {
    const { username } = (await request.json()) as { username: string };
    return HttpResponse.json<LoginSuccessResponse>({
      success: true,
      token: 'token-of-admin',
      expiresAt: '2030-01-01T00:00:00.000Z',
      user: { ...sessionUser('admin'), username },
    });
  }),
  // The media library starts empty; tests that browse it answer with their images.
  http.get(`${ADMIN}/media`, () => HttpResponse.json(keysetPageOf([]))),
  http.get(`${ADMIN}/me`, ({ request }) =>
    HttpResponse.json<MeResponse>({ user: sessionUser(roleOf(request)) }),
  ),
  http.put(`${ADMIN}/me/password`, ({ request }) =>
    HttpResponse.json<PasswordChangeResponse>({
      token: `token-of-${roleOf(request)}`,
      expiresAt: '2030-01-01T00:00:00.000Z',
      user: sessionUser(roleOf(request)),
    }),
  ),
  http.get(`${ADMIN}/stats`, () => HttpResponse.json(buildStats())),
  http.get(`${ADMIN}/stats/enquiries`, () => HttpResponse.json(buildEnquiryTrend())),
  http.get(`${ADMIN}/contacts`, () =>
    HttpResponse.json(
      keysetPageOf([
        buildContact(),
        buildContact({
          firstName: 'Karim',
          lastName: 'Jlassi',
          email: 'karim@example.tn',
          status: 'replied',
        }),
      ]),
    ),
  ),
  http.get(
    `${ADMIN}/contacts/export`,
    () =>
      new HttpResponse('\uFEFFid,email\n1,amira@example.tn\n', {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="contacts-2026-05-04.csv"',
        },
      }),
  ),
  http.get(`${ADMIN}/contacts/:id`, ({ params }) =>
    HttpResponse.json(buildContactDetail({ id: String(params.id) })),
  ),
  http.patch(`${ADMIN}/contacts/:id`, async ({ params, request }) => {
    const { status } = (await request.json()) as { status: 'new' };
    return HttpResponse.json(buildContactDetail({ id: String(params.id), status }));
  }),
  http.delete(`${ADMIN}/contacts/:id`, () => new HttpResponse(null, { status: 204 })),
  http.post(`${ADMIN}/contacts/:id/convert`, ({ params }) =>
    HttpResponse.json(buildLead({ source: 'enquiry', contactId: String(params.id) }), {
      status: 201,
    }),
  ),
  http.get(`${ADMIN}/users`, () =>
    HttpResponse.json(
      pageOf([
        buildUser({ ...sessionUser('admin'), lastLoginAt: '2026-05-04T08:00:00.000Z' }),
        buildUser({ username: 'karim', email: 'karim@agency.test', role: 'editor' }),
      ]),
    ),
  ),
  http.post(`${ADMIN}/users`, async ({ request }) =>
    HttpResponse.json(buildUser((await request.json()) as object), { status: 201 }),
  ),
  http.put(`${ADMIN}/users/:id`, async ({ params, request }) =>
    HttpResponse.json(buildUser({ ...((await request.json()) as object), id: String(params.id) })),
  ),
  http.delete(`${ADMIN}/users/:id`, () => new HttpResponse(null, { status: 204 })),
  http.get(`${ADMIN}/activity-logs`, () =>
    HttpResponse.json(
      pageOf([
        buildActivity(),
        buildActivity({
          action: 'campaign.send',
          target: { type: 'campaign', label: 'Spring offer' },
        }),
      ]),
    ),
  ),
  http.get(`${ADMIN}/clients`, () => HttpResponse.json(pageOf([buildClient()]))),
  http.post(`${ADMIN}/clients`, async ({ request }) =>
    HttpResponse.json(buildClient((await request.json()) as object), { status: 201 }),
  ),
  http.put(`${ADMIN}/clients/:id`, async ({ params, request }) =>
    HttpResponse.json(
      buildClient({ ...((await request.json()) as object), id: String(params.id) }),
    ),
  ),
  http.delete(`${ADMIN}/clients/:id`, () => new HttpResponse(null, { status: 204 })),
  http.get(`${ADMIN}/leads`, () => HttpResponse.json(pageOf([buildLead()]))),
  http.get(`${ADMIN}/leads/:id`, ({ params }) =>
    HttpResponse.json(buildLead({ id: String(params.id) })),
  ),
  http.post(`${ADMIN}/leads`, async ({ request }) =>
    HttpResponse.json(buildLead((await request.json()) as object), { status: 201 }),
  ),
  http.put(`${ADMIN}/leads/:id`, async ({ params, request }) =>
    HttpResponse.json(buildLead({ ...((await request.json()) as object), id: String(params.id) })),
  ),
  http.delete(`${ADMIN}/leads/:id`, () => new HttpResponse(null, { status: 204 })),
  http.get(`${ADMIN}/campaigns`, () =>
    HttpResponse.json(
      pageOf([
        buildCampaign(),
        buildCampaign({
          name: 'Winter news',
          status: 'sent',
          total: 120,
          sentCount: 118,
          failedCount: 2,
        }),
      ]),
    ),
  ),
  http.get(`${ADMIN}/campaigns/audience`, () => HttpResponse.json(buildAudience())),
  http.get(`${ADMIN}/campaigns/settings`, () => HttpResponse.json(buildCampaignSettings())),
  http.get(`${ADMIN}/agency-settings`, () => HttpResponse.json(buildAgencySettings())),
  http.get(`${ADMIN}/campaigns/sample-recipients`, () =>
    HttpResponse.json({
      items: [
        { email: 'layla@example.tn', firstName: 'Layla', lastName: 'Ben Ali', locale: 'ar' },
        { email: 'anna@example.com', firstName: 'Anna', lastName: 'Smith', locale: 'en' },
      ],
    }),
  ),
  // The server renders with the worker's code; here the draft comes back as it was sent.
  http.post(`${ADMIN}/campaigns/preview`, async ({ request }) => {
    const body = (await request.json()) as { subject?: string; content?: string; locale?: string };
    const locale = body.locale ?? 'en';
    const dir = locale === 'ar' ? 'rtl' : 'ltr';
    return HttpResponse.json({
      subject: body.subject ?? '',
      html: `<html lang="${locale}" dir="${dir}"><body dir="${dir}">${body.content ?? ''}</body></html>`,
      text: body.content ?? '',
      locale,
      dir,
    });
  }),
  http.get(`${ADMIN}/campaigns/:id/audience`, () =>
    HttpResponse.json({ total: 3, languages: { en: 1, fr: 0, ar: 2 } }),
  ),
  http.get(`${ADMIN}/campaign-templates`, () =>
    HttpResponse.json(pageOf([DEFAULT_TEMPLATE, buildTemplate()])),
  ),
  http.post(`${ADMIN}/campaign-templates`, async ({ request }) =>
    HttpResponse.json(buildTemplate((await request.json()) as object), { status: 201 }),
  ),
  http.put(`${ADMIN}/campaign-templates/:id`, async ({ params, request }) =>
    HttpResponse.json(
      buildTemplate({ ...((await request.json()) as object), id: String(params.id) }),
    ),
  ),
  http.post(`${ADMIN}/campaign-templates/:id/duplicate`, () =>
    HttpResponse.json(buildTemplate({ name: 'Agency (default) (copy)' }), { status: 201 }),
  ),
  http.delete(`${ADMIN}/campaign-templates/:id`, () => new HttpResponse(null, { status: 204 })),
  http.get(`${ADMIN}/campaigns/:id/progress`, ({ params }) =>
    HttpResponse.json(buildProgress({ id: String(params.id) })),
  ),
  http.get(`${ADMIN}/campaigns/:id/recipients`, () => HttpResponse.json(pageOf([]))),
  http.get(`${ADMIN}/campaigns/:id`, ({ params }) =>
    HttpResponse.json(buildCampaign({ id: String(params.id) })),
  ),
  http.post(`${ADMIN}/campaigns`, async ({ request }) =>
    HttpResponse.json(buildCampaign((await request.json()) as object), { status: 201 }),
  ),
  http.put(`${ADMIN}/campaigns/:id`, async ({ params, request }) =>
    HttpResponse.json(
      buildCampaign({ ...((await request.json()) as object), id: String(params.id) }),
    ),
  ),
  http.delete(`${ADMIN}/campaigns/:id`, () => new HttpResponse(null, { status: 204 })),
  http.get(`${ADMIN}/lists`, () =>
    HttpResponse.json(
      pageOf([
        buildMailingList(),
        buildMailingList({ name: 'Newsletter 2025', description: null, memberCount: 40 }),
      ]),
    ),
  ),
  http.get(`${ADMIN}/imports`, () => HttpResponse.json(pageOf([]))),
  http.get(`${ADMIN}/imports/:id`, ({ params }) =>
    HttpResponse.json(buildImport({ id: String(params.id) })),
  ),
  http.get(`${ADMIN}/settings/test-recipients`, () =>
    HttpResponse.json({ entries: [], updatedAt: null, updatedBy: null }),
  ),
  http.get(`${ADMIN}/suppressions`, () =>
    HttpResponse.json(pageOf([buildSuppression({ email: 'gone@example.com' })])),
  ),
  http.post(`${ADMIN}/campaigns/:id/send`, ({ params }) =>
    HttpResponse.json(
      { campaign: buildCampaign({ id: String(params.id), status: 'queued' }) },
      { status: 202 },
    ),
  ),
];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** An admin endpoint answering with a JSON error body. */
export function adminFailure(
  method: Method,
  path: string,
  status: number,
  error: Partial<ApiErrorBody['error']> = {},
) {
  const code = status === 401 ? 'UNAUTHENTICATED' : status === 409 ? 'CONFLICT' : 'INTERNAL';
  return http[method](`${ADMIN}${path}`, () =>
    HttpResponse.json<ApiErrorBody>(
      { error: { code, message: 'Internal server error', ...error } },
      { status },
    ),
  );
}

/** An admin GET answering with these records as one page. */
export function adminList<T>(path: string, items: T[]) {
  return http.get(`${ADMIN}${path}`, () => HttpResponse.json(pageOf(items)));
}

/** An admin GET of a list paged by position, answering with these records as its only page. */
export function adminKeysetList<T>(path: string, items: T[]) {
  return http.get(`${ADMIN}${path}`, () => HttpResponse.json(keysetPageOf(items)));
}

/** An admin endpoint that never answers while the test looks at the loading state. */
export function adminPending(method: Method, path: string) {
  return http[method](`${ADMIN}${path}`, async () => {
    await delay('infinite');
    return HttpResponse.json({});
  });
}

/** Records what reaches an endpoint (URL and JSON body), then answers with `respond`. */
export function recordAdminCalls(
  method: Method,
  path: string,
  respond: (body: unknown, request: Request) => Response | Promise<Response>,
) {
  const calls: { url: URL; body: unknown; headers: Headers }[] = [];
  const handler = http[method](`${ADMIN}${path}`, async ({ request }) => {
    const text = method === 'get' || method === 'delete' ? '' : await request.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    calls.push({ url: new URL(request.url), body, headers: request.headers });
    return respond(body, request);
  });
  return { handler, calls };
}
