import { randomBytes } from 'node:crypto';
import {
  PERMISSIONS,
  ROLES,
  can,
  type ActivityAction,
  type Permission,
  type Role,
} from '@agency/contracts';
import { createTestContext, type TestContext } from '../testing/test-context';
import {
  as,
  oneUserPerRole,
  unknownId,
  validCampaign,
  validClient,
  validEnquiry,
  validLead,
  type SignedInUser,
} from '../testing/admin-fixtures';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { createUser } from '../modules/users';
import { ClientModel } from '../modules/clients';
import { LeadModel } from '../modules/leads';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { ErasureModel } from '@agency/platform/testing/privacy-models';
import { MailingListModel } from '@agency/platform/testing/audience-models';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface AdminRoute {
  method: Method;
  /** The route as documented; `:id` is filled by `prepare`. */
  route: string;
  permission: Permission | 'signed-in';
  status: number;
  /** Creates what a successful call needs and returns the concrete path and body. */
  prepare?: () => Promise<{ id: string; body?: unknown }>;
  body?: unknown;
  /** The activity-log entry a successful call writes. */
  action?: ActivityAction;
}

let unique = 0;
const next = () => `${Date.now().toString(36)}${(unique += 1)}`;
const contact = async () => ({ id: String((await ContactModel.create(validEnquiry))._id) });
const client = async () => ({ id: String((await ClientModel.create(validClient))._id) });
const lead = async () => ({ id: String((await LeadModel.create(validLead))._id) });
const campaign = async () => ({ id: String((await CampaignModel.create(validCampaign))._id) });
/** A campaign sent in individual mode, whose individual results may be read. */
const individualCampaign = async () => ({
  id: String(
    (
      await CampaignModel.create({
        ...validCampaign,
        status: 'sent',
        tracking: { opens: true, clicks: true, mode: 'individual', key: null, links: [] },
      })
    )._id,
  ),
});
const user = async () => {
  const name = `someone${next()}`;
  const created = await createUser({
    username: name,
    email: `${name}@agency.test`,
    role: 'viewer',
    password: 'a long enough password',
  });
  return { id: created.id, body: { username: name, email: `${name}@agency.test`, role: 'editor' } };
};
const newUser = () => {
  const name = `new${next()}`;
  return {
    username: name,
    email: `${name}@agency.test`,
    role: 'viewer',
    password: 'a long enough password',
  };
};

/**
 * Every admin route of docs/admin-api.md, with what it needs and answers.
 * `PUT /api/admin/me/password` is left out: it ends the caller's own token, which
 * the other routes here reuse; modules/auth/account.routes.test.ts covers it.
 */
