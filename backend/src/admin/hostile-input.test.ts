import fc from 'fast-check';
import { CAMPAIGN_CONTENT_MAX } from '@agency/contracts';
import { createTestContext, type TestContext } from '../testing/test-context';
import {
  as,
  signedInUser,
  validCampaign,
  validClient,
  validEnquiry,
  validLead,
  type SignedInUser,
} from '../testing/admin-fixtures';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { ClientModel } from '../modules/clients';
import { LeadModel } from '../modules/leads';
import { createUser } from '../modules/users';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import mongoose from 'mongoose';
import request from 'supertest';

/**
 * Posts generated hostile bodies to every endpoint that takes one, public and
 * admin: each body has at least one required field replaced by something no
 * schema accepts (wrong type, array, operator or nested object, blank or
 * oversized text), plus prototype-named and random keys full of control
 * characters. Every answer must be a 4xx and nothing may be stored.
 */

const PROTOTYPE_KEYS = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
] as const;

const controlText = fc.string({
  unit: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  maxLength: 40,
});
const operatorObject = fc.constantFrom<object>(
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(1000)' },
  { $regex: '.*' },
  { $in: ['a', 'b'] },
  { $expr: { $eq: [1, 1] } },
);

/** A value that a text, e-mail or enum field can never accept. */
const neverValid = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 4 }),
  operatorObject,
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything(), { maxKeys: 4 }),
  fc.constantFrom('', '   ', '\t\n'),
  // Longer than any field takes: the longest, a campaign's content, is refused by its schema (400), the others by the body limit (413).
  fc.constant('x'.repeat(CAMPAIGN_CONTENT_MAX + 1)),
);
/** For a password, blank text is a real (wrong) password: only types are wrong. */
const neverValidPassword = neverValid.filter((value) => typeof value !== 'string');

const extraKeys = fc.dictionary(
  fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })),
  fc.oneof(fc.anything(), controlText, operatorObject),
  { maxKeys: 5 },
);

interface BodyEndpoint {
  name: string;
  method: 'post' | 'put' | 'patch';
  path: () => string;
  valid: () => Record<string, unknown>;
  required: readonly string[];
  auth: boolean;
}

function hostileBody(endpoint: BodyEndpoint) {
  const corrupted = fc.uniqueArray(fc.constantFrom(...endpoint.required), { minLength: 1 });
  return fc
    .tuple(corrupted, extraKeys, fc.infiniteStream(fc.constant(0)))
    .chain(([fields, extras]) =>
      fc
        .tuple(...fields.map((field) => (field === 'password' ? neverValidPassword : neverValid)))
        .map((values) => {
          const body: Record<string, unknown> = Object.fromEntries([
            ...Object.entries(extras),
            ...Object.entries(endpoint.valid()),
          ]);
          fields.forEach((field, index) => {
            body[field] = values[index];
          });
          return body;
        }),
    );
}

/** Bodies that are not an object at all. */
const notAnObject = fc.oneof(
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.constant(null),
);

let ctx: TestContext;
let admin: SignedInUser;
const ids: Record<'contact' | 'user' | 'client' | 'lead' | 'campaign', string> = {
  contact: '',
  user: '',
  client: '',
  lead: '',
  campaign: '',
};

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, 'admin');
  ids.contact = String((await ContactModel.create(validEnquiry))._id);
  ids.client = String((await ClientModel.create(validClient))._id);
  ids.lead = String((await LeadModel.create(validLead))._id);
  ids.campaign = String((await CampaignModel.create(validCampaign))._id);
  ids.user = (
    await createUser({
      username: 'target',
      email: 'target@agency.tn',
      role: 'editor',
      password: 'a long enough password',
    })
  ).id;
});
afterAll(async () => {
  await ctx.close();
});

