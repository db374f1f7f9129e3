import mongoose, { trusted } from 'mongoose';
import request from 'supertest';
import {
  ConfigError,
  campaignMessageId,
  connectDatabase,
  disconnectDatabase,
  mailIdentityKey,
} from '@agency/platform';
import { MailEventModel, SuppressionModel } from '@agency/platform/testing/audience-models';
import { recordSentRound } from '@agency/platform/testing/sent-rounds';
import { TEST_SECRETS } from '@agency/platform/testing/test-secrets';
import { loadApiConfig } from '../../config';
import {
  SES_TOPIC,
  genericSignature,
  mailgunSignature,
  nowSeconds,
  startMailEventWebhooks,
  type MailEventWebhooks,
} from '../../testing/mail-event-webhooks';
import { createTestContext } from '../../testing/test-context';

/*
 * What a signature must be bound to before its events count: a fresh
 * timestamp, a Mailgun token used once, a body of bounded size, and a body
 * that validation reads without crashing.
 */

const TOLERANCE = 120;

let hooks: MailEventWebhooks;

beforeAll(async () => {
  hooks = await startMailEventWebhooks({ MAIL_EVENTS_TOLERANCE_SECONDS: String(TOLERANCE) });
});

afterAll(() => hooks.close());

const post = (provider: string) => hooks.post(provider);

async function nothingRecordedFor(...emails: string[]): Promise<void> {
  expect(await MailEventModel.countDocuments({ key: trusted({ $in: emails }) })).toBe(0);
  expect(await SuppressionModel.countDocuments({ _id: trusted({ $in: emails }) })).toBe(0);
}

/* ---------------------------------------------------------------- fixtures */

const mailgunSigned = (timestamp: string, token: string) =>
  mailgunSignature(timestamp, token, hooks.secrets.mailgun);

let tokens = 0;
const freshToken = () => `guards-token-${(tokens += 1)}-${Math.random().toString(36).slice(2)}`;

const sesBounce = (feedbackId: string, email: string) =>
  JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      feedbackId,
      bouncedRecipients: [{ emailAddress: email }],
    },
    mail: { messageId: 'ses-guards', source: 'no-reply@agency.test' },
  });

const postSns = (message: Record<string, string>) =>
  post('ses').set('Content-Type', 'text/plain; charset=UTF-8').send(JSON.stringify(message));

/* ---------------------------------------------------------------- Mailgun tokens */

