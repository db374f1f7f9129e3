import request from 'supertest';
import type { QueueEvents } from 'bullmq';
import { QUEUE_NAMES, passwordResetJobId } from '@agency/contracts';
import { createUser } from '@agency/backend';
import { PasswordResetModel } from '@agency/platform/testing/password-reset-models';
import { SITE_URL, createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../testing/smtp-sink';

const OLD_PASSWORD = 'the old passphrase here';
const NEW_PASSWORD = 'a fresh passphrase now';

function resetLink(mail: ReceivedMail): URL {
  const match = /<a href="([^"]+)">/.exec(String(mail.mail.html));
  if (!match?.[1]) throw new Error(`no link in ${String(mail.mail.html)}`);
  return new URL(match[1].replace(/&amp;/g, '&'));
}

describe('forgot password: request -> mail through the queue -> new password', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let events: QueueEvents;
  const api = () => request(ctx.app.callback());

  /** The reset job of the request stored last, once the worker has finished it. */
  async function lastRequestSettled(): Promise<unknown> {
    const [latest] = await PasswordResetModel.find({}).sort({ requestedAt: -1 }).limit(1).lean();
    if (!latest) throw new Error('no reset request stored');
    const queued = await ctx.passwordResetQueue.getJob(passwordResetJobId(String(latest._id)));
    if (!queued) throw new Error('no reset job');
    return queued.waitUntilFinished(events, 20_000);
  }

  beforeEach(async () => {
    smtp = await startSmtpSink();
    ctx = await createPipelineContext();
    events = await ctx.queueEvents(QUEUE_NAMES.passwordReset);
    await ctx.startWorker({ smtpUrl: smtp.url });
  });
  afterEach(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('mails a staff member a localised single-use link that sets the password and ends every session', async () => {
    await createUser({
      username: 'salma',
      email: 'salma@agency.tn',
      role: 'editor',
      password: OLD_PASSWORD,
    });
    const signIn = (password: string) =>
      api().post('/api/admin/login').send({ username: 'salma', password });
    const session = (await signIn(OLD_PASSWORD)).body.token as string;

    const asked = await api()
      .post('/api/admin/password-reset')
      .send({ email: 'Salma@Agency.tn', locale: 'fr' });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ status: 'accepted' });
    expect(await lastRequestSettled()).toBe('sent');

    const mail = await smtp.waitFor((received) => received.envelopeTo.includes('salma@agency.tn'));
    expect(mail.mail.subject).toBe('Réinitialisez votre mot de passe');
    expect(mail.mail.text).toContain('30 minutes');
    const link = resetLink(mail);
    expect(`${link.origin}${link.pathname}`).toBe(`${SITE_URL}/admin/reset-password`);
    expect(link.searchParams.get('lang')).toBe('fr');
    const token = link.searchParams.get('token') ?? '';
    // Only the token's hash is stored.
    expect(JSON.stringify(await PasswordResetModel.find({}).lean())).not.toContain(token);

    const reset = await api()
      .post('/api/admin/password-reset/confirm')
      .send({ token, newPassword: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ status: 'reset' });

    const me = await api().get('/api/admin/me').set('Authorization', `Bearer ${session}`);
    expect(me.status).toBe(401);
    expect((await signIn(OLD_PASSWORD)).status).toBe(401);
    expect((await signIn(NEW_PASSWORD)).status).toBe(200);

    const again = await api()
      .post('/api/admin/password-reset/confirm')
      .send({ token, newPassword: 'yet another passphrase' });
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe('LINK_EXPIRED');
  });

  it('answers an address of nobody the same, stores it the same, and mails nothing', async () => {
    const asked = await api().post('/api/admin/password-reset').send({ email: 'ghost@agency.tn' });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ status: 'accepted' });
    expect(await lastRequestSettled()).toBe('no such staff member');
    expect(smtp.received).toHaveLength(0);
    const [stored] = await PasswordResetModel.find({ email: 'ghost@agency.tn' }).lean();
    expect(stored).toMatchObject({ userId: null, tokenHash: null });
  });

  it('refuses a link past its 30 minutes', async () => {
    await createUser({
      username: 'late',
      email: 'late@agency.tn',
      role: 'viewer',
      password: OLD_PASSWORD,
    });
    await api().post('/api/admin/password-reset').send({ email: 'late@agency.tn' });
    expect(await lastRequestSettled()).toBe('sent');
    const mail = await smtp.waitFor((received) => received.envelopeTo.includes('late@agency.tn'));
    expect(mail.mail.subject).toBe('Reset your password');
    await PasswordResetModel.updateMany({}, { $set: { expiresAt: new Date(Date.now() - 1000) } });

    const response = await api()
      .post('/api/admin/password-reset/confirm')
      .send({ token: resetLink(mail).searchParams.get('token'), newPassword: NEW_PASSWORD });
    expect(response.status).toBe(410);
  });
});