const ENDPOINTS: BodyEndpoint[] = [
  {
    name: 'contact',
    method: 'post',
    path: () => '/api/contact',
    valid: () => ({ ...validEnquiry }),
    required: ['firstName', 'lastName', 'email', 'service', 'message'],
    auth: false,
  },
  {
    name: 'login',
    method: 'post',
    path: () => '/api/admin/login',
    valid: () => ({ username: admin.username, password: 'correct horse battery staple' }),
    required: ['username', 'password'],
    auth: false,
  },
  {
    name: 'own password change',
    method: 'put',
    path: () => '/api/admin/me/password',
    valid: () => ({
      currentPassword: 'correct horse battery staple',
      newPassword: 'another long enough password',
    }),
    required: ['currentPassword', 'newPassword'],
    auth: true,
  },
  {
    name: 'own two-factor set-up',
    method: 'post',
    path: () => '/api/admin/me/two-factor/setup',
    valid: () => ({ password: 'correct horse battery staple' }),
    required: ['password'],
    auth: true,
  },
  {
    name: 'own two-factor confirmation',
    method: 'post',
    path: () => '/api/admin/me/two-factor/confirm',
    valid: () => ({ code: '123456', password: 'correct horse battery staple' }),
    required: ['code', 'password'],
    auth: true,
  },
  {
    name: 'signing out everywhere else',
    method: 'post',
    path: () => '/api/admin/me/sessions/end-others',
    valid: () => ({ password: 'correct horse battery staple' }),
    required: ['password'],
    auth: true,
  },
  {
    name: 'user create',
    method: 'post',
    path: () => '/api/admin/users',
    valid: () => ({
      username: 'fresh',
      email: 'fresh@agency.tn',
      role: 'viewer',
      password: 'a long enough password',
    }),
    required: ['username', 'email', 'password'],
    auth: true,
  },
  {
    name: 'user update',
    method: 'put',
    path: () => `/api/admin/users/${ids.user}`,
    valid: () => ({ username: 'target', email: 'target@agency.tn', role: 'editor' }),
    required: ['username', 'email'],
    auth: true,
  },
  {
    name: 'contact status',
    method: 'patch',
    path: () => `/api/admin/contacts/${ids.contact}`,
    valid: () => ({ status: 'replied' }),
    required: ['status'],
    auth: true,
  },
  {
    name: 'client create',
    method: 'post',
    path: () => '/api/admin/clients',
    valid: () => ({ ...validClient }),
    required: ['companyName', 'contactPerson', 'email'],
    auth: true,
  },
  {
    name: 'client update',
    method: 'put',
    path: () => `/api/admin/clients/${ids.client}`,
    valid: () => ({ ...validClient }),
    required: ['companyName', 'contactPerson', 'email'],
    auth: true,
  },
  {
    name: 'lead create',
    method: 'post',
    path: () => '/api/admin/leads',
    valid: () => ({ ...validLead }),
    required: ['name'],
    auth: true,
  },
  {
    name: 'lead update',
    method: 'put',
    path: () => `/api/admin/leads/${ids.lead}`,
    valid: () => ({ ...validLead }),
    required: ['name'],
    auth: true,
  },
  {
    name: 'campaign create',
    method: 'post',
    path: () => '/api/admin/campaigns',
    valid: () => ({ ...validCampaign }),
    required: ['name', 'subject', 'content'],
    auth: true,
  },
  {
    name: 'campaign update',
    method: 'put',
    path: () => `/api/admin/campaigns/${ids.campaign}`,
    valid: () => ({ ...validCampaign }),
    required: ['name', 'subject', 'content'],
    auth: true,
  },
  {
    name: 'campaign schedule',
    method: 'post',
    path: () => `/api/admin/campaigns/${ids.campaign}/schedule`,
    valid: () => ({ scheduledAt: '2099-03-02T09:00:00.000Z' }),
    required: ['scheduledAt'],
    auth: true,
  },
  {
    name: 'campaign test send',
    method: 'post',
    path: () => `/api/admin/campaigns/${ids.campaign}/test`,
    valid: () => ({ email: `${admin.username}@agency.test` }),
    required: ['email'],
    auth: true,
  },
];

/** Every collection's count and every record's last change: "nothing stored" means none moves. */
async function storeSnapshot(): Promise<string> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('no database');
  const collections = (await db.listCollections().toArray()).map((c) => c.name).sort();
  const parts = await Promise.all(
    collections.map(async (name) => {
      const docs = await db
        .collection(name)
        .find({}, { projection: { updatedAt: 1, time: 1 } })
        .toArray();
      return `${name}:${docs.length}:${docs.map((doc) => String(doc.updatedAt ?? doc.time ?? '')).join(',')}`;
    }),
  );
  return parts.join('|');
}

function send(endpoint: BodyEndpoint, body: unknown) {
  const call = request(ctx.app.callback())
    [endpoint.method](endpoint.path())
    .set('Content-Type', 'application/json');
  const authed = endpoint.auth ? call.set('Authorization', `Bearer ${admin.token}`) : call;
  return authed.send(JSON.stringify(body));
}

describe.each(ENDPOINTS)('hostile bodies: $method $name', (endpoint) => {
  it('always answers 4xx and stores nothing', async () => {
    const before = await storeSnapshot();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { arbitrary: hostileBody(endpoint), weight: 5 },
          { arbitrary: notAnObject, weight: 1 },
        ),
        async (body) => {
          const response = await send(endpoint, body);
          if (response.status < 400 || response.status >= 500) {
            throw new Error(
              `${response.status} for ${JSON.stringify(body).slice(0, 300)}: ${JSON.stringify(response.body)}`,
            );
          }
        },
      ),
      { numRuns: 40 },
    );
    expect(await storeSnapshot()).toBe(before);
  });
});

