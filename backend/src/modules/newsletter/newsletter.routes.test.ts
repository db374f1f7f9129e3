import request from 'supertest';
import {
  NEWSLETTER_CONFIRMATION_TTL_MS,
  NEWSLETTER_CONSENT_WORDING_VERSION,
  newsletterConfirmationJobId,
} from '@agency/contracts';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { recordQueuedSubscriptions } from '../../testing/kept-figures';
import { signConfirmationToken, signUnsubscribeToken } from '@agency/platform';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { OwedMailModel } from '@agency/platform/testing/outbox-models';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { withCampaignLock } from '@agency/platform';
import { as, signedInUser } from '../../testing/admin-fixtures';

const ACCEPTED = { status: 'accepted' };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await SubscriberModel.init();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await SubscriberModel.deleteMany({});
  await ctx.queues.newsletterConfirmation.obliterate({ force: true });
  await ctx.queues.newsletterRequest.obliterate({ force: true });
});

const api = () => request(ctx.app.callback());
/** A form submission, then the worker's part: recording what was queued. */
async function subscribe(body: unknown, context = ctx) {
  const response = await request(context.app.callback())
    .post('/api/newsletter')
    .set('Content-Type', 'application/json')
    .send(typeof body === 'string' ? body : JSON.stringify(body));
  if (context.redis.status === 'ready') await recordQueuedSubscriptions(context);
  return response;
}
const confirm = (token: unknown) => api().post('/api/newsletter/confirm').send({ token });
const secret = () => ctx.config.mailLinkSecret;
const findByEmail = (email: string) => SubscriberModel.findOne({ email }).lean();

async function confirmationJobs() {
  const jobs = await ctx.queues.newsletterConfirmation.getJobs(['waiting', 'delayed']);
  return jobs.map((job) => ({ id: job.id, data: job.data }));
}

describe('POST /api/newsletter', () => {
  it('stores a new address as pending with its consent, and queues the confirmation mail', async () => {
    const response = await subscribe({ email: '  Nadia@Example.TN ', locale: 'fr' });

    expect(response.status).toBe(202);
    expect(response.body).toEqual(ACCEPTED);
    const stored = await findByEmail('nadia@example.tn');
    expect(stored).toMatchObject({
      status: 'pending',
      locale: 'fr',
      confirmationRequests: 1,
      consent: {
        ip: expect.stringContaining('127.0.0.1'),
        locale: 'fr',
        source: 'newsletter-banner',
        wordingVersion: NEWSLETTER_CONSENT_WORDING_VERSION,
      },
    });
    expect(stored?.consent?.requestedAt).toBeInstanceOf(Date);
    const id = String(stored?._id);
    expect(await confirmationJobs()).toEqual([
      { id: newsletterConfirmationJobId(id, 1), data: { subscriberId: id, request: 1 } },
    ]);
  });

  it('writes nothing to the store itself: it queues the request, the same for a new and a confirmed address', async () => {
    await SubscriberModel.create({ email: 'known@example.tn', status: 'confirmed' });
    const before = await SubscriberModel.find({}).lean();
    const owedBefore = await OwedMailModel.countDocuments();

    for (const email of ['known@example.tn', 'unknown@example.tn']) {
      const response = await api()
        .post('/api/newsletter')
        .send({ email, locale: 'fr', source: 'newsletter-banner' });
      expect(response.status).toBe(202);
      expect(response.body).toEqual(ACCEPTED);
    }

    expect(await SubscriberModel.find({}).lean()).toEqual(before);
    expect(await OwedMailModel.countDocuments()).toBe(owedBefore);
    const queued = await ctx.queues.newsletterRequest.getJobs(['waiting']);
    expect(queued.map((job) => job.data).sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      ['known@example.tn', 'unknown@example.tn'].map((email) => ({
        email,
        locale: 'fr',
        source: 'newsletter-banner',
        ip: expect.stringContaining('127.0.0.1'),
        requestedAt: expect.any(String),
      })),
    );
  });

  it('answers the same whether the address is new, pending, confirmed or gone', async () => {
    const email = 'same@example.tn';
    const first = await subscribe({ email, locale: 'en' });
    const again = await subscribe({ email, locale: 'ar' });
    await SubscriberModel.updateOne({ email }, { status: 'confirmed' });
    const confirmed = await subscribe({ email, locale: 'en' });

    for (const response of [first, again, confirmed]) {
      expect(response.status).toBe(202);
      expect(response.body).toEqual(ACCEPTED);
    }
    // Pending: one more confirmation owed, now in Arabic. Confirmed: nothing more.
    const stored = await findByEmail(email);
    expect(stored).toMatchObject({ status: 'confirmed', locale: 'ar', confirmationRequests: 2 });
    expect((await confirmationJobs()).map(({ data }) => data.request).sort()).toEqual([1, 2]);
  });

  it('lets an address that left ask again, with a new consent and a new confirmation', async () => {
    const email = 'back@example.tn';
    await SubscriberModel.create({
      email,
      status: 'unsubscribed',
      unsubscribedAt: new Date(),
      confirmationRequests: 1,
    });

    expect((await subscribe({ email, locale: 'fr' })).status).toBe(202);

    const stored = await findByEmail(email);
    expect(stored).toMatchObject({
      status: 'pending',
      confirmationRequests: 2,
    });
    expect(stored?.consent?.locale).toBe('fr');
    expect(await confirmationJobs()).toHaveLength(1);
  });

  it('writes the confirmation in the language the browser asks for when the form sends none', async () => {
    await api()
      .post('/api/newsletter')
      .set('Accept-Language', 'ar')
      .send({ email: 'lang@example.tn' });
    await recordQueuedSubscriptions(ctx);

    expect((await findByEmail('lang@example.tn'))?.locale).toBe('ar');
  });

  it.each([
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['email', { email: '.dot@example.tn' }, 'Please enter a valid email address'],
    ['email', { email: 'user.@example.tn' }, 'Please enter a valid email address'],
    ['email', { email: 'user@-example.tn' }, 'Please enter a valid email address'],
    ['email', { email: '' }, 'Please enter a valid email address'],
    ['email', { email: { $gt: '' } }, 'Please enter a valid email address'],
    ['email', { email: 42 }, 'Please enter a valid email address'],
    ['email', { email: `${'a'.repeat(250)}@x.tn` }, 'Must be at most 254 characters long'],
    ['locale', { email: 'ok@example.tn', locale: 'de' }, 'Language must be one of en, fr, ar'],
    ['source', { email: 'ok@example.tn', source: 'popup' }, 'Unknown subscription form'],
  ])('refuses an invalid %s with its reason and stores nothing', async (field, body, reason) => {
    const response = await subscribe(body);

    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid',
      fields: { [field]: reason },
    });
    expect(await SubscriberModel.countDocuments()).toBe(0);
  });

  it('refuses malformed JSON, other body types and oversized bodies', async () => {
    expect((await subscribe('{"email": ')).status).toBe(400);
    const form = await api().post('/api/newsletter').type('form').send('email=a@b.tn');
    expect(form.status).toBe(415);
    const huge = await subscribe({ email: 'big@example.tn', padding: 'x'.repeat(40 * 1024) });
    expect(huge.status).toBe(413);
    expect(await SubscriberModel.countDocuments()).toBe(0);
  });
});

