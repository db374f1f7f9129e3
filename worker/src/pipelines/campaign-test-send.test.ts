import request from 'supertest';
import { Queue } from 'bullmq';
import { QUEUE_NAMES } from '@agency/contracts';
import { createUser } from '@agency/backend';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

/**
 * Campaign test sends from the API's call to the SMTP server, on real
 * services: whom they reach, and how many one user can make.
 */
jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery staple';
const OUTSIDE = 'Test mail goes only to staff addresses or to addresses an admin allows';

let ctx: PipelineContext;
let smtp: SmtpSink;
let testQueue: Queue;

beforeAll(async () => {
  smtp = await startSmtpSink();
  ctx = await createPipelineContext({ env: { TWO_FACTOR_REQUIRED_ROLES: 'none' } });
  testQueue = new Queue(QUEUE_NAMES.campaignTestSend, {
    connection: { host: new URL(ctx.config.redisUrl).hostname, port: portOf(ctx.config.redisUrl) },
    prefix: ctx.config.queuePrefix,
  });
  await ctx.startWorker({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await testQueue.obliterate({ force: true });
  await testQueue.close();
  await ctx.close();
  await smtp.close();
});

function portOf(url: string): number {
  return Number(new URL(url).port || 6379);
}

/** A staff member of `role` (address `<username>@agency.test`), signed in through the API. */
async function staff(username: string, role: 'admin' | 'manager') {
  await createUser({ username, email: `${username}@agency.test`, role, password: PASSWORD });
  const login = await request(ctx.app.callback())
    .post('/api/admin/login')
    .send({ username, password: PASSWORD });
  const token = login.body.token as string;
  const send = (method: 'post' | 'put', path: string, body: object) =>
    request(ctx.app.callback())[method](path).set('Authorization', `Bearer ${token}`).send(body);
  return { email: `${username}@agency.test`, send };
}

async function draftBy(sender: Awaited<ReturnType<typeof staff>>): Promise<string> {
  const draft = await sender.send('post', '/api/admin/campaigns', {
    name: 'Spring offer',
    subject: 'Our spring packages',
    content: '<p>Discover our packs.</p>',
    recipientType: 'subscribers',
  });
  return draft.body.id as string;
}

/** Resolves once the worker has settled every test send queued so far. */
async function testSendsSettled(timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const counts = await testQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (Object.values(counts).every((count) => count === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('test sends still queued');
}

const mailsTo = (address: string) =>
  smtp.received.filter(({ envelopeTo }) => envelopeTo.includes(address));

it('mails a staff address and an allowed one, and nothing to an outside address', async () => {
  const admin = await staff('rim', 'admin');
  const sender = await staff('salma', 'manager');
  expect(
    (
      await admin.send('put', '/api/admin/settings/test-recipients', {
        entries: ['ceo@client.tn'],
      })
    ).status,
  ).toBe(200);
  const id = await draftBy(sender);
  const test = (email: string) => sender.send('post', `/api/admin/campaigns/${id}/test`, { email });

  const outside = await test('stranger@gmail.com');
  expect(outside.status).toBe(400);
  expect(outside.body.error.fields).toEqual({ email: OUTSIDE });
  expect((await test(admin.email)).status).toBe(202);
  expect((await test('ceo@client.tn')).status).toBe(202);

  await smtp.waitForCount(2);
  await testSendsSettled();
  expect(smtp.received.flatMap(({ envelopeTo }) => envelopeTo).sort()).toEqual([
    'ceo@client.tn',
    admin.email,
  ]);
  expect(smtp.received.every(({ mail }) => mail.subject === '[Test] Our spring packages')).toBe(
    true,
  );
  expect(mailsTo('stranger@gmail.com')).toEqual([]);
});

it('sends at most 20 of 30 parallel calls by one user', async () => {
  const sender = await staff('karim', 'manager');
  const id = await draftBy(sender);
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      sender.send('post', `/api/admin/campaigns/${id}/test`, { email: sender.email }),
    ),
  );
  const accepted = answers.filter(({ status }) => status === 202).length;
  expect(accepted).toBe(20);
  expect(answers.filter(({ status }) => status === 429)).toHaveLength(10);

  await smtp.waitForCount(20, ({ envelopeTo }) => envelopeTo.includes(sender.email));
  await testSendsSettled();
  expect(mailsTo(sender.email)).toHaveLength(20);
});
