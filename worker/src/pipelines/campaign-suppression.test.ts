import { createHmac } from 'node:crypto';
import request from 'supertest';
import type { CampaignDto, CampaignRecipientDto, Page } from '@agency/contracts';
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
    ]);
    expect(events.status).toBe(200);
    expect(events.body).toEqual({ recorded: 4, duplicates: 0, ignored: 1 });

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
    await sendCampaign(listId, 'Reminder');
    expect(recipientsOf('Reminder')).toEqual(
      ['joan@guests.test', 'katherine@guests.test', 'margaret@guests.test'].sort(),
    );

    // A test send to a suppressed staff address still goes out.
    const test = await api.post(`/api/admin/campaigns/${first}/test`, {
      email: 'ada@guests.test',
    });
    expect(test.status).toBe(202);
    const testMail = await smtp.waitFor(
      ({ mail, envelopeTo }) =>
        Boolean(mail.subject?.startsWith('[Test]')) && envelopeTo.includes('ada@guests.test'),
      30_000,
    );
    expect(testMail.mail.subject).toMatch(/^\[Test\] Invitation/);
  }, 180_000);
});
