import request from 'supertest';
import type { Role } from '@agency/contracts';
import { MailingListModel } from '@agency/platform/testing/audience-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, oneUserPerRole, type SignedInUser } from '../../testing/admin-fixtures';

let ctx: TestContext;
let users: Record<Role, SignedInUser>;

beforeAll(async () => {
  ctx = await createTestContext();
  users = await oneUserPerRole(ctx);
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await MailingListModel.deleteMany({});
});

const manager = () => as(ctx, users.manager);
const publicLists = (query = '', context = ctx) =>
  request(context.app.callback()).get(`/api/newsletter/lists${query}`);

const EXPO_NAMES = {
  nameEn: 'Agency news',
  nameFr: 'Nouvelles de l’agence',
  nameAr: 'أخبار الوكالة',
  descriptionEn: 'Our work, monthly',
  descriptionFr: 'Nos travaux, chaque mois',
};

describe('public lists in the list dialog', () => {
  it('stores a public list with its name and description in each language', async () => {
    const created = await manager().post('/api/admin/lists', {
      name: 'Newsletter (internal)',
      public: true,
      ...EXPO_NAMES,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      public: true,
      localized: {
        en: { name: 'Agency news', description: 'Our work, monthly' },
        fr: { name: 'Nouvelles de l’agence', description: 'Nos travaux, chaque mois' },
        ar: { name: 'أخبار الوكالة', description: null },
      },
    });

    const privateAgain = await manager().put(`/api/admin/lists/${created.body.id}`, {
      name: 'Newsletter (internal)',
      public: false,
      nameEn: 'Agency news',
    });
    expect(privateAgain.status).toBe(200);
    expect(privateAgain.body.public).toBe(false);
    expect(privateAgain.body.localized.fr).toEqual({ name: '', description: null });
  });

  it('refuses a public list without a name in each language, naming the fields', async () => {
    const refused = await manager().post('/api/admin/lists', {
      name: 'Half named',
      public: true,
      nameEn: 'Half',
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.error.fields).sort()).toEqual(['nameAr', 'nameFr']);
    expect(await MailingListModel.countDocuments({})).toBe(0);

    for (const flag of ['yes', 1, null]) {
      const bad = await manager().post('/api/admin/lists', { name: 'Odd', public: flag });
      expect(bad.status).toBe(400);
      expect(bad.body.error.fields).toEqual({ public: 'Must be true or false' });
    }
    const privateList = await manager().post('/api/admin/lists', { name: 'Private' });
    expect(privateList.status).toBe(201);
    expect(privateList.body.public).toBe(false);
  });
});

describe('GET /api/newsletter/lists', () => {
  it('names the public, active lists in the language asked for, without their counts', async () => {
    const shown = await manager().post('/api/admin/lists', {
      name: 'Zeta internal',
      public: true,
      ...EXPO_NAMES,
    });
    await manager().post('/api/admin/lists', { name: 'Alpha private', nameFr: 'Privée' });
    const going = await manager().post('/api/admin/lists', {
      name: 'Beta going',
      public: true,
      ...EXPO_NAMES,
    });
    await MailingListModel.updateOne(
      { _id: going.body.id },
      { $set: { deletion: { total: 0, removed: 0, startedAt: new Date() } } },
    );

    const french = await publicLists('?lang=fr');
    expect(french.status).toBe(200);
    expect(french.body).toEqual({
      locale: 'fr',
      items: [
        {
          id: shown.body.id,
          name: 'Nouvelles de l’agence',
          description: 'Nos travaux, chaque mois',
        },
      ],
    });
    const arabic = await publicLists('?lang=ar');
    expect(arabic.body.items).toEqual([
      { id: shown.body.id, name: 'أخبار الوكالة', description: null },
    ]);
    const english = await publicLists();
    expect(english.body.locale).toBe('en');
    expect(english.body.items[0].name).toBe('Agency news');
  });

  it('refuses an unknown language with the field', async () => {
    const refused = await publicLists('?lang=de');
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.error.fields)).toEqual(['lang']);
  });

  it('is rate limited per IP like the newsletter links', async () => {
    const limited = await createTestContext({ env: { NEWSLETTER_LINK_RATE_LIMIT_MAX: '2' } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await publicLists('', limited)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
