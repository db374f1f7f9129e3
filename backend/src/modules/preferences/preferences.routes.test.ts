import type { Locale } from '@agency/contracts';
import request from 'supertest';
import { MANAGE_KEY_PERIOD_DAYS, signManageToken, signUnsubscribeToken } from '@agency/platform';
import {
  ListMemberModel,
  MailingListModel,
  PersonModel,
  SubscriberModel,
  SuppressionModel,
} from '@agency/platform/testing/audience-models';
import { createTestContext, type TestContext } from '../../testing/test-context';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await SubscriberModel.init();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await Promise.all([
    MailingListModel.deleteMany({}),
    ListMemberModel.deleteMany({}),
    SubscriberModel.deleteMany({}),
    SuppressionModel.deleteMany({}),
  ]);
});

const EMAIL = 'rim@example.tn';
const DAY_MS = 24 * 60 * 60 * 1000;
const token = (email = EMAIL, at = new Date()) =>
  signManageToken(email, ctx.config.mailLinkSecret, at);
const api = (context = ctx) => request(context.app.callback());
const read = (body: unknown, context = ctx) =>
  api(context)
    .post('/api/newsletter/preferences')
    .send(body as object);
const save = (body: unknown) =>
  api()
    .put('/api/newsletter/preferences')
    .send(body as object);

async function list(name: string, isPublic = true): Promise<string> {
  const created = await MailingListModel.create({
    name,
    public: isPublic,
    localized: {
      en: { name },
      fr: { name: `${name} (fr)`, description: 'Chaque mois' },
      ar: { name },
    },
  });
  return String(created._id);
}

async function confirmedSubscriber(locale: Locale = 'fr') {
  await SubscriberModel.create({
    email: EMAIL,
    status: 'confirmed',
    locale,
    confirmedAt: new Date(),
  });
}

describe('the preference page calls', () => {
  it('reads the public lists in the person’s language, and which they are in', async () => {
    await confirmedSubscriber('fr');
    const news = await list('News');
    const events = await list('Events');
    const internal = await list('Internal', false);
    await ListMemberModel.create({
      _id: `${news}:${EMAIL}`,
      list: news,
      key: EMAIL,
      email: EMAIL,
      consent: { basis: 'sign-up', at: new Date(), listName: 'News' },
    });
    const response = await read({ token: token() });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({
      email: EMAIL,
      locale: 'fr',
      subscription: 'confirmed',
      lists: [
        { id: events, name: 'Events (fr)', description: 'Chaque mois', member: false },
        { id: news, name: 'News (fr)', description: 'Chaque mois', member: true },
      ],
    });
    expect(JSON.stringify(response.body)).not.toContain(internal);
  });

  it('joins and leaves public lists and sets the language of every mail', async () => {
    await confirmedSubscriber('fr');
    const news = await list('News');
    const events = await list('Events');
    const internal = await list('Internal', false);
    await ListMemberModel.create({
      _id: `${internal}:${EMAIL}`,
      list: internal,
      key: EMAIL,
      email: EMAIL,
      locale: 'fr',
      consent: { basis: 'staff', at: new Date(), listName: 'Internal' },
    });

    const joined = await save({ token: token(), locale: 'ar', listIds: [news, events] });
    expect(joined.status).toBe(200);
    expect(joined.body.locale).toBe('ar');
    expect(joined.body.lists.map((item: { member: boolean }) => item.member)).toEqual([true, true]);
    expect(await ListMemberModel.findById(`${news}:${EMAIL}`).lean()).toMatchObject({
      locale: 'ar',
      consent: { basis: 'sign-up' },
    });
    expect((await SubscriberModel.findOne({ email: EMAIL }).lean())?.locale).toBe('ar');
    // The staff's own list stays, in the new language.
    expect(await ListMemberModel.findById(`${internal}:${EMAIL}`).lean()).toMatchObject({
      locale: 'ar',
    });
    expect((await MailingListModel.findById(news).lean())?.memberCount).toBe(1);

    const left = await save({ token: token(), locale: 'ar', listIds: [events] });
    expect(left.status).toBe(200);
    expect(await ListMemberModel.exists({ _id: `${news}:${EMAIL}` })).toBeNull();
    expect(await ListMemberModel.exists({ _id: `${internal}:${EMAIL}` })).not.toBeNull();
    expect((await MailingListModel.findById(news).lean())?.memberCount).toBe(0);
    const person = await PersonModel.findById(EMAIL).lean();
    expect([...(person?.listIds ?? [])].sort()).toEqual([events, internal].sort());
  });

  it('refuses a list that is not public, or bad input, with the field and changes nothing', async () => {
    await confirmedSubscriber('fr');
    const internal = await list('Internal', false);
    const refused = await save({ token: token(), locale: 'en', listIds: [internal] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({ listIds: 'Choose among the lists offered' });
    const badLocale = await save({ token: token(), locale: 'de', listIds: [] });
    expect(badLocale.status).toBe(400);
    expect(Object.keys(badLocale.body.error.fields)).toEqual(['locale']);
    const noToken = await save({ locale: 'en', listIds: [] });
    expect(noToken.status).toBe(400);
    expect(Object.keys(noToken.body.error.fields)).toEqual(['token']);
    expect(await ListMemberModel.countDocuments({})).toBe(0);
    expect((await SubscriberModel.findOne({ email: EMAIL }).lean())?.locale).toBe('fr');
  });

  it('unsubscribes from everything and suppresses, as the unsubscribe link does', async () => {
    await confirmedSubscriber('en');
    const response = await api()
      .post('/api/newsletter/preferences/unsubscribe')
      .send({ token: token() });
    expect(response.status).toBe(200);
    expect(response.body.subscription).toBe('unsubscribed');
    expect(await SubscriberModel.findOne({ email: EMAIL }).lean()).toMatchObject({
      status: 'unsubscribed',
      unsubscribeMethod: 'page',
    });
    expect(await SuppressionModel.exists({ _id: EMAIL })).not.toBeNull();
  });

  it('refuses tampered, expired and other-purpose links with a clear 404 or 410, never a 500', async () => {
    await confirmedSubscriber('en');
    const genuine = token();
    const [header, claims, signature] = genuine.split('.') as [string, string, string];
    const flip = (part: string) =>
      `${part.slice(0, 5)}${part[5] === 'A' ? 'B' : 'A'}${part.slice(6)}`;
    for (const tampered of [
      `${flip(header)}.${claims}.${signature}`,
      `${header}.${flip(claims)}.${signature}`,
      `${header}.${claims}.${flip(signature)}`,
      signUnsubscribeToken(EMAIL, ctx.config.mailLinkSecret),
      signManageToken(EMAIL, 'another-secret-of-at-least-32-characters!!'),
    ]) {
      const response = await read({ token: tampered });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    const old = token(EMAIL, new Date(Date.now() - 2 * MANAGE_KEY_PERIOD_DAYS * DAY_MS));
    const expired = await read({ token: old });
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'LINK_EXPIRED' });
    const unsubscribe = await api()
      .post('/api/newsletter/preferences/unsubscribe')
      .send({ token: old });
    expect(unsubscribe.status).toBe(410);
    expect((await SubscriberModel.findOne({ email: EMAIL }).lean())?.status).toBe('confirmed');
  });

  it('is rate limited per IP', async () => {
    const limited = await createTestContext({ env: { NEWSLETTER_LINK_RATE_LIMIT_MAX: '2' } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push((await read({ token: 'x' }, limited)).status);
      }
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