describe('a Mailgun signature is one delivery', () => {
  it('refuses a delivered event’s signature reused with event-data claiming bounces and a complaint, and records nothing', async () => {
    const signature = mailgunSigned(String(nowSeconds()), freshToken());
    const delivered = await post('mailgun').send({
      signature,
      'event-data': { id: 'mg-delivered', event: 'delivered', recipient: 'seen@example.tn' },
    });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toEqual({ recorded: 0, duplicates: 0, ignored: 1, unmatched: 0 });

    const forged = [
      { id: 'forged-1', event: 'failed', severity: 'permanent', recipient: 'victim1@example.tn' },
      { id: 'forged-2', event: 'failed', severity: 'permanent', recipient: 'victim2@example.tn' },
      { id: 'forged-3', event: 'complained', recipient: 'victim3@example.tn' },
    ];
    for (const eventData of forged) {
      const replay = await post('mailgun').send({ signature, 'event-data': eventData });
      expect(replay.status).toBe(409);
      expect(replay.body.error).toEqual({
        code: 'CONFLICT',
        message: 'This signature token was already used: each signed delivery is taken once',
      });
    }
    await nothingRecordedFor('victim1@example.tn', 'victim2@example.tn', 'victim3@example.tn');
    expect(
      await MailEventModel.exists({
        _id: trusted({ $in: ['mailgun:forged-1', 'mailgun:forged-2', 'mailgun:forged-3'] }),
      }),
    ).toBeNull();
  });

  it('remembers a token in Redis until its timestamp leaves the tolerance, and no longer', async () => {
    const timestamp = nowSeconds() - 30;
    const response = await post('mailgun').send({
      signature: mailgunSigned(String(timestamp), freshToken()),
      'event-data': { id: 'mg-ttl', event: 'delivered', recipient: 'ttl@example.tn' },
    });
    expect(response.status).toBe(200);
    const keys = await hooks.ctx.redis.keys(
      `${hooks.ctx.config.queuePrefix}:mail-events:token:mailgun:*`,
    );
    const ttls = await Promise.all(keys.map((key) => hooks.ctx.redis.ttl(key)));
    // Taken 30 s after it was signed: about TOLERANCE - 30 s are left of its window.
    expect(ttls.some((ttl) => ttl > TOLERANCE - 35 && ttl <= TOLERANCE - 28)).toBe(true);
    expect(ttls.every((ttl) => ttl > 0 && ttl <= TOLERANCE + 1)).toBe(true);
  });

  it('gives a token back when its events could not be stored, so the provider’s retry is taken', async () => {
    // A bounce of a mail we really sent: only such an event is stored.
    const campaignId = new mongoose.Types.ObjectId().toHexString();
    await recordSentRound(campaignId, 1, ['retried@example.tn']);
    const messageId = campaignMessageId(
      mailIdentityKey(hooks.ctx.config.mailLinkSecret),
      campaignId,
      1,
      'retried@example.tn',
      'agency.test',
    );
    const body = {
      signature: mailgunSigned(String(nowSeconds()), freshToken()),
      'event-data': {
        id: 'mg-retried',
        event: 'failed',
        severity: 'permanent',
        recipient: 'retried@example.tn',
        message: { headers: { 'message-id': messageId } },
      },
    };
    const bufferTimeout: unknown = mongoose.get('bufferTimeoutMS');
    mongoose.set('bufferTimeoutMS', 300);
    await disconnectDatabase();
    let failed;
    try {
      failed = await post('mailgun').send(body);
    } finally {
      await connectDatabase(hooks.ctx.config.mongodbUri);
      mongoose.set('bufferTimeoutMS', typeof bufferTimeout === 'number' ? bufferTimeout : 10_000);
    }
    expect(failed.status).toBe(500);
    const retried = await post('mailgun').send(body);
    expect(retried.status).toBe(200);
  });

  it('refuses with 503 when Redis cannot say whether a token was used', async () => {
    const offline = await createTestContext({
      redisUrl: 'redis://127.0.0.1:1',
      env: { MAIL_EVENTS_MAILGUN_SIGNING_KEY: hooks.secrets.mailgun },
    });
    try {
      const response = await request(offline.app.callback())
        .post('/api/webhooks/mail-events/mailgun')
        .send({
          signature: mailgunSigned(String(nowSeconds()), freshToken()),
          'event-data': {
            id: 'mg-offline',
            event: 'complained',
            recipient: 'offline@example.tn',
          },
        });
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('UNAVAILABLE');
      await nothingRecordedFor('offline@example.tn');
    } finally {
      await offline.close();
    }
  });
});

/* ---------------------------------------------------------------- timestamps */

