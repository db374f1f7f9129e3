import request from 'supertest';
import type { PersonDataExportDto, PrivacyLinkPurpose } from '@agency/contracts';
import { signManageToken } from '@agency/platform';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { SITE_URL, createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../testing/smtp-sink';

/**
 * A person's own download and erasure, from the preference page's request
 * through the queue and the worker to the mail in their language, then the
 * mailed link used through the API, down to the erasure's confirmation mail.
 */
const EMAIL = 'ines@example.tn';

let ctx: PipelineContext;
let smtp: SmtpSink;
const api = () => request(ctx.app.callback());

beforeAll(async () => {
  smtp = await startSmtpSink();
  ctx = await createPipelineContext();
  await ctx.startWorker({ smtpUrl: smtp.url });
  await SubscriberModel.create({
    email: EMAIL,
    status: 'confirmed',
    locale: 'fr',
    confirmedAt: new Date(),
  });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const manageToken = () => signManageToken(EMAIL, ctx.config.mailLinkSecret);

function linkIn(mail: ReceivedMail): URL {
  const match = /<a href="([^"]+)">/.exec(String(mail.mail.html));
  if (!match?.[1]) throw new Error(`no link in ${String(mail.mail.html)}`);
  return new URL(match[1].replace(/&amp;/g, '&'));
}

/** Asks for a link as the preference page does, and answers the mail that brings it. */
async function mailedLink(purpose: PrivacyLinkPurpose, subject: string): Promise<URL> {
  const asked = await api()
    .post('/api/newsletter/preferences/privacy-link')
    .send({ token: manageToken(), purpose });
  expect(asked.status).toBe(202);
  const mail = await smtp.waitFor((received) => received.mail.subject === subject, 20_000);
  expect(mail.envelopeTo).toEqual([EMAIL]);
  expect(mail.mail.text).toContain('24 heures');
  return linkIn(mail);
}

it('mails a French download link that gives the person’s data once', async () => {
  const link = await mailedLink('download', 'Téléchargez vos données');
  expect(`${link.origin}${link.pathname}`).toBe(`${SITE_URL}/newsletter/privacy/download`);
  expect(link.searchParams.get('lang')).toBe('fr');
  const token = link.searchParams.get('token') ?? '';
  const data = await api().post('/api/newsletter/privacy-link/download').send({ token });
  expect(data.status).toBe(200);
  expect(JSON.parse(data.text) as PersonDataExportDto).toMatchObject({
    email: EMAIL,
    subscription: { status: 'confirmed', locale: 'fr' },
  });
  expect((await api().post('/api/newsletter/privacy-link/download').send({ token })).status).toBe(
    410,
  );
}, 30_000);

it('mails a French erasure link whose confirmation erases the person and mails them so', async () => {
  const link = await mailedLink('erasure', "Confirmez l'effacement de vos données");
  expect(`${link.origin}${link.pathname}`).toBe(`${SITE_URL}/newsletter/privacy/erase`);
  const token = link.searchParams.get('token') ?? '';
  const started = await api().post('/api/newsletter/privacy-link/erasure').send({ token });
  expect(started.status).toBe(202);
  const done = await smtp.waitFor(
    (received) => received.mail.subject === 'Vos données ont été effacées',
    30_000,
  );
  expect(done.envelopeTo).toEqual([EMAIL]);
  expect(await SubscriberModel.countDocuments({ email: EMAIL })).toBe(0);
  const page = await api().post('/api/newsletter/preferences').send({ token: manageToken() });
  expect(page.body).toMatchObject({ email: EMAIL, subscription: null });
}, 45_000);
