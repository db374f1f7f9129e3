import request from 'supertest';
import { ContactModel } from '@agency/platform/testing/contact-models';
import {
  ON_AND_OFF,
  resetStoreWorkarounds,
  setStoreWorkarounds,
  withStoreWorkarounds,
} from '@agency/platform/testing/store-workarounds';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validEnquiry, type SignedInUser } from '../../testing/admin-fixtures';
import { reconcileNow } from '../../testing/kept-figures';

/*
 * The contacts list takes its default order, its status and service filters
 * and its search from an index in Redis where the store needs it (the
 * workaround `contactsIndexInRedis`, on FerretDB by default): with it on or
 * off, the list answers the same pages.
 */

let ctx: TestContext;
let manager: SignedInUser;
/** The seeded enquiries' ids by first name. */
const ids: Record<string, string> = {};

const SEEDED = [
  { firstName: 'Amira', service: 'web-design' },
  { firstName: 'Bilel', service: 'branding' },
  { firstName: 'Chiraz', service: 'web-design' },
  { firstName: 'Amine', service: 'branding' },
  { firstName: 'Dora', service: 'social-media' },
] as const;

beforeAll(async () => {
  ctx = await createTestContext();
  manager = await signedInUser(ctx, 'manager');
  // Stored through the API with the index kept, one after the other (oldest first).
  setStoreWorkarounds({ contactsIndexInRedis: true });
  for (const { firstName, service } of SEEDED) {
    const response = await request(ctx.app.callback())
      .post('/api/contact')
      .send({
        ...validEnquiry,
        firstName,
        service,
        email: `${firstName.toLowerCase()}@example.tn`,
      });
    if (response.status !== 201) throw new Error(`${firstName} was not stored: ${response.text}`);
    ids[firstName] = response.body.id as string;
  }
  await as(ctx, manager).patch(`/api/admin/contacts/${ids.Bilel}`, { status: 'replied' });
  await reconcileNow(ctx);
  resetStoreWorkarounds();
});
afterAll(async () => {
  await ctx.close();
});

type Listed = { items: { id: string; firstName: string }[]; next: string | null; total: number };

/** Every page of a query, following `next`: the first names in the order listed. */
async function walk(query: string): Promise<{ names: string[]; pages: Listed[] }> {
  const pages: Listed[] = [];
  let path: string | null = `/api/admin/contacts?pageSize=2${query}`;
  while (path) {
    const response = await as(ctx, manager).get(path);
    expect(response.status).toBe(200);
    const page = response.body as Listed;
    pages.push(page);
    path = page.next
      ? `/api/admin/contacts?pageSize=2${query}&after=${encodeURIComponent(page.next)}`
      : null;
  }
  return { names: pages.flatMap((page) => page.items.map((item) => item.firstName)), pages };
}

const QUERIES: [string, string[]][] = [
  ['', ['Dora', 'Amine', 'Chiraz', 'Bilel', 'Amira']],
  ['&sort=createdAt', ['Amira', 'Bilel', 'Chiraz', 'Amine', 'Dora']],
  ['&status=new', ['Dora', 'Amine', 'Chiraz', 'Amira']],
  ['&service=branding', ['Amine', 'Bilel']],
  ['&search=ami', ['Amine', 'Amira']],
];

describe.each(ON_AND_OFF)('GET /api/admin/contacts with the contacts index %s', (_, on) => {
  withStoreWorkarounds({ contactsIndexInRedis: on });

  it.each(QUERIES)('walks the pages of "%s" in the list order', async (query, names) => {
    const walked = await walk(query);
    expect(walked.names).toEqual(names);
    expect(walked.pages[0]?.total).toBe(names.length);
  });

  it(
    on
      ? 'reads the default order from the index'
      : 'reads the default order from the store, whatever the index holds',
    async () => {
      // The index loses Dora's place (as Redis might): only the index's own answer misses her.
      const time = `${ctx.config.queuePrefix}:contacts:index:time`;
      const [member] = await ctx.redis.zrevrange(time, 0, 0);
      await ctx.redis.zrem(time, member ?? '');
      try {
        const { names } = await walk('');
        expect(names.includes('Dora')).toBe(!on);
      } finally {
        await ctx.redis.zadd(time, 0, member ?? '');
      }
    },
  );
});

