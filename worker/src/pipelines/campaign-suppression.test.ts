import { createHmac } from 'node:crypto';
import request from 'supertest';
import { pino } from 'pino';
import type { CampaignDto, CampaignRecipientDto, Page } from '@agency/contracts';
import {
  campaignReturnPath,
  createKeptCounts,
  createRedisConnection,
  legacyRecipientDigest,
  mailIdentityKey,
  normalizeEmail,
  saveTestRecipients,
} from '@agency/platform';
import { pollBounceMailbox } from '../bounces/bounce-mailbox';
import { startDovecot } from '../testing/dovecot';
import { postfixDsn, reportOnMany } from '../testing/dsn-messages';
import { importApi, type ImportApi } from '../testing/import-api';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

/**
 * Staff import a list, mail it, the provider reports bounces and a
 * complaint, and the next campaign to the same list skips exactly those
 * addresses: real API, queue, worker, MongoDB-wire store and SMTP server.
 */
const SECRET = 'generic-mail-events-secret-of-at-least-32-chars';
const PEOPLE = ['ada', 'grace', 'hedy', 'joan', 'katherine', 'margaret'].map(
  (name) => `${name}@guests.test`,
);

let ctx: PipelineContext;
let smtp: SmtpSink;
let api: ImportApi;

beforeAll(async () => {
  smtp = await startSmtpSink();
  ctx = await createPipelineContext({ env: { MAIL_EVENTS_GENERIC_SECRET: SECRET } });
  await ctx.startWorker({ smtpUrl: smtp.url });
  api = await importApi(ctx, 'sender');
}, 60_000);

afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