describe('POST /api/newsletter rate limits', () => {
  it('limits requests per IP', async () => {
    const limited = await createTestContext({ env: { NEWSLETTER_RATE_LIMIT_MAX: '2' } });
    try {
      const statuses = [];
      for (const email of ['a@example.tn', 'b@example.tn', 'c@example.tn']) {
        statuses.push((await subscribe({ email }, limited)).status);
      }
      expect(statuses).toEqual([202, 202, 429]);
      expect(await findByEmail('c@example.tn')).toBeNull();
    } finally {
      await limited.close();
    }
  });

  it('limits confirmation mails per address, however the address is typed', async () => {
    const limited = await createTestContext({ env: { NEWSLETTER_ADDRESS_RATE_LIMIT_MAX: '2' } });
    try {
      const statuses = [];
      for (const email of ['same@example.tn', 'SAME@example.tn ', 'same@Example.tn']) {
        statuses.push((await subscribe({ email }, limited)).status);
      }
      expect(statuses).toEqual([202, 202, 429]);
      expect((await findByEmail('same@example.tn'))?.confirmationRequests).toBe(2);
      // Another address from the same IP is not held back.
      expect((await subscribe({ email: 'other@example.tn' }, limited)).status).toBe(202);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/newsletter while Redis is unreachable', () => {
  it('still stores the request with its confirmation mail owed', async () => {
    const offline = await createTestContext({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const response = await subscribe({ email: 'offline@example.tn' }, offline);

      expect(response.status).toBe(202);
      const stored = await findByEmail('offline@example.tn');
      expect(stored).toMatchObject({ status: 'pending' });
      // Owed in the outbox, for the relay to enqueue once Redis is back.
      expect(
        await OwedMailModel.findById(`newsletter-confirmation:${String(stored?._id)}:1`),
      ).not.toBeNull();
    } finally {
      await offline.close();
    }
  });
});

describe('POST /api/newsletter/confirm', () => {
  async function pendingSubscriber(email = 'pending@example.tn') {
    return SubscriberModel.create({
      email,
      locale: 'ar',
      consent: {
        requestedAt: new Date(),
        ip: '203.0.113.9',
        locale: 'ar',
        source: 'newsletter-banner',
        wordingVersion: NEWSLETTER_CONSENT_WORDING_VERSION,
      },
    });
  }

  it('confirms the subscription and completes the consent record', async () => {
    const subscriber = await pendingSubscriber();

    const response = await confirm(signConfirmationToken(subscriber.id, secret()));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'confirmed', locale: 'ar' });
    const stored = await SubscriberModel.findById(subscriber.id).lean();
    expect(stored?.status).toBe('confirmed');
    expect(stored?.confirmedAt).toBeInstanceOf(Date);
    expect(stored?.consent).toMatchObject({
      ip: '203.0.113.9',
      confirmedIp: expect.stringContaining('127.0.0.1'),
    });
    expect(stored?.consent?.confirmedAt).toBeInstanceOf(Date);
  });

  it('answers the same to a second click, even once the link is old', async () => {
    const subscriber = await pendingSubscriber();
    const token = signConfirmationToken(subscriber.id, secret());
    await confirm(token);
    const confirmedAt = (await SubscriberModel.findById(subscriber.id).lean())?.confirmedAt;
    const old = signConfirmationToken(
      subscriber.id,
      secret(),
      new Date(Date.now() - 30 * 86_400_000),
    );

    for (const again of [await confirm(token), await confirm(old)]) {
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ status: 'confirmed', locale: 'ar' });
    }
    expect((await SubscriberModel.findById(subscriber.id).lean())?.confirmedAt).toEqual(
      confirmedAt,
    );
  });

  it('refuses a link older than 7 days with 410 and leaves the address pending', async () => {
    const subscriber = await pendingSubscriber();
    const issuedAt = new Date(Date.now() - NEWSLETTER_CONFIRMATION_TTL_MS - 60_000);

    const response = await confirm(signConfirmationToken(subscriber.id, secret(), issuedAt));

    expect(response.status).toBe(410);
    expect(response.body.error.code).toBe('LINK_EXPIRED');
    expect((await SubscriberModel.findById(subscriber.id).lean())?.status).toBe('pending');
  });

  it('still accepts a link a minute before its 7 days are up', async () => {
    const subscriber = await pendingSubscriber();
    const issuedAt = new Date(Date.now() - NEWSLETTER_CONFIRMATION_TTL_MS + 60_000);

    const response = await confirm(signConfirmationToken(subscriber.id, secret(), issuedAt));

    expect(response.status).toBe(200);
  });

  it('refuses a link for an address that has left since with 410', async () => {
    const subscriber = await pendingSubscriber();
    await SubscriberModel.updateOne({ _id: subscriber.id }, { status: 'unsubscribed' });

    const response = await confirm(signConfirmationToken(subscriber.id, secret()));

    expect(response.status).toBe(410);
    expect((await SubscriberModel.findById(subscriber.id).lean())?.status).toBe('unsubscribed');
  });

  it.each([
    ['garbage', () => 'not-a-token'],
    [
      'a token signed with another key',
      () => signConfirmationToken('0'.repeat(24), 'x'.repeat(40)),
    ],
    ['a token for nobody', () => signConfirmationToken('0'.repeat(24), secret())],
    ['a token that is not an id', () => signConfirmationToken('../../etc', secret())],
    ['an unsubscribe token', () => signUnsubscribeToken('pending@example.tn', secret())],
  ])('answers 404 to %s, never 500', async (_label, token) => {
    await pendingSubscriber();

    const response = await confirm(token());

    expect(response.status).toBe(404);
    expect(response.body.error).toEqual({ code: 'NOT_FOUND', message: 'This link is not valid' });
    expect(await SubscriberModel.countDocuments({ status: 'confirmed' })).toBe(0);
  });

  it('refuses a missing or mistyped token with 400', async () => {
    const missing = await api().post('/api/newsletter/confirm').send({});
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ token: 'The link is incomplete' });
    const injected = await confirm({ $ne: null });
    expect(injected.status).toBe(400);
  });
});

