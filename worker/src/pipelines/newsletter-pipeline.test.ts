import request from 'supertest';
import type { QueueEvents } from 'bullmq';
import { QUEUE_NAMES, newsletterConfirmationJobId } from '@agency/contracts';
import { findSubscriberByEmail } from '@agency/platform';
import { SITE_URL, createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../testing/smtp-sink';
import { confirmationMailState } from '../testing/mail-states';

const ACCEPTED = { status: 'accepted' };

/** The link whose visible text is `label` in the mail's HTML part. */
function linkNamed(mail: ReceivedMail, label: string): URL {
  const match = new RegExp(`<a href="([^"]+)">${label}</a>`).exec(String(mail.mail.html));
  if (!match?.[1]) throw new Error(`no "${label}" link in ${String(mail.mail.html)}`);
  return new URL(match[1].replace(/&amp;/g, '&'));
}

/** A header exactly as it was on the wire, unfolded. */
function header(mail: ReceivedMail, name: string): string | undefined {
  const line = mail.mail.headerLines.find(({ key }) => key === name)?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r\n[ \t]+/g, ' ')
    .trim();
}

describe('newsletter: subscribe -> confirmation mail -> confirm -> unsubscribe', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let events: QueueEvents;

  const api = () => request(ctx.app.callback());
  const subscribe = (email: string, locale: string) =>
    api().post('/api/newsletter').send({ email, locale });

  /**
   * Waits until the confirmation job of the address's `request`-th
   * subscription has finished. The worker records the request first, so the
   * subscriber and the job appear a moment after the API's answer.
   */
  async function confirmationSettled(email: string, requestNumber: number): Promise<unknown> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const subscriber = await findSubscriberByEmail(email);
      const jobId = subscriber
        ? newsletterConfirmationJobId(subscriber.id as string, requestNumber)
        : undefined;
      const job = jobId ? await ctx.queues.newsletterConfirmation.getJob(jobId) : undefined;
      if (job) return job.waitUntilFinished(events, 20_000);
      if (Date.now() > deadline)
        throw new Error(`no confirmation job ${requestNumber} for ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeEach(async () => {
    smtp = await startSmtpSink();
    ctx = await createPipelineContext();
    events = await ctx.queueEvents(QUEUE_NAMES.newsletterConfirmation);
    await ctx.startWorker({ smtpUrl: smtp.url });
  });
  afterEach(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('mails a confirmation in the visitor language whose link confirms the subscription', async () => {
    const email = 'amel@example.tn';
    const response = await subscribe(email, 'fr');
    expect(response.status).toBe(202);
    expect(response.body).toEqual(ACCEPTED);

    expect(await confirmationSettled(email, 1)).toBe('sent');
    const mail = await smtp.waitFor(({ envelopeTo }) => envelopeTo.includes(email));
    expect(mail.mail.subject).toBe('Confirmez votre inscription à la newsletter');
    expect(mail.mail.html).toContain('<html lang="fr" dir="ltr">');
    expect(mail.mail.text).toContain('Ce lien est valable 7 jours.');

    const link = linkNamed(mail, 'Confirmer mon inscription');
    expect(`${link.origin}${link.pathname}`).toBe(`${SITE_URL}/newsletter/confirm`);
    expect(link.searchParams.get('lang')).toBe('fr');
    // The page posts the link's token to the API.
    const confirmed = await api()
      .post('/api/newsletter/confirm')
      .send({ token: link.searchParams.get('token') });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ status: 'confirmed', locale: 'fr' });
    expect(await findSubscriberByEmail(email)).toMatchObject({ status: 'confirmed' });
    expect(await confirmationMailState(email)).toEqual({ mailState: 'sent' });
  });

  it('carries the List-Unsubscribe headers, whose one-click POST unsubscribes at once', async () => {
    const email = 'karim@example.tn';
    await subscribe(email, 'ar');
    await confirmationSettled(email, 1);
    const mail = await smtp.waitFor(({ envelopeTo }) => envelopeTo.includes(email));
    expect(mail.mail.html).toContain('<html lang="ar" dir="rtl">');

    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const listUnsubscribe = /^<([^>]+)>$/.exec(header(mail, 'list-unsubscribe') ?? '')?.[1];
    if (!listUnsubscribe)
      throw new Error(`bad List-Unsubscribe: ${String(header(mail, 'list-unsubscribe'))}`);
    const oneClick = new URL(listUnsubscribe);
    expect(`${oneClick.origin}${oneClick.pathname}`).toBe(`${SITE_URL}/api/newsletter/unsubscribe`);

    // What a mailbox provider does on "unsubscribe" (RFC 8058).
    const response = await api()
      .post(`${oneClick.pathname}${oneClick.search}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(response.status).toBe(200);
    expect(await findSubscriberByEmail(email)).toMatchObject({
      status: 'unsubscribed',
      unsubscribeMethod: 'one-click',
    });
  });

  it("unsubscribes through the footer link's page, whose button posts the token", async () => {
    const email = 'sonia@example.tn';
    await subscribe(email, 'en');
    await confirmationSettled(email, 1);
    const mail = await smtp.waitFor(({ envelopeTo }) => envelopeTo.includes(email));

    const page = linkNamed(mail, 'Unsubscribe');
    expect(`${page.origin}${page.pathname}`).toBe(`${SITE_URL}/newsletter/unsubscribe`);
    expect(page.searchParams.get('lang')).toBe('en');
    const response = await api()
      .post('/api/newsletter/unsubscribe')
      .send({ token: page.searchParams.get('token') });
    expect(response.status).toBe(200);
    expect(await findSubscriberByEmail(email)).toMatchObject({
      status: 'unsubscribed',
      unsubscribeMethod: 'page',
    });
  });

  it('mails again when asked again while pending, and never once confirmed', async () => {
    const email = 'twice@example.tn';
    await subscribe(email, 'en');
    expect(await confirmationSettled(email, 1)).toBe('sent');
    const again = await subscribe(email, 'en');
    expect(again.body).toEqual(ACCEPTED);
    expect(await confirmationSettled(email, 2)).toBe('sent');
    const mails = await smtp.waitForCount(2, ({ envelopeTo }) => envelopeTo.includes(email));

    // The first mail's link still works after the second was sent.
    const firstLink = linkNamed(mails[0] as ReceivedMail, 'Confirm my subscription');
    const confirmed = await api()
      .post('/api/newsletter/confirm')
      .send({ token: firstLink.searchParams.get('token') });
    expect(confirmed.status).toBe(200);

    const afterConfirming = await subscribe(email, 'en');
    expect(afterConfirming.status).toBe(202);
    expect(afterConfirming.body).toEqual(ACCEPTED);
    const subscriber = await findSubscriberByEmail(email);
    expect(subscriber?.confirmationRequests).toBe(2);
    expect(
      await ctx.queues.newsletterConfirmation.getJob(
        newsletterConfirmationJobId(subscriber?.id as string, 3),
      ),
    ).toBeUndefined();
    expect(smtp.received.filter(({ envelopeTo }) => envelopeTo.includes(email))).toHaveLength(2);
  });
});