async function sendCampaign(listId: string, name: string): Promise<string> {
  const draft = await api.post('/api/admin/campaigns', {
    name,
    subject: `${name} for {{firstName}}`,
    content: '<p>Dear {{firstName}}, see you at the expo.</p>',
    recipientType: 'lists',
    listIds: [listId],
  });
  expect(draft.status).toBe(201);
  const id = draft.body.id as string;
  expect((await api.post(`/api/admin/campaigns/${id}/send`)).status).toBe(202);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { body } = await api.get(`/api/admin/campaigns/${id}`);
    if (['sent', 'failed'].includes((body as CampaignDto).status)) return id;
    if (Date.now() > deadline) throw new Error(`campaign ${name} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Who received the campaign whose subject starts with `name`. */
const recipientsOf = (name: string) =>
  smtp.received
    .filter(({ mail }) => mail.subject?.startsWith(name))
    .flatMap(({ envelopeTo }) => envelopeTo)
    .sort();

function messageIdFor(name: string, address: string): string {
  const found = smtp.received.find(
    ({ mail, envelopeTo }) => mail.subject?.startsWith(name) && envelopeTo.includes(address),
  );
  if (!found?.mail.messageId) throw new Error(`no mail of ${name} to ${address}`);
  return found.mail.messageId;
}

function postEvents(events: object[]) {
  const body = JSON.stringify({ events });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
  return request(ctx.app.callback())
    .post('/api/webhooks/mail-events/generic')
    .set('Content-Type', 'application/json')
    .set('X-Mail-Events-Signature', `t=${t},v1=${v1}`)
    .send(body);
}

describe('bounces and complaints stop the next send', () => {
  it('skips exactly the suppressed addresses, shows the events per recipient, and still sends a test', async () => {
    const list = await api.post('/api/admin/lists', { name: 'Expo guests' });
    const listId = list.body.id as string;
    const csv = ['email,first name', ...PEOPLE.map((email) => `${email},${email.split('@')[0]}`)];
    expect((await api.runImport(csv.join('\n'), listId)).counts.created).toBe(PEOPLE.length);

    const first = await sendCampaign(listId, 'Invitation');
    expect(recipientsOf('Invitation')).toEqual([...PEOPLE].sort());

    const events = await postEvents([
      {
        id: 'evt-1',
        type: 'bounce',
        bounceType: 'hard',
        email: 'ada@guests.test',
        messageId: messageIdFor('Invitation', 'ada@guests.test'),
        reason: '550 5.1.1 user unknown',
      },
      {
        id: 'evt-2',
        type: 'bounce',
        bounceType: 'hard',
        email: 'grace@guests.test',
        messageId: messageIdFor('Invitation', 'grace@guests.test'),
      },
      {
        id: 'evt-3',
        type: 'complaint',
        email: 'hedy@guests.test',
        messageId: messageIdFor('Invitation', 'hedy@guests.test'),
      },
      // One soft bounce is counted, not suppressed.
      {
        id: 'evt-4',
        type: 'bounce',
        bounceType: 'soft',
        email: 'joan@guests.test',
        messageId: messageIdFor('Invitation', 'joan@guests.test'),
      },
      { id: 'evt-5', type: 'delivered', email: 'margaret@guests.test' },
      // Signed by the provider, yet naming no mail of ours to Katherine: one
      // names none at all, one Ada's real mail, one the SHA-1 form of before.
      { id: 'evt-6', type: 'bounce', bounceType: 'hard', email: 'katherine@guests.test' },
      {
        id: 'evt-7',
        type: 'complaint',
        email: 'katherine@guests.test',
        messageId: messageIdFor('Invitation', 'ada@guests.test'),
      },
      {
        id: 'evt-8',
        type: 'bounce',
        bounceType: 'hard',
        email: 'katherine@guests.test',
        messageId: `<campaign-${first}-r1-${legacyRecipientDigest('katherine@guests.test')}@agency.test>`,
      },
    ]);
    expect(events.status).toBe(200);
    expect(events.body).toEqual({ recorded: 4, duplicates: 0, ignored: 1, unmatched: 3 });

    const sent = await api.get(`/api/admin/campaigns/${first}/recipients?state=sent&pageSize=100`);
    const lines = (sent.body as Page<CampaignRecipientDto>).items;
    const eventOf = (email: string) => lines.find((line) => line.email === email)?.mailEvent;
    expect(eventOf('ada@guests.test')).toMatchObject({
      kind: 'hard-bounce',
      provider: 'generic',
      detail: '550 5.1.1 user unknown',
    });
    expect(eventOf('hedy@guests.test')).toMatchObject({ kind: 'complaint' });
    expect(eventOf('joan@guests.test')).toMatchObject({ kind: 'soft-bounce' });
    expect(eventOf('katherine@guests.test')).toBeNull();

    const audience = await api.get(`/api/admin/campaigns/audience?listIds=${listId}`);
    expect(audience.body.lists).toBe(PEOPLE.length - 3);
    expect(eventOf('katherine@guests.test')).toBeNull();
    await sendCampaign(listId, 'Reminder');
    expect(recipientsOf('Reminder')).toEqual(
      ['joan@guests.test', 'katherine@guests.test', 'margaret@guests.test'].sort(),
    );

    // A test is refused for the suppressed address, allowed or not, and goes
    // to an allowed one that is not.
    await saveTestRecipients(['@guests.test'], 'an admin');
    const refused = await api.post(`/api/admin/campaigns/${first}/test`, {
      email: 'ada@guests.test',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({
      email: 'This address is on the suppression list: no mail goes to it',
    });
    const test = await api.post(`/api/admin/campaigns/${first}/test`, {
      email: 'joan@guests.test',
    });
    expect(test.status).toBe(202);
    const testMail = await smtp.waitFor(
      ({ mail, envelopeTo }) =>
        Boolean(mail.subject?.startsWith('[Test]')) && envelopeTo.includes('joan@guests.test'),
      30_000,
    );
    expect(testMail.mail.subject).toMatch(/^\[Test\] Invitation/);
    const testsToAda = smtp.received.filter(
      ({ mail, envelopeTo }) =>
        Boolean(mail.subject?.startsWith('[Test]')) && envelopeTo.includes('ada@guests.test'),
    );
    expect(testsToAda).toEqual([]);
  }, 180_000);
});

describe('bounces returned by mail stop the next send', () => {
  it('reads the reports from the bounce mailbox, shows them per recipient, and skips the hard bounce', async () => {
    const guests = ['ines', 'lotfi', 'mona'].map((name) => `${name}@expo.test`);
    const list = await api.post('/api/admin/lists', { name: 'Expo exhibitors' });
    const listId = list.body.id as string;
    const csv = ['email', ...guests];
    expect((await api.runImport(csv.join('\n'), listId)).counts.created).toBe(guests.length);
    const first = await sendCampaign(listId, 'Launch');
    expect(recipientsOf('Launch')).toEqual(guests);

    const dovecot = await startDovecot();
    const connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
    try {
      const client = await dovecot.client();
      // The receiving server quotes the mail the worker really sent.
      await client.append(
        'INBOX',
        postfixDsn({
          id: 'launch-1@mx.expo.test',
          recipient: 'ines@expo.test',
          action: 'failed',
          status: '5.1.1',
          diagnostic: '550 5.1.1 <ines@expo.test>: Recipient address rejected',
          returnedTo: 'news@agency.test',
          originalMessageId: messageIdFor('Launch', 'ines@expo.test'),
        }),
      );
      // Forged: Ines's real mail named for Mona, and Mona's SHA-1 form of before.
      await client.append(
        'INBOX',
        reportOnMany({
          id: 'forged@attacker.example',
          recipients: ['mona@expo.test'],
          status: '5.1.1',
          references: [
            messageIdFor('Launch', 'ines@expo.test'),
            `<campaign-${first}-r1-${legacyRecipientDigest('mona@expo.test')}@agency.test>`,
          ],
          returnedTo: 'bounces@agency.test',
        }),
      );
      // This one quotes no Message-ID: the per-recipient return path names the mail.
      await client.append(
        'INBOX',
        postfixDsn({
          id: 'launch-2@mx.expo.test',
          recipient: 'lotfi@expo.test',
          action: 'delayed',
          status: '4.2.2',
          diagnostic: '452 4.2.2 Mailbox full',
          returnedTo: campaignReturnPath(
            mailIdentityKey(ctx.config.mailLinkSecret),
            'bounces@agency.test',
            first,
            1,
            normalizeEmail('lotfi@expo.test'),
          ),
        }),
      );
      await client.logout();
      const pass = await pollBounceMailbox({
        settings: dovecot.settings,
        changes: createKeptCounts(connection, {
          prefix: ctx.config.queuePrefix,
          timeZone: ctx.config.timeZone,
          logger: pino({ level: 'silent' }),
        }).subscriberChanges,
        identityKey: mailIdentityKey(ctx.config.mailLinkSecret),
        logger: pino({ level: 'silent' }),
      });
      expect(pass).toMatchObject({ read: 3, reports: 2, recorded: 2, unmatched: 1 });
    } finally {
      connection.disconnect();
      await dovecot.close();
    }

    const sent = await api.get(`/api/admin/campaigns/${first}/recipients?state=sent&pageSize=100`);
    const lines = (sent.body as Page<CampaignRecipientDto>).items;
    const eventOf = (email: string) => lines.find((line) => line.email === email)?.mailEvent;
    expect(eventOf('ines@expo.test')).toMatchObject({
      kind: 'hard-bounce',
      provider: 'dsn',
      detail: '550 5.1.1 <ines@expo.test>: Recipient address rejected',
    });
    expect(eventOf('lotfi@expo.test')).toMatchObject({ kind: 'soft-bounce', provider: 'dsn' });
    expect(eventOf('mona@expo.test')).toBeNull();

    await sendCampaign(listId, 'Follow-up');
    expect(recipientsOf('Follow-up')).toEqual(['lotfi@expo.test', 'mona@expo.test']);
  }, 180_000);
});