describe('unsubscribing', () => {
  const email = 'leaving@example.tn';
  const token = () => signUnsubscribeToken(email, secret());

  beforeEach(async () => {
    await SubscriberModel.create({ email, status: 'confirmed', locale: 'fr' });
  });

  it('sends a browser that opens the List-Unsubscribe address to the page with the button', async () => {
    const response = await api().get(`/api/newsletter/unsubscribe?token=${token()}&lang=fr`);

    expect(response.status).toBe(303);
    expect(response.headers.location).toBe(`/newsletter/unsubscribe?token=${token()}&lang=fr`);
    // Opening the link alone changes nothing: mail scanners follow links.
    expect((await findByEmail(email))?.status).toBe('confirmed');
  });

  it('unsubscribes at once on the one-click POST of RFC 8058, and again harmlessly', async () => {
    const oneClick = () =>
      api()
        .post(`/api/newsletter/unsubscribe?token=${token()}`)
        .type('form')
        .send('List-Unsubscribe=One-Click');

    const first = await oneClick();
    const second = await oneClick();

    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'unsubscribed', locale: 'fr' });
    }
    expect(await findByEmail(email)).toMatchObject({
      status: 'unsubscribed',
      unsubscribeMethod: 'one-click',
    });
  });

  it("unsubscribes from the page's button, which posts the token as JSON", async () => {
    const response = await api().post('/api/newsletter/unsubscribe').send({ token: token() });

    expect(response.status).toBe(200);
    const stored = await findByEmail(email);
    expect(stored).toMatchObject({ status: 'unsubscribed', unsubscribeMethod: 'page' });
    expect(stored?.unsubscribedAt).toBeInstanceOf(Date);
  });

  it('keeps an address the agency mailed without a subscription off the list for good', async () => {
    const contact = 'contact@example.tn';
    const response = await api()
      .post('/api/newsletter/unsubscribe')
      .send({ token: signUnsubscribeToken(contact, secret()) });

    expect(response.status).toBe(200);
    expect(await findByEmail(contact)).toMatchObject({ status: 'unsubscribed' });
  });

  it('answers 404 to a forged or foreign token and 400 to a missing one', async () => {
    const forged = await api()
      .post('/api/newsletter/unsubscribe')
      .send({ token: signUnsubscribeToken(email, 'y'.repeat(40)) });
    const confirmation = await api()
      .post('/api/newsletter/unsubscribe')
      .send({ token: signConfirmationToken('0'.repeat(24), secret()) });
    const missing = await api()
      .post('/api/newsletter/unsubscribe')
      .type('form')
      .send('List-Unsubscribe=One-Click');

    expect(forged.status).toBe(404);
    expect(confirmation.status).toBe(404);
    expect(missing.status).toBe(400);
    expect((await findByEmail(email))?.status).toBe('confirmed');
  });
});