describe('a signed timestamp outside the tolerance', () => {
  const stale = () => nowSeconds() - TOLERANCE - 20;
  const future = () => nowSeconds() + TOLERANCE + 20;
  const staleMessage = `The signed timestamp is more than ${TOLERANCE} seconds old: a delivery is taken only while its signature is fresh`;
  const futureMessage = `The signed timestamp is more than ${TOLERANCE} seconds ahead of this server's clock`;

  const genericBounce = (id: string, email: string) =>
    JSON.stringify({ events: [{ id, type: 'bounce', bounceType: 'hard', email }] });

  it('is refused for the generic format (t=1 too), and a fresh one inside it is taken', async () => {
    for (const [t, message] of [
      [1, staleMessage],
      [stale(), staleMessage],
      [future(), futureMessage],
    ] as const) {
      const body = genericBounce(`old-${t}`, 'old-generic@example.tn');
      const response = await hooks.postGeneric(
        body,
        genericSignature(body, hooks.secrets.generic, t),
      );
      expect(response.status).toBe(401);
      expect(response.body.error).toEqual({ code: 'UNAUTHENTICATED', message });
    }
    await nothingRecordedFor('old-generic@example.tn');
    const fresh = JSON.stringify({
      events: [{ id: 'fresh-g', type: 'delivered', email: 'g@example.tn' }],
    });
    const inside = await hooks.postGeneric(
      fresh,
      genericSignature(fresh, hooks.secrets.generic, nowSeconds() - TOLERANCE + 20),
    );
    expect(inside.status).toBe(200);
  });

  it('is refused for SendGrid (timestamp 1 too), and a fresh one inside it is taken', async () => {
    const body = JSON.stringify([
      { sg_event_id: 'sg-old', event: 'bounce', type: 'bounce', email: 'old-sg@example.tn' },
    ]);
    for (const [timestamp, message] of [
      [1, staleMessage],
      [stale(), staleMessage],
      [future(), futureMessage],
    ] as const) {
      const response = await hooks.postSendgrid(body, { timestamp });
      expect(response.status).toBe(401);
      expect(response.body.error.message).toBe(message);
    }
    await nothingRecordedFor('old-sg@example.tn');
    const inside = await hooks.postSendgrid(
      JSON.stringify([{ sg_event_id: 'sg-fresh', event: 'open', email: 'sg@example.tn' }]),
      { timestamp: nowSeconds() + TOLERANCE - 20 },
    );
    expect(inside.status).toBe(200);
  });

  it('is refused for Mailgun (timestamp "1" too)', async () => {
    for (const [timestamp, message] of [
      ['1', staleMessage],
      [String(stale()), staleMessage],
      [String(future()), futureMessage],
    ] as const) {
      const response = await post('mailgun').send({
        signature: mailgunSigned(timestamp, freshToken()),
        'event-data': {
          id: `mg-old-${timestamp}`,
          event: 'failed',
          severity: 'permanent',
          recipient: 'old-mg@example.tn',
        },
      });
      expect(response.status).toBe(401);
      expect(response.body.error.message).toBe(message);
    }
    await nothingRecordedFor('old-mg@example.tn');
  });

  it('refuses a signed timestamp that is no unix time', async () => {
    const response = await hooks.postSendgrid('[]', { timestamp: 'soon' });
    expect(response.status).toBe(401);
    expect(response.body.error.message).toBe('The signed timestamp is missing or unreadable');
  });

  it('gives SNS the hour it retries one message, and no more', async () => {
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const retried = await postSns(
      hooks.snsMessage({
        Type: 'Notification',
        Message: JSON.stringify({ notificationType: 'Delivery' }),
        Timestamp: minutesAgo(50),
      }),
    );
    expect(retried.status).toBe(200);
    const old = await postSns(
      hooks.snsMessage({
        Type: 'Notification',
        Message: sesBounce('fb-old', 'old-ses@example.tn'),
        Timestamp: minutesAgo(60 + TOLERANCE / 60 + 1),
      }),
    );
    expect(old.status).toBe(401);
    expect(old.body.error.message).toBe(
      `The signed timestamp is more than ${3600 + TOLERANCE} seconds old: a delivery is taken only while its signature is fresh`,
    );
    const ahead = await postSns(
      hooks.snsMessage({
        Type: 'Notification',
        Message: sesBounce('fb-ahead', 'old-ses@example.tn'),
        Timestamp: new Date(Date.now() + (TOLERANCE + 20) * 1000).toISOString(),
      }),
    );
    expect(ahead.status).toBe(401);
    expect(ahead.body.error.message).toBe(futureMessage);
    await nothingRecordedFor('old-ses@example.tn');
  });

  it('is a setting between 30 seconds and an hour, five minutes unless set', () => {
    const base = {
      ...TEST_SECRETS,
      NODE_ENV: 'test',
      MONGODB_URI: hooks.ctx.config.mongodbUri,
      REDIS_URL: hooks.ctx.config.redisUrl,
    };
    expect(loadApiConfig(base).mailEvents.toleranceSeconds).toBe(300);
    for (const outside of ['10', '86400']) {
      expect(() => loadApiConfig({ ...base, MAIL_EVENTS_TOLERANCE_SECONDS: outside })).toThrow(
        ConfigError,
      );
    }
  });
});