const ROUTES: AdminRoute[] = [
  { method: 'get', route: '/api/admin/me', permission: 'signed-in', status: 200 },
  { method: 'get', route: '/api/admin/stats', permission: 'stats:read', status: 200 },
  { method: 'get', route: '/api/admin/stats/enquiries', permission: 'stats:read', status: 200 },
  { method: 'get', route: '/api/admin/contacts', permission: 'contacts:read', status: 200 },
  {
    method: 'get',
    route: '/api/admin/contacts/export',
    permission: 'contacts:export',
    status: 200,
    action: 'contact.export',
  },
  {
    method: 'get',
    route: '/api/admin/contacts/:id',
    permission: 'contacts:read',
    status: 200,
    prepare: contact,
  },
  {
    method: 'patch',
    route: '/api/admin/contacts/:id',
    permission: 'contacts:write',
    status: 200,
    prepare: contact,
    body: { status: 'replied' },
    action: 'contact.status',
  },
  {
    method: 'delete',
    route: '/api/admin/contacts/:id',
    permission: 'contacts:write',
    status: 204,
    prepare: contact,
    action: 'contact.delete',
  },
  {
    method: 'post',
    route: '/api/admin/contacts/:id/convert',
    permission: 'contacts:write',
    status: 201,
    prepare: contact,
    action: 'contact.convert',
  },
  { method: 'get', route: '/api/admin/users', permission: 'users:read', status: 200 },
  {
    method: 'post',
    route: '/api/admin/users',
    permission: 'users:write',
    status: 201,
    action: 'user.create',
  },
  {
    method: 'get',
    route: '/api/admin/users/:id',
    permission: 'users:read',
    status: 200,
    prepare: user,
  },
  {
    method: 'put',
    route: '/api/admin/users/:id',
    permission: 'users:write',
    status: 200,
    prepare: user,
    action: 'user.update',
  },
  {
    method: 'delete',
    route: '/api/admin/users/:id',
    permission: 'users:write',
    status: 204,
    prepare: user,
    action: 'user.delete',
  },
  { method: 'get', route: '/api/admin/activity-logs', permission: 'activity:read', status: 200 },
  { method: 'get', route: '/api/admin/clients', permission: 'clients:read', status: 200 },
  {
    method: 'post',
    route: '/api/admin/clients',
    permission: 'clients:write',
    status: 201,
    body: validClient,
    action: 'client.create',
  },
  {
    method: 'get',
    route: '/api/admin/clients/:id',
    permission: 'clients:read',
    status: 200,
    prepare: client,
  },
  {
    method: 'put',
    route: '/api/admin/clients/:id',
    permission: 'clients:write',
    status: 200,
    prepare: client,
    body: validClient,
    action: 'client.update',
  },
  {
    method: 'delete',
    route: '/api/admin/clients/:id',
    permission: 'clients:write',
    status: 204,
    prepare: client,
    action: 'client.delete',
  },
  { method: 'get', route: '/api/admin/leads', permission: 'leads:read', status: 200 },
  {
    method: 'post',
    route: '/api/admin/leads',
    permission: 'leads:write',
    status: 201,
    body: validLead,
    action: 'lead.create',
  },
  {
    method: 'get',
    route: '/api/admin/leads/:id',
    permission: 'leads:read',
    status: 200,
    prepare: lead,
  },
  {
    method: 'put',
    route: '/api/admin/leads/:id',
    permission: 'leads:write',
    status: 200,
    prepare: lead,
    body: validLead,
    action: 'lead.update',
  },
  {
    method: 'delete',
    route: '/api/admin/leads/:id',
    permission: 'leads:write',
    status: 204,
    prepare: lead,
    action: 'lead.delete',
  },
  { method: 'get', route: '/api/admin/campaigns', permission: 'campaigns:read', status: 200 },
  {
    method: 'get',
    route: '/api/admin/campaigns/audience',
    permission: 'campaigns:read',
    status: 200,
  },
  {
    method: 'post',
    route: '/api/admin/campaigns',
    permission: 'campaigns:write',
    status: 201,
    body: validCampaign,
    action: 'campaign.create',
  },
  {
    method: 'get',
    route: '/api/admin/campaigns/:id',
    permission: 'campaigns:read',
    status: 200,
    prepare: campaign,
  },
  {
    method: 'get',
    route: '/api/admin/campaigns/:id/report',
    permission: 'campaigns:read',
    status: 200,
    prepare: campaign,
  },
  {
    method: 'get',
    route: '/api/admin/campaigns/:id/report/export',
    permission: 'campaigns:read',
    status: 200,
    prepare: campaign,
  },
  {
    method: 'get',
    route: '/api/admin/campaigns/:id/report/people',
    permission: 'campaigns:individual-results',
    status: 200,
    prepare: individualCampaign,
  },
  {
    method: 'get',
    route: '/api/admin/campaigns/:id/report/people/export',
    permission: 'campaigns:individual-results',
    status: 200,
    prepare: individualCampaign,
    action: 'campaign.results-export',
  },
  {
    method: 'put',
    route: '/api/admin/campaigns/:id',
    permission: 'campaigns:write',
    status: 200,
    prepare: campaign,
    body: validCampaign,
    action: 'campaign.update',
  },
  {
    method: 'delete',
    route: '/api/admin/campaigns/:id',
    permission: 'campaigns:write',
    status: 204,
    prepare: campaign,
    action: 'campaign.delete',
  },
  {
    method: 'post',
    route: '/api/admin/campaigns/:id/send',
    permission: 'campaigns:send',
    status: 202,
    prepare: campaign,
    action: 'campaign.send',
  },
  {
    method: 'post',
    route: '/api/admin/campaigns/:id/duplicate',
    permission: 'campaigns:write',
    status: 201,
    prepare: campaign,
    action: 'campaign.duplicate',
  },
  { method: 'get', route: '/api/admin/lists', permission: 'lists:read', status: 200 },
  {
    method: 'post',
    route: '/api/admin/lists',
    permission: 'lists:write',
    status: 201,
    body: { name: 'Guests' },
    action: 'list.create',
  },
  { method: 'get', route: '/api/admin/people', permission: 'lists:write', status: 200 },
  {
    method: 'get',
    route: '/api/admin/people/export',
    permission: 'lists:write',
    status: 200,
    action: 'people.export',
  },
  {
    method: 'get',
    route: '/api/admin/people/:id',
    permission: 'lists:write',
    status: 200,
    prepare: async () => ({ id: (await ContactModel.create(validEnquiry)).email }),
  },
  {
    method: 'post',
    route: '/api/admin/people/bulk',
    permission: 'lists:write',
    status: 200,
    prepare: async () => ({
      id: '',
      body: {
        action: 'add-to-list',
        listId: String((await MailingListModel.create({ name: `People ${next()}` }))._id),
        emails: [`bulk-${next()}@example.tn`],
      },
    }),
    action: 'people.bulk',
  },
  { method: 'get', route: '/api/admin/suppressions', permission: 'suppressions:read', status: 200 },
  {
    method: 'post',
    route: '/api/admin/suppressions',
    permission: 'suppressions:write',
    status: 201,
    prepare: async () => ({ id: '', body: { email: `gone-${next()}@example.tn` } }),
    action: 'suppression.add',
  },
  {
    method: 'get',
    route: '/api/admin/settings/test-recipients',
    permission: 'settings:manage',
    status: 200,
  },
  {
    method: 'put',
    route: '/api/admin/settings/test-recipients',
    permission: 'settings:manage',
    status: 200,
    body: { entries: ['ceo@client.tn', '@partner.tn'] },
    action: 'settings.test-recipients',
  },
  { method: 'get', route: '/api/admin/agency-settings', permission: 'signed-in', status: 200 },
  {
    method: 'put',
    route: '/api/admin/agency-settings',
    permission: 'settings:manage',
    status: 200,
    body: {
      languages: {
        en: { agencyName: 'Agency' },
        fr: { agencyName: 'Agence' },
        ar: { agencyName: 'الوكالة' },
      },
      senders: [{ name: 'Agency', address: 'news@agency.test' }],
      defaultFrom: 'news@agency.test',
      replyTo: 'hello@agency.test',
      timeZone: 'Africa/Tunis',
      defaultLocale: 'en',
    },
    action: 'settings.agency',
  },
  {
    method: 'get',
    route: '/api/admin/people/:id/data',
    permission: 'people:privacy',
    status: 200,
    prepare: async () => ({ id: `someone-${next()}@example.tn` }),
    action: 'person.data-export',
  },
  {
    method: 'post',
    route: '/api/admin/people/:id/erasure',
    permission: 'people:privacy',
    status: 202,
    prepare: async () => {
      const email = `leaving-${next()}@example.tn`;
      return { id: email, body: { confirm: email } };
    },
    action: 'person.erase',
  },
  {
    method: 'get',
    route: '/api/admin/erasures/:id',
    permission: 'people:privacy',
    status: 200,
    prepare: async () => {
      const id = randomBytes(16).toString('hex');
      await ErasureModel.create({ _id: id, state: 'done', requestedAt: new Date() });
      return { id };
    },
  },
];

