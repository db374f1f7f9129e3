import request from 'supertest';
import type { QueueEvents } from 'bullmq';
import { QUEUE_NAMES, newsletterConfirmationJobId } from '@agency/contracts';
import { findSubscriberByEmail, verifyManageToken } from '@agency/platform';
import {
  ListMemberModel,
  MailingListModel,
  PersonModel,
} from '@agency/platform/testing/audience-models';
import { SITE_URL, createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../testing/smtp-sink';

/** The confirmation link's token in the mail's HTML part. */
function confirmationToken(mail: ReceivedMail): string {
  const match = /<a href="([^"]+)">/.exec(String(mail.mail.html));
  const token = match?.[1]
    ? new URL(match[1].replace(/&amp;/g, '&')).searchParams.get('token')
    : null;
  if (!token) throw new Error(`no confirmation link in ${String(mail.mail.html)}`);
  return token;
}

async function publicList(name: string, isPublic = true): Promise<string> {
  const list = await MailingListModel.create({
    name,
    public: isPublic,
    localized: { en: { name }, fr: { name }, ar: { name } },
  });
  return String(list._id);
}

describe('newsletter sign-up with public lists: one mail confirms them all', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let events: QueueEvents;
  const api = () => request(ctx.app.callback());

  async function confirmationSent(email: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const subscriber = await findSubscriberByEmail(email);
      const job = subscriber
        ? await ctx.queues.newsletterConfirmation.getJob(
            newsletterConfirmationJobId(subscriber.id as string, 1),
          )
        : undefined;
      if (job) {
        await job.waitUntilFinished(events, 20_000);
        return;
      }
      if (Date.now() > deadline) throw new Error(`no confirmation job for ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createPipelineContext();
    events = await ctx.queueEvents(QUEUE_NAMES.newsletterConfirmation);
    await ctx.startWorker({ smtpUrl: smtp.url });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('records the chosen lists, sends one mail, and joins every list on the click', async () => {
    const news = await publicList('Agency news');
    const events2026 = await publicList('Events 2026');
    const email = 'lina@example.tn';
    const response = await api()
      .post('/api/newsletter')
      .send({ email: 'Lina@Example.tn', locale: 'fr', listIds: [news, events2026, news] });
    expect(response.status).toBe(202);
    await confirmationSent(email);

    const pending = await findSubscriberByEmail(email);
    expect(pending?.consent?.listIds).toEqual([news, events2026]);
    expect(await ListMemberModel.countDocuments({ key: email })).toBe(0);
    const mails = smtp.received.filter(({ envelopeTo }) => envelopeTo.includes(email));
    expect(mails).toHaveLength(1);

    const confirmed = await api()
      .post('/api/newsletter/confirm')
      .send({ token: confirmationToken(mails[0] as ReceivedMail) });
    expect(confirmed.status).toBe(200);
    const members = await ListMemberModel.find({ key: email }).sort({ list: 1 }).lean();
    expect(members.map((member) => String(member.list)).sort()).toEqual([news, events2026].sort());
    for (const member of members) {
      expect(member).toMatchObject({ locale: 'fr', consent: { basis: 'sign-up' } });
      expect(member.consent.at.getTime()).toBeGreaterThan(0);
    }
    for (const id of [news, events2026]) {
      expect((await MailingListModel.findById(id).lean())?.memberCount).toBe(1);
    }
    // The people view knows the lists through the audience's commands.
    const person = await PersonModel.findById(email).lean();
    expect([...(person?.listIds ?? [])].sort()).toEqual([news, events2026].sort());

    // A second click confirms nothing more and joins nothing twice.
    await api()
      .post('/api/newsletter/confirm')
      .send({ token: confirmationToken(mails[0] as ReceivedMail) })
      .expect(200);
    expect(await ListMemberModel.countDocuments({ key: email })).toBe(2);
    expect(smtp.received.filter(({ envelopeTo }) => envelopeTo.includes(email))).toHaveLength(1);
  });

  it("carries a manage link beside the unsubscribe link, whose token opens the person's preferences", async () => {
    const news = await publicList('Monthly');
    const email = 'hedi@example.tn';
    await api()
      .post('/api/newsletter')
      .send({ email, locale: 'ar', listIds: [news] })
      .expect(202);
    await confirmationSent(email);
    const mail = smtp.received.find(({ envelopeTo }) => envelopeTo.includes(email)) as ReceivedMail;
    const match = /<a href="([^"]+)">إدارة اشتراكك<\/a>/.exec(String(mail.mail.html));
    if (!match?.[1]) throw new Error(`no manage link in ${String(mail.mail.html)}`);
    const manage = new URL(match[1].replace(/&amp;/g, '&'));
    // At the page's Arabic address, so the whole site opens in Arabic.
    expect(`${manage.origin}${manage.pathname}`).toBe(`${SITE_URL}/ar/newsletter/preferences`);
    expect(manage.searchParams.get('lang')).toBe('ar');
    expect(mail.mail.text).toContain(`إدارة اشتراكك: ${manage.toString()}`);
    expect(
      verifyManageToken(manage.searchParams.get('token') ?? '', ctx.config.mailLinkSecret),
    ).toEqual({
      outcome: 'valid',
      email,
    });

    const read = await api()
      .post('/api/newsletter/preferences')
      .send({ token: manage.searchParams.get('token') });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ email, locale: 'ar', subscription: 'pending' });
  });

  it('refuses a list that is not public with the field, and records nothing', async () => {
    const staffOnly = await publicList('Staff only', false);
    const refused = await api()
      .post('/api/newsletter')
      .send({ email: 'sly@example.tn', listIds: [staffOnly] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({ listIds: 'Choose among the lists offered' });
    const malformed = await api()
      .post('/api/newsletter')
      .send({ email: 'sly@example.tn', listIds: ['not-an-id'] });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.error.fields)).toEqual(['listIds[0]']);
    expect(await findSubscriberByEmail('sly@example.tn')).toBeNull();
  });

  it('skips a list made private between the request and the click', async () => {
    const kept = await publicList('Kept');
    const closed = await publicList('Closed later');
    const email = 'omar@example.tn';
    await api()
      .post('/api/newsletter')
      .send({ email, locale: 'ar', listIds: [kept, closed] })
      .expect(202);
    await confirmationSent(email);
    await MailingListModel.updateOne({ _id: closed }, { $set: { public: false } });
    const mail = smtp.received.find(({ envelopeTo }) => envelopeTo.includes(email));
    await api()
      .post('/api/newsletter/confirm')
      .send({ token: confirmationToken(mail as ReceivedMail) })
      .expect(200);
    const members = await ListMemberModel.find({ key: email }).lean();
    expect(members.map((member) => String(member.list))).toEqual([kept]);
  });
});