describe("unsubscribing through a campaign's mail", () => {
  async function sentCampaign(): Promise<string> {
    const campaign = await CampaignModel.create({
      name: `Spring ${Date.now()}-${Math.random()}`,
      subject: 'Hello',
      content: '<p>Hi</p>',
      status: 'sent',
    });
    return String(campaign._id);
  }
  const unsubscribes = async (id: string) =>
    (await CampaignModel.findById(id, { unsubscribeCount: 1 }).lean())?.unsubscribeCount;
  const report = async (id: string) => {
    const viewer = await signedInUser(ctx, 'viewer');
    const { body } = await as(ctx, viewer).get(`/api/admin/campaigns/${id}/report`).expect(200);
    return body.delivery.unsubscribes as number;
  };
  const byPage = (token: string) => api().post('/api/newsletter/unsubscribe').send({ token });
  const byOneClick = (token: string) =>
    api()
      .post(`/api/newsletter/unsubscribe?token=${token}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');

  it('counts each recipient once for the campaign, by the page or the one-click POST', async () => {
    const id = await sentCampaign();
    await SubscriberModel.create({ email: 'reader@example.tn', status: 'confirmed' });
    const reader = signUnsubscribeToken('reader@example.tn', secret(), id);
    const contact = signUnsubscribeToken('contact@example.tn', secret(), id);

    for (const response of [
      await byOneClick(reader),
      await byPage(reader),
      await byPage(contact),
    ]) {
      expect(response.status).toBe(200);
    }

    expect(await unsubscribes(id)).toBe(2);
    expect(await report(id)).toBe(2);
    // The subscriber record holds what an unsubscribe always held, and nothing of the campaign.
    const stored = await SubscriberModel.findOne({ email: 'reader@example.tn' }).lean();
    expect(JSON.stringify(stored)).not.toContain(id);
  });

  it('counts nothing for a link without a campaign, nor for an address that had left already', async () => {
    const id = await sentCampaign();
    await SubscriberModel.create({ email: 'gone@example.tn', status: 'unsubscribed' });

    await byPage(signUnsubscribeToken('newsletter@example.tn', secret())).expect(200);
    await byPage(signUnsubscribeToken('gone@example.tn', secret(), id)).expect(200);

    expect(await unsubscribes(id)).toBe(0);
    expect((await findByEmail('newsletter@example.tn'))?.status).toBe('unsubscribed');
  });

  it("still unsubscribes when the campaign's count cannot be written", async () => {
    const id = await sentCampaign();
    // Another writer holds the campaign for longer than an unsubscribe waits.
    await withCampaignLock(ctx.redis, ctx.config.queuePrefix, id, 0, async () => {
      await byPage(signUnsubscribeToken('busy@example.tn', secret(), id)).expect(200);
    });
    expect((await findByEmail('busy@example.tn'))?.status).toBe('unsubscribed');
    expect(await unsubscribes(id)).toBe(0);
  });
});