/* ---------------------------------------------------------------- hostile bodies */

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('hostile bodies', () => {
  it('answers 413 for an oversized body before checking its signature, naming the limit', async () => {
    const big = JSON.stringify({ events: [], padding: 'x'.repeat(70 * 1024) });
    const unsigned = await post('generic').set('Content-Type', 'application/json').send(big);
    expect(unsigned.status).toBe(413);
    expect(unsigned.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The body is larger than 64kb, the most this webhook takes (MAIL_EVENTS_BODY_LIMIT)',
    });
  });

  it('takes prototype keys in a signed generic body as unknown fields: never a 500', async () => {
    const bodies = [
      '{"events":[{"id":"p-1","type":"delivered","email":"p@example.tn","constructor":"x"}]}',
      '{"events":[{"id":"p-2","type":"delivered","email":"p@example.tn","toString":{"a":1}}]}',
      '{"__proto__":{"events":"x"},"events":[{"id":"p-3","type":"delivered","email":"p@example.tn","__proto__":{"id":1}}]}',
      '{"constructor":{"prototype":{"polluted":true}},"toString":1,"events":[]}',
    ];
    for (const body of bodies) {
      const response = await hooks.postGeneric(body);
      expect({ body, status: response.status }).toEqual({ body, status: 200 });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 400 for arrays nested 5,000 deep in a signed generic body', async () => {
    for (const body of [
      `{"events":${deepArray(5000)}}`,
      `{"events":[{"id":"d-1","type":"bounce","email":"d@example.tn","reason":${deepArray(5000)}}]}`,
    ]) {
      const response = await hooks.postGeneric(body);
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'BAD_REQUEST',
        message: 'The request body is nested too deeply',
      });
    }
    await nothingRecordedFor('d@example.tn');
  });

  it('writes validation errors as text naming each field and its reason', async () => {
    const response = await hooks.postGeneric(
      JSON.stringify({
        events: [{ id: 'v-1', type: 'bounce', email: 'not-an-address', bounceType: 'maybe' }],
      }),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    const fields = response.body.error.fields as Record<string, string>;
    expect(Object.keys(fields).sort()).toEqual(['events[0].bounceType', 'events[0].email']);
    for (const reason of Object.values(fields)) {
      expect(reason).toMatch(/^[A-Z].{5,}/);
      expect(reason).not.toContain('[object Object]');
    }
    expect(response.body.error.message).toBe(
      `Some events are invalid (events[0].email: ${fields['events[0].email']}; events[0].bounceType: ${fields['events[0].bounceType']})`,
    );
    const missing = await hooks.postGeneric(JSON.stringify({ events: 'nope' }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).not.toContain('[object Object]');
    expect(Object.keys(missing.body.error.fields)).toEqual(['events']);
  });

  it('writes the reasons in the language the caller asks for', async () => {
    const body = JSON.stringify({ events: [{ id: 'v-2', type: 'bounce', email: 'nope' }] });
    const signature = genericSignature(body, hooks.secrets.generic);
    const answer = (language: string) =>
      hooks.postGeneric(body, signature).set('Accept-Language', language);
    const english = (await answer('en')).body.error.fields['events[0].email'] as string;
    const french = (await answer('fr')).body.error.fields['events[0].email'] as string;
    expect(french).not.toBe(english);
  });

  it('answers SNS messages whose Type names a prototype member with 401, not 500', async () => {
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const response = await postSns({
        ...hooks.snsMessage({ Type: 'Notification', Message: '{}' }),
        Type: type,
      });
      expect({ type, status: response.status }).toEqual({ type, status: 401 });
    }
    for (const body of [
      `{"TopicArn":"${SES_TOPIC}","Type":${deepArray(5000)}}`,
      `{"TopicArn":${deepArray(5000)},"Type":"Notification"}`,
    ]) {
      const deep = await post('ses').set('Content-Type', 'text/plain; charset=UTF-8').send(body);
      expect(deep.status).toBe(401);
    }
  });

  it('answers signed Mailgun, SendGrid and Postmark bodies with prototype keys, deep nesting or blank fields with 2xx or 4xx', async () => {
    const hostile = (id: string) =>
      `{"id":"${id}","event":"failed","severity":"permanent","recipient":"h@example.tn","constructor":1,"__proto__":{"x":1},"toString":"y","message":{"headers":{"message-id":${deepArray(5000)}}},"envelope":{"__proto__":null}}`;
    const answers: Array<[string, number]> = [];
    const mailgun = async (eventData: string) => {
      const signature = JSON.stringify(mailgunSigned(String(nowSeconds()), freshToken()));
      const response = await post('mailgun')
        .set('Content-Type', 'application/json')
        .send(`{"signature":${signature},"event-data":${eventData},"__proto__":{"a":1}}`);
      answers.push([`mailgun ${eventData.slice(0, 40)}`, response.status]);
    };
    await mailgun(hostile('h-1'));
    await mailgun(deepArray(5000));
    await mailgun('{"id":"h-2","event":"complained","recipient":"   "}');
    for (const body of [
      `[{"sg_event_id":"h-3","event":"bounce","email":"h@example.tn","constructor":1,"toString":${deepArray(5000)}}]`,
      `[${deepArray(5000)}]`,
      '[{"sg_event_id":"h-4","event":"bounce","email":" "}]',
    ]) {
      answers.push([`sendgrid ${body.slice(0, 40)}`, (await hooks.postSendgrid(body)).status]);
    }
    for (const body of [
      `{"RecordType":"Bounce","Type":"toString","ID":7,"Email":"h@example.tn","__proto__":{"a":1},"Metadata":{"constructor":"x"},"Content":${deepArray(5000)}}`,
      '{"RecordType":"constructor","ID":8,"Email":"h@example.tn"}',
      '{"RecordType":"Bounce","Type":"HardBounce","ID":9,"Email":"  "}',
    ]) {
      const response = await post('postmark')
        .auth('postmark', 'hook-password')
        .set('Content-Type', 'application/json')
        .send(body);
      answers.push([`postmark ${body.slice(0, 40)}`, response.status]);
    }
    // Prototype keys are read as nothing; deep nesting where an object is
    // due, and blank addresses (stored as nothing before), are 400.
    expect(answers.map(([, status]) => status)).toEqual([
      200, 400, 400, 200, 400, 400, 200, 200, 400,
    ]);
  });
});
