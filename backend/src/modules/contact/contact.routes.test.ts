import request from 'supertest';
import { contactMailJobId } from '@agency/contracts';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { createMailQueues, relayOwedMail, contactMailStatuses } from '@agency/platform';
import { OwedMailModel } from '@agency/platform/testing/outbox-models';
import { ContactAddressModel, ContactModel } from '@agency/platform/testing/contact-models';

const validEnquiry = {
  firstName: 'Amira',
  lastName: 'Ben Salah',
  email: 'amira@example.tn',
  phone: '+216 20 123 456',
  service: 'web-design',
  message: 'We need a new website for our bakery chain.',
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ContactModel.deleteMany({});
  await ContactAddressModel.deleteMany({});
  await OwedMailModel.deleteMany({});
});

const post = (body: unknown) =>
  request(ctx.app.callback())
    .post('/api/contact')
    .set('Content-Type', 'application/json')
    .send(
      // supertest would serialise objects itself; strings let tests send raw JSON.
      typeof body === 'string' ? body : JSON.stringify(body),
    );

describe('POST /api/contact', () => {
  it('stores a valid enquiry as new with both mails owed, then enqueues them', async () => {
    const response = await post({ ...validEnquiry, locale: 'fr' });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const stored = await ContactModel.findById(response.body.id).lean();
    expect(stored).toMatchObject({ ...validEnquiry, status: 'new', locale: 'fr' });
    expect(stored?.createdAt).toBeInstanceOf(Date);
    // The news box was not ticked: no consent, and campaigns leave the address out.
    expect(stored).not.toHaveProperty('consent');
    // The campaign audience's copy of the address, under the enquiry's id.
    expect(await ContactAddressModel.findById(response.body.id).lean()).toEqual({
      _id: stored?._id,
      email: validEnquiry.email,
      firstName: validEnquiry.firstName,
      lastName: validEnquiry.lastName,
      locale: 'fr',
    });
    // No worker runs in this file: both stay owed, in the outbox.
    expect(await OwedMailModel.findById(`contact:${String(response.body.id)}`)).not.toBeNull();
    expect(await contactMailStatuses(String(response.body.id))).toEqual({
      notification: { state: 'pending' },
      acknowledgement: { state: 'pending' },
    });
    const job = await ctx.queues.contactMail.getJob(contactMailJobId(response.body.id));
    // The job carries what both mails are written from: its first run reads nothing.
    expect(job?.data).toEqual({
      contactId: response.body.id,
      mail: {
        ...validEnquiry,
        locale: 'fr',
        createdAt: stored?.createdAt.toISOString(),
      },
    });
    // Transient SMTP failures are retried with growing pauses.
    expect(job?.opts).toMatchObject({
      attempts: 8,
      backoff: { type: 'exponential', delay: 5000 },
    });
  });

  it('records the consent of a visitor who ticked "send me news", as the newsletter records one', async () => {
    const before = Date.now();
    const response = await post({ ...validEnquiry, newsletterConsent: true }).set(
      'Accept-Language',
      'ar',
    );

    expect(response.status).toBe(201);
    const stored = await ContactModel.findById(response.body.id).lean();
    expect(stored?.consent).toEqual({
      requestedAt: stored?.createdAt,
      ip: expect.stringMatching(/127\.0\.0\.1/),
      locale: 'ar',
      source: 'contact-form',
      wordingVersion: 'contact-news-consent-v1',
    });
    expect(stored?.consent?.requestedAt.getTime()).toBeGreaterThanOrEqual(before);
    // The audience's copy says so, for the walk to read the consented alone.
    expect(await ContactAddressModel.findById(response.body.id).lean()).toMatchObject({
      consented: true,
    });
    // The box is no part of the mails about the enquiry.
    const job = await ctx.queues.contactMail.getJob(contactMailJobId(response.body.id));
    expect(job?.data.mail).not.toHaveProperty('newsletterConsent');
  });

  it('records no consent when the box is sent unticked', async () => {
    const response = await post({ ...validEnquiry, newsletterConsent: false });

    expect(response.status).toBe(201);
    expect(await ContactModel.findById(response.body.id).lean()).not.toHaveProperty('consent');
    expect(await ContactAddressModel.findById(response.body.id).lean()).not.toHaveProperty(
      'consented',
    );
  });

  it.each([['true'], [1], ['yes'], [null], [{ $ne: false }]])(
    'refuses %j as the answer of the news box with a 400 naming it, and stores nothing',
    async (answer) => {
      const response = await post({ ...validEnquiry, newsletterConsent: answer });

      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: { newsletterConsent: 'Must be true or false' },
      });
      expect(await ContactModel.countDocuments()).toBe(0);
    },
  );

  it('takes the mail language from Accept-Language when the form sends none', async () => {
    const response = await post(validEnquiry).set('Accept-Language', 'ar, fr;q=0.5');

    expect(response.status).toBe(201);
    expect((await ContactModel.findById(response.body.id).lean())?.locale).toBe('ar');
  });

  it('drops fields the form does not have and trims text', async () => {
    const response = await post({
      ...validEnquiry,
      firstName: '  Amira  ',
      status: 'archived',
      isAdmin: true,
    });

    expect(response.status).toBe(201);
    const stored = await ContactModel.findById(response.body.id).lean();
    expect(stored?.firstName).toBe('Amira');
    expect(stored?.status).toBe('new');
    expect(stored).not.toHaveProperty('isAdmin');
  });

  it.each([
    ['firstName', { firstName: '' }, 'First name is required'],
    ['lastName', { lastName: '   ' }, 'Last name is required'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['email', { email: '.dot@example.tn' }, 'Please enter a valid email address'],
    ['email', { email: 'user.@example.tn' }, 'Please enter a valid email address'],
    ['email', { email: 'user@-example.tn' }, 'Please enter a valid email address'],
    ['service', { service: '' }, 'Please select a service'],
    ['service', { service: 'crypto-mining' }, 'Please select a service'],
    ['message', { message: 'Too short' }, 'Message must be at least 10 characters long'],
    ['firstName', { firstName: 42 }, 'Must be text'],
    ['phone', { phone: 'x'.repeat(41) }, 'Must be at most 40 characters long'],
    ['locale', { locale: 'de' }, 'Language must be one of en, fr, ar'],
  ])('refuses an invalid %s with its reason and stores nothing', async (field, change, reason) => {
    const response = await post({ ...validEnquiry, ...change });

    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid',
      fields: { [field]: reason },
    });
    expect(await ContactModel.countDocuments()).toBe(0);
  });

  it('reports every missing field at once', async () => {
    const response = await post({});

    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Please enter a valid email address',
      service: 'Please select a service',
      message: 'Message must be at least 10 characters long',
    });
  });

  it('answers in the language the browser asks for', async () => {
    const response = await post({ ...validEnquiry, firstName: '' }).set('Accept-Language', 'fr');

    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ firstName: 'Le prénom est obligatoire' });
  });

  it('refuses a NoSQL operator in place of a value', async () => {
    const response = await post({ ...validEnquiry, email: { $gt: '' } });

    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ email: 'Please enter a valid email address' });
    expect(await ContactModel.countDocuments()).toBe(0);
  });

  it('refuses a body over the size limit with 413 and stores nothing', async () => {
    const response = await post({ ...validEnquiry, message: 'x'.repeat(40 * 1024) });

    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await ContactModel.countDocuments()).toBe(0);
  });

  it('refuses malformed JSON with 400 and non-JSON bodies with 415', async () => {
    const malformed = await post('{"firstName": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'The request body is not valid JSON',
    });

    const form = await request(ctx.app.callback())
      .post('/api/contact')
      .type('form')
      .send('firstName=Amira');
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const array = await post('[1, 2]');
    expect(array.status).toBe(400);
    expect(await ContactModel.countDocuments()).toBe(0);
  });

  it('answers unknown routes with the JSON 404 error', async () => {
    const response = await request(ctx.app.callback()).get('/api/nothing-here');

    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      error: { code: 'NOT_FOUND', message: 'No route for GET /api/nothing-here' },
    });
    expect(response.headers['x-request-id']).toMatch(/^[\w-]+$/);
  });
});