let ctx: TestContext;
let users: Record<Role, SignedInUser>;
beforeAll(async () => {
  ctx = await createTestContext();
  users = await oneUserPerRole(ctx);
});
afterAll(async () => {
  await ctx.close();
});

function allowed(role: Role, permission: AdminRoute['permission']): boolean {
  return permission === 'signed-in' || can(role, permission);
}

async function call(route: AdminRoute, caller: SignedInUser | null, succeed: boolean) {
  const prepared = succeed && route.prepare ? await route.prepare() : { id: unknownId() };
  const path = route.route.replace(':id', prepared.id);
  const body =
    'body' in prepared && prepared.body !== undefined
      ? prepared.body
      : route.route === '/api/admin/users' && route.method === 'post'
        ? newUser()
        : route.body;
  const client = as(ctx, caller);
  return route.method === 'get' || route.method === 'delete'
    ? client[route.method](path)
    : client[route.method](path, body);
}

describe.each(ROUTES)('$method $route ($permission)', (route) => {
  it('answers 401 UNAUTHENTICATED to nobody', async () => {
    const response = await call(route, null, false);
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHENTICATED');
  });

  it.each([...ROLES])('answers %s as the permission table says', async (role) => {
    const caller = users[role];
    const expectAllowed = allowed(role, route.permission);
    const logged = await ActivityLogModel.countDocuments({ 'actor.id': caller.id });

    const response = await call(route, caller, expectAllowed);

    if (!expectAllowed) {
      expect({ status: response.status, code: response.body.error?.code }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(await ActivityLogModel.countDocuments({ 'actor.id': caller.id })).toBe(logged);
      return;
    }
    expect({
      status: response.status,
      body: response.status >= 400 ? response.body : undefined,
    }).toEqual({
      status: route.status,
      body: undefined,
    });
    const entries = await ActivityLogModel.find({ 'actor.id': caller.id })
      .sort({ time: -1 })
      .lean();
    if (route.action) {
      expect(entries).toHaveLength(logged + 1);
      expect(entries[0]).toMatchObject({
        action: route.action,
        actor: { id: caller.id, username: caller.username },
        ip: expect.stringMatching(/127\.0\.0\.1/),
      });
    } else {
      expect(entries).toHaveLength(logged);
    }
  });
});

it('covers every permission of the table', () => {
  const covered = new Set(ROUTES.map((route) => route.permission));
  expect(PERMISSIONS.filter((permission) => !covered.has(permission))).toEqual([]);
});