describe('hostile ids and queries', () => {
  const idRoutes = [
    ['get', '/api/admin/contacts/'],
    ['post', '/api/admin/contacts/:id/convert'],
    ['delete', '/api/admin/contacts/'],
    ['delete', '/api/admin/users/'],
    ['delete', '/api/admin/clients/'],
    ['delete', '/api/admin/leads/'],
    ['post', '/api/admin/campaigns/:id/send'],
  ] as const;

  it('answers 400 or 404 to any id, and stores nothing', async () => {
    const before = await storeSnapshot();
    const hostileId = fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.constantFrom(
        '{"$gt":""}',
        '[object Object]',
        '..%2F..',
        '%00',
        'constructor',
        '__proto__',
        'ffffffffffffffffffffffff0',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...idRoutes), hostileId, async ([method, route], id) => {
        const encoded = encodeURIComponent(id);
        const path = route.includes(':id') ? route.replace(':id', encoded) : `${route}${encoded}`;
        const response = await as(ctx, admin)[method](path);
        if (response.status !== 400 && response.status !== 404) {
          throw new Error(
            `${response.status} for ${method} ${path}: ${JSON.stringify(response.body)}`,
          );
        }
      }),
      { numRuns: 60 },
    );
    expect(await storeSnapshot()).toBe(before);
  });

  it('never answers 5xx to a list query, and refuses values its schema does not know', async () => {
    const lists = [
      '/api/admin/contacts',
      '/api/admin/users',
      '/api/admin/clients',
      '/api/admin/leads',
      '/api/admin/campaigns',
      '/api/admin/activity-logs',
      '/api/admin/contacts/export',
      '/api/admin/people',
      '/api/admin/people/export',
    ];
    const key = fc.oneof(
      fc.constantFrom(
        'page',
        'pageSize',
        'sort',
        'search',
        'after',
        'before',
        'status',
        'role',
        'service',
        'listId',
        'tag',
        'source',
        'consent',
        'suppressed',
        'since',
        ...PROTOTYPE_KEYS,
      ),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      controlText,
      fc.constantFrom('-1', '1e9', 'NaN', '[$gt]', '0x10', ''),
      // Positions as the lists encode them, holding values of every kind.
      fc
        .tuple(
          fc.constantFrom(
            '-createdAt',
            'createdAt',
            'lastName',
            'email',
            '-time',
            'username',
            '-firstSeenAt',
          ),
          fc.oneof(fc.string(), fc.double(), fc.constant(null), fc.object()),
          fc.oneof(fc.stringMatching(/^[0-9a-f]{24}$/), fc.string()),
        )
        .map((position) => Buffer.from(JSON.stringify(position)).toString('base64url')),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...lists),
        fc.array(fc.tuple(key, value), { maxLength: 5 }),
        async (path, pairs) => {
          const query = pairs
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join('&');
          const response = await as(ctx, admin).get(`${path}?${query}`);
          if (response.status >= 500 || (response.status !== 200 && response.status !== 400)) {
            throw new Error(
              `${response.status} for ${path}?${query}: ${JSON.stringify(response.body)}`,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('prototype-named keys (the yup lookup bug)', () => {
  it.each(PROTOTYPE_KEYS.filter((key) => key !== '__proto__'))(
    'accepts a valid enquiry that also carries "%s"',
    async (key) => {
      const body = JSON.stringify(validEnquiry).replace('{', `{"${key}": {"polluted": true},`);
      const response = await request(ctx.app.callback())
        .post('/api/contact')
        .set('Content-Type', 'application/json')
        .send(body);
      expect(response.status).toBe(201);
      const stored = await ContactModel.findById(response.body.id).lean();
      expect(stored?.firstName).toBe('Amira');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('refuses a "__proto__" key with 400 before parsing it into an object', async () => {
    const before = await ContactModel.countDocuments();
    const body = JSON.stringify(validEnquiry).replace('{', '{"__proto__": {"polluted": true},');
    const response = await request(ctx.app.callback())
      .post('/api/contact')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('BAD_REQUEST');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await ContactModel.countDocuments()).toBe(before);
  });

  it('refuses a body nested deeper than any form with 400', async () => {
    const deep = `{"firstName":${'['.repeat(500)}${']'.repeat(500)}}`;
    const response = await request(ctx.app.callback())
      .post('/api/contact')
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(response.status).toBe(400);
  });
});