describe('POST /api/contact rate limit', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ env: { CONTACT_RATE_LIMIT_MAX: '2' } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers 429 with Retry-After once an address has sent too many enquiries', async () => {
    const send = () => request(limited.app.callback()).post('/api/contact').send(validEnquiry);
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);

    const third = await send();
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('POST /api/contact while Redis is unreachable', () => {
  let offline: TestContext;
  beforeAll(async () => {
    // Nothing listens on port 1: the queue cannot be reached.
    offline = await createTestContext({ redisUrl: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => {
    await offline.close();
  });

  it('still stores the enquiry as pending, and the outbox relay enqueues it later', async () => {
    const response = await request(offline.app.callback()).post('/api/contact').send(validEnquiry);

    expect(response.status).toBe(201);
    expect(await ContactModel.findById(response.body.id).lean()).not.toBeNull();
    expect(await contactMailStatuses(String(response.body.id))).toEqual({
      notification: { state: 'pending' },
      acknowledgement: { state: 'pending' },
    });

    // Redis is back: the relay finds the owed mail and queues it exactly once.
    const liveQueues = createMailQueues(ctx.redis, offline.config.queuePrefix);
    try {
      const pass = () => relayOwedMail(liveQueues, { pendingAgeMs: 0 });
      expect(await pass()).toEqual({ contacts: 1, newsletterConfirmations: 0 });
      expect(await pass()).toEqual({ contacts: 1, newsletterConfirmations: 0 });
      expect(await liveQueues.contactMail.getJobCounts('waiting')).toEqual({ waiting: 1 });
      const job = await liveQueues.contactMail.getJob(contactMailJobId(response.body.id));
      expect(job?.data).toEqual({ contactId: response.body.id });
    } finally {
      await liveQueues.contactMail.obliterate({ force: true });
      await liveQueues.close();
    }
  });
});