it('answers the same pages, rows and positions with the index on as off', async () => {
  for (const [query] of QUERIES) {
    setStoreWorkarounds({ contactsIndexInRedis: true });
    const fromIndex = await walk(query);
    setStoreWorkarounds({ contactsIndexInRedis: false });
    const fromStore = await walk(query);
    resetStoreWorkarounds();
    expect({ query, pages: fromIndex.pages }).toEqual({ query, pages: fromStore.pages });
  }
});

/** The export's rows as first names, in the file's order (first name is the third column). */
async function exported(query: string): Promise<string[]> {
  const response = await as(ctx, manager).get(`/api/admin/contacts/export?${query.slice(1)}`);
  expect(response.status).toBe(200);
  const lines = response.text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((line) => line.split(',')[2] ?? '');
}

describe('GET /api/admin/contacts/export with the contacts index', () => {
  it.each([...QUERIES, ['&sort=email', ['Amine', 'Amira', 'Bilel', 'Chiraz', 'Dora']]] as [
    string,
    string[],
  ][])(
    'exports "%s" in the list order, the same with the index on as off',
    async (query, names) => {
      setStoreWorkarounds({ contactsIndexInRedis: true });
      const fromIndex = await exported(query);
      setStoreWorkarounds({ contactsIndexInRedis: false });
      const fromStore = await exported(query);
      resetStoreWorkarounds();
      expect(fromIndex).toEqual(names);
      expect(fromStore).toEqual(names);
    },
  );

  it.each(['after', 'before'])(
    "exports every row whatever a list page's position (%s) says, a malformed one included",
    async (side) => {
      // A position whose sort value is not a date: a list page refuses it; the export has no pages.
      const position = Buffer.from(
        JSON.stringify(['-createdAt', '', '000a0aaaa0aa000a00aaa0a0']),
      ).toString('base64url');
      for (const on of [true, false]) {
        setStoreWorkarounds({ contactsIndexInRedis: on });
        expect(await exported(`&${side}=${position}`)).toEqual(await exported(''));
      }
      resetStoreWorkarounds();
    },
  );

  it('walks the index rather than asking the store to sort, where the index keeps the order', async () => {
    // The index loses Dora's place: only an export read from the index misses her.
    const time = `${ctx.config.queuePrefix}:contacts:index:time`;
    const [member] = await ctx.redis.zrevrange(time, 0, 0);
    await ctx.redis.zrem(time, member ?? '');
    try {
      setStoreWorkarounds({ contactsIndexInRedis: true });
      expect(await exported('')).toEqual(['Amine', 'Chiraz', 'Bilel', 'Amira']);
      // An order the index does not keep comes from the store, Dora with it.
      expect(await exported('&sort=email')).toContain('Dora');
    } finally {
      resetStoreWorkarounds();
      await ctx.redis.zadd(time, 0, member ?? '');
    }
  });

  it('follows the index page after page through a file of hundreds of rows', async () => {
    const start = Date.UTC(2024, 0, 1);
    await ContactModel.insertMany(
      Array.from({ length: 230 }, (_, n) => ({
        ...validEnquiry,
        firstName: `Bulk${String(n).padStart(3, '0')}`,
        email: `bulk${n}@example.tn`,
        locale: 'fr',
        status: 'new',
        createdAt: new Date(start + n * 60_000),
      })),
    );
    await reconcileNow(ctx);
    setStoreWorkarounds({ contactsIndexInRedis: true });
    const fromIndex = await exported('&sort=createdAt');
    setStoreWorkarounds({ contactsIndexInRedis: false });
    const fromStore = await exported('&sort=createdAt');
    resetStoreWorkarounds();
    const bulk = Array.from({ length: 230 }, (_, n) => `Bulk${String(n).padStart(3, '0')}`);
    expect(fromIndex).toEqual([...bulk, 'Amira', 'Bilel', 'Chiraz', 'Amine', 'Dora']);
    expect(fromStore).toEqual(fromIndex);
  });
});
