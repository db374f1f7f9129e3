import { Types, trusted } from 'mongoose';
import {
  campaignMessageId,
  campaignReturnPath,
  legacyRecipientDigest,
  mailIdentityKey,
  mailMessageId,
  type MailIdentityKey,
} from '@agency/platform';
import {
  MailEventModel,
  SubscriberModel,
  SuppressionModel,
} from '@agency/platform/testing/audience-models';
import { recordSentRound } from '@agency/platform/testing/sent-rounds';
import {
  genericSignature,
  mailgunSignature,
  startMailEventWebhooks,
  type MailEventWebhooks,
} from '../../testing/mail-event-webhooks';

let hooks: MailEventWebhooks;
let identityKey: MailIdentityKey;

beforeAll(async () => {
  hooks = await startMailEventWebhooks();
  identityKey = mailIdentityKey(hooks.ctx.config.mailLinkSecret);
  // The mails the events below answer: the campaign's rounds as its dispatch wrote them.
  await recordSentRound(campaignId, 1, [
    'gone@example.tn',
    'full@example.tn',
    'r@example.tn',
    'mg@example.tn',
    'sg@example.tn',
    'sg-spam@example.tn',
    'pm@example.tn',
    'ses@example.tn',
    'ses-c@example.tn',
  ]);
  await recordSentRound(campaignId, 2, ['angry@example.tn']);
});

afterAll(() => hooks.close());

const post = (provider: string) => hooks.post(provider);

const campaignId = new Types.ObjectId().toHexString();
const messageIdOf = (email: string) =>
  campaignMessageId(identityKey, campaignId, 1, email, 'agency.test');

async function suppressionOf(email: string) {
  return SuppressionModel.findById(email).lean();
}

/* ---------------------------------------------------------------- generic */

const sendGeneric = (payload: unknown, signature?: string) =>
  hooks.postGeneric(JSON.stringify(payload), signature);

describe('the generic format', () => {
  it('suppresses a hard bounce at once, matched to its campaign by Message-ID', async () => {
    const response = await sendGeneric({
      events: [
        {
          id: 'g-1',
          type: 'bounce',
          bounceType: 'hard',
          email: 'Gone@Example.tn',
          messageId: messageIdOf('gone@example.tn'),
          reason: '550 5.1.1 no such user',
        },
        { id: 'g-2', type: 'delivered', email: 'fine@example.tn' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ recorded: 1, duplicates: 0, ignored: 1, unmatched: 0 });
    expect(await suppressionOf('gone@example.tn')).toMatchObject({
      email: 'Gone@Example.tn',
      reason: 'hard-bounce',
      source: 'generic',
      detail: '550 5.1.1 no such user',
    });
    expect(String((await suppressionOf('gone@example.tn'))?.campaign)).toBe(campaignId);
    expect(await MailEventModel.findById('generic:g-1').lean()).toMatchObject({
      kind: 'hard-bounce',
      key: 'gone@example.tn',
      round: 1,
    });
  });

  it('counts soft bounces and suppresses the third within 30 days', async () => {
    const soft = (id: string) => ({
      id,
      type: 'bounce',
      bounceType: 'soft',
      email: 'full@example.tn',
      messageId: messageIdOf('full@example.tn'),
    });
    await sendGeneric({ events: [soft('s-1'), soft('s-2')] });
    expect(await suppressionOf('full@example.tn')).toBeNull();
    await sendGeneric({ events: [soft('s-3')] });
    expect(await suppressionOf('full@example.tn')).toMatchObject({ reason: 'soft-bounce' });
  });

  it('a complaint suppresses and unsubscribes, matched by the return path', async () => {
    await SubscriberModel.create({ email: 'angry@example.tn', status: 'confirmed' });
    const response = await sendGeneric({
      events: [
        {
          id: 'c-1',
          type: 'complaint',
          email: 'angry@example.tn',
          returnPath: campaignReturnPath(
            identityKey,
            'bounces@agency.test',
            campaignId,
            2,
            'angry@example.tn',
          ),
        },
      ],
    });
    expect(response.body.recorded).toBe(1);
    expect(await suppressionOf('angry@example.tn')).toMatchObject({ reason: 'complaint' });
    expect(await SubscriberModel.findOne({ email: 'angry@example.tn' }).lean()).toMatchObject({
      status: 'unsubscribed',
      unsubscribeMethod: 'complaint',
    });
    expect(await MailEventModel.findById('generic:c-1').lean()).toMatchObject({ round: 2 });
  });

  it('applies an event naming a mail we sent, and counts without applying those naming none of ours', async () => {
    const contactId = new Types.ObjectId().toHexString();
    const victim = 'ceo@example.tn';
    const response = await sendGeneric({
      events: [
        // A transactional mail: its Message-ID carries the recipient's keyed digest.
        {
          id: 'm-1',
          type: 'bounce',
          bounceType: 'hard',
          email: 'visitor@example.tn',
          messageId: mailMessageId(
            identityKey,
            `contact-ack-${contactId}`,
            'visitor@example.tn',
            'agency.test',
          ),
        },
        // Signed, but none names a mail we sent to the victim: no identity,
        // another recipient's, a made-up campaign, the old SHA-1 form, a
        // transactional mail's of someone else.
        { id: 'u-1', type: 'complaint', email: victim },
        {
          id: 'u-2',
          type: 'bounce',
          bounceType: 'hard',
          email: victim,
          messageId: messageIdOf('gone@example.tn'),
        },
        {
          id: 'u-3',
          type: 'bounce',
          bounceType: 'hard',
          email: victim,
          messageId: campaignMessageId(
            identityKey,
            new Types.ObjectId().toHexString(),
            1,
            victim,
            'agency.test',
          ),
        },
        {
          id: 'u-4',
          type: 'bounce',
          bounceType: 'hard',
          email: victim,
          messageId: `<campaign-${campaignId}-r1-${legacyRecipientDigest(victim)}@agency.test>`,
        },
        {
          id: 'u-5',
          type: 'complaint',
          email: victim,
          messageId: mailMessageId(
            identityKey,
            `contact-ack-${contactId}`,
            'visitor@example.tn',
            'agency.test',
          ),
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ recorded: 1, duplicates: 0, ignored: 0, unmatched: 5 });
    expect(await suppressionOf('visitor@example.tn')).toMatchObject({
      reason: 'hard-bounce',
      source: 'generic',
    });
    expect(await MailEventModel.findById('generic:m-1').lean()).not.toHaveProperty('campaign');
    expect(await suppressionOf(victim)).toBeNull();
    expect(await MailEventModel.countDocuments({ key: victim })).toBe(0);
  });

  it('refuses a tampered body or a wrong secret with 401 and stores nothing', async () => {
    const body = JSON.stringify({ events: [{ id: 't-1', type: 'bounce', email: 't@example.tn' }] });
    const signature = genericSignature(body, hooks.secrets.generic);
    const tampered = body.replace('t@example.tn', 'u@example.tn');
    const refused = await hooks.postGeneric(tampered, signature);
    expect(refused.status).toBe(401);
    const wrongSecret = await sendGeneric(
      JSON.parse(body),
      genericSignature(body, `x${hooks.secrets.generic}`),
    );
    expect(wrongSecret.status).toBe(401);
    expect((await post('generic').send(body)).status).toBe(401);
    expect(
      await MailEventModel.countDocuments({
        key: trusted({ $in: ['t@example.tn', 'u@example.tn'] }),
      }),
    ).toBe(0);
    expect(await suppressionOf('u@example.tn')).toBeNull();
  });

  it('takes a replay as a duplicate that changes nothing', async () => {
    const payload = {
      events: [
        {
          id: 'r-1',
          type: 'bounce',
          bounceType: 'soft',
          email: 'r@example.tn',
          messageId: messageIdOf('r@example.tn'),
        },
      ],
    };
    const body = JSON.stringify(payload);
    const signature = genericSignature(body, hooks.secrets.generic);
    const send = () => hooks.postGeneric(body, signature);
    const once = { recorded: 1, duplicates: 0, ignored: 0, unmatched: 0 };
    const again = { recorded: 0, duplicates: 1, ignored: 0, unmatched: 0 };
    expect((await send()).body).toEqual(once);
    // Two more copies of one soft bounce are still one soft bounce: no suppression.
    expect((await send()).body).toEqual(again);
    expect((await send()).body).toEqual(again);
    expect(await MailEventModel.countDocuments({ key: 'r@example.tn' })).toBe(1);
    expect(await suppressionOf('r@example.tn')).toBeNull();
  });

  it('refuses an oversized body with 413, and a malformed one with 400', async () => {
    const big = JSON.stringify({ events: [], padding: 'x'.repeat(70 * 1024) });
    const oversized = await hooks.postGeneric(big);
    expect(oversized.status).toBe(413);
    const malformed = await sendGeneric({ events: 'nope' });
    expect(malformed.status).toBe(400);
  });

  it('answers 404 for a provider that is not set up or unknown', async () => {
    expect((await post('pigeon').send('{}')).status).toBe(404);
  });
});

/* ---------------------------------------------------------------- mailgun */

function mailgunBody(
  id: string,
  event: string,
  extra: Record<string, unknown> = {},
  key = hooks.secrets.mailgun,
) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    signature: mailgunSignature(timestamp, `token-${id}`, key),
    'event-data': { id, event, recipient: 'mg@example.tn', timestamp: Date.now() / 1000, ...extra },
  };
}

describe('Mailgun', () => {
  it('suppresses a permanent failure, and refuses its replay', async () => {
    const body = mailgunBody('mg-1', 'failed', {
      severity: 'permanent',
      message: { headers: { 'message-id': messageIdOf('mg@example.tn').slice(1, -1) } },
      'delivery-status': { message: '550 unknown user' },
    });
    const first = await post('mailgun').send(body);
    expect(first.status).toBe(200);
    expect(first.body.recorded).toBe(1);
    expect(await suppressionOf('mg@example.tn')).toMatchObject({
      reason: 'hard-bounce',
      source: 'mailgun',
    });
    expect(String((await suppressionOf('mg@example.tn'))?.campaign)).toBe(campaignId);
    expect((await post('mailgun').send(body)).status).toBe(409);
  });

  it('refuses a tampered event or a wrong key with 401', async () => {
    const body = mailgunBody('mg-2', 'complained');
    (body['event-data'] as Record<string, unknown>).recipient = 'other@example.tn';
    body.signature.signature = mailgunBody(
      'mg-2',
      'complained',
      {},
      'wrong-key',
    ).signature.signature;
    expect((await post('mailgun').send(body)).status).toBe(401);
    const tampered = mailgunBody('mg-3', 'complained');
    tampered.signature.token = 'another-token';
    expect((await post('mailgun').send(tampered)).status).toBe(401);
    expect(
      await MailEventModel.exists({ _id: trusted({ $in: ['mailgun:mg-2', 'mailgun:mg-3'] }) }),
    ).toBeNull();
  });
});

/* ---------------------------------------------------------------- sendgrid */

function sendgridPost(events: unknown[], options: { tamper?: boolean } = {}) {
  const body = JSON.stringify(events);
  return hooks.postSendgrid(body, { sent: options.tamper ? body.replace('sg@', 'xx@') : body });
}

describe('SendGrid', () => {
  const events = () => [
    {
      sg_event_id: 'sg-1',
      event: 'bounce',
      type: 'bounce',
      email: 'sg@example.tn',
      'smtp-id': messageIdOf('sg@example.tn'),
    },
    {
      sg_event_id: 'sg-2',
      event: 'spamreport',
      email: 'sg-spam@example.tn',
      'smtp-id': messageIdOf('sg-spam@example.tn'),
    },
    { sg_event_id: 'sg-3', event: 'open', email: 'sg@example.tn' },
  ];

  it('verifies the ECDSA signature, then records bounces and complaints and ignores the rest', async () => {
    const response = await sendgridPost(events());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ recorded: 2, duplicates: 0, ignored: 1, unmatched: 0 });
    expect(await suppressionOf('sg@example.tn')).toMatchObject({ reason: 'hard-bounce' });
    expect(await suppressionOf('sg-spam@example.tn')).toMatchObject({ reason: 'complaint' });
    expect((await sendgridPost(events())).body).toEqual({
      recorded: 0,
      duplicates: 2,
      ignored: 1,
      unmatched: 0,
    });
  });

  it('refuses a tampered batch with 401', async () => {
    const tampered = await sendgridPost(
      [{ sg_event_id: 'sg-9', event: 'bounce', type: 'bounce', email: 'sg@example.tn' }],
      { tamper: true },
    );
    expect(tampered.status).toBe(401);
    expect(await MailEventModel.exists({ _id: 'sendgrid:sg-9' })).toBeNull();
  });
});

/* ---------------------------------------------------------------- postmark */

describe('Postmark', () => {
  const bounce = () => ({
    RecordType: 'Bounce',
    ID: 4323372036854775,
    Type: 'HardBounce',
    Email: 'pm@example.tn',
    Description: 'The server was unable to deliver your message',
    Details: 'smtp;550 5.1.1 unknown',
    BouncedAt: '2026-01-05T16:33:54Z',
    Content: `Received: ...\r\nMessage-ID: ${messageIdOf('pm@example.tn')}\r\n`,
  });

  it('checks the basic-auth credentials, records the bounce and takes a replay as a duplicate', async () => {
    const send = () =>
      post('postmark')
        .auth(hooks.secrets.postmark.username, hooks.secrets.postmark.password)
        .send(bounce());
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ recorded: 1, duplicates: 0, ignored: 0, unmatched: 0 });
    expect(await suppressionOf('pm@example.tn')).toMatchObject({
      reason: 'hard-bounce',
      source: 'postmark',
    });
    expect(String((await suppressionOf('pm@example.tn'))?.campaign)).toBe(campaignId);
    expect((await send()).body).toEqual({ recorded: 0, duplicates: 1, ignored: 0, unmatched: 0 });
  });

  it('refuses wrong credentials with 401, and acknowledges record types it does not use', async () => {
    const wrong = await post('postmark')
      .auth(hooks.secrets.postmark.username, 'guess')
      .send({ ...bounce(), ID: 1 });
    expect(wrong.status).toBe(401);
    expect(await MailEventModel.exists({ _id: 'postmark:Bounce-1' })).toBeNull();
    const delivery = await post('postmark')
      .auth(hooks.secrets.postmark.username, hooks.secrets.postmark.password)
      .send({ RecordType: 'Delivery', MessageID: 'x', Recipient: 'a@example.tn' });
    expect(delivery.body).toEqual({ recorded: 0, duplicates: 0, ignored: 1, unmatched: 0 });
  });
});

/* ---------------------------------------------------------------- SES */

const sesBounce = (feedbackId: string, email: string) =>
  JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: 'General',
      feedbackId,
      timestamp: '2026-01-05T10:00:00.000Z',
      bouncedRecipients: [{ emailAddress: email, diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    },
    mail: {
      messageId: 'ses-own-id',
      source: 'no-reply@agency.test',
      commonHeaders: { messageId: messageIdOf(email) },
    },
  });

const postSns = (message: Record<string, string>) =>
  post('ses')
    .set('Content-Type', 'text/plain; charset=UTF-8')
    .set('x-amz-sns-message-type', message.Type ?? '')
    .send(JSON.stringify(message));

describe('Amazon SES through SNS', () => {
  it('verifies the signature with the certificate from the allowed host and records the bounce', async () => {
    const message = hooks.snsMessage({
      Type: 'Notification',
      Message: sesBounce('fb-1', 'ses@example.tn'),
    });
    const response = await postSns(message);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ recorded: 1, duplicates: 0, ignored: 0, unmatched: 0 });
    expect(await suppressionOf('ses@example.tn')).toMatchObject({
      reason: 'hard-bounce',
      source: 'ses',
    });
    expect(String((await suppressionOf('ses@example.tn'))?.campaign)).toBe(campaignId);
    // SNS delivers at least once: the same notification again changes nothing.
    expect((await postSns(message)).body).toEqual({
      recorded: 0,
      duplicates: 1,
      ignored: 0,
      unmatched: 0,
    });
  });

  it('takes SignatureVersion 1 (SHA1) too, and a complaint', async () => {
    const complaint = JSON.stringify({
      notificationType: 'Complaint',
      complaint: {
        feedbackId: 'fb-2',
        complainedRecipients: [{ emailAddress: 'ses-c@example.tn' }],
      },
      mail: {
        messageId: 'm',
        source: 'no-reply@agency.test',
        commonHeaders: { messageId: messageIdOf('ses-c@example.tn') },
      },
    });
    const response = await postSns(
      hooks.snsMessage({ Type: 'Notification', Message: complaint }, { signatureVersion: '1' }),
    );
    expect(response.body.recorded).toBe(1);
    expect(await suppressionOf('ses-c@example.tn')).toMatchObject({ reason: 'complaint' });
  });

  it('refuses a tampered message, another topic and a certificate from another host with 401', async () => {
    const genuine = hooks.snsMessage({
      Type: 'Notification',
      Message: sesBounce('fb-3', 'ses3@example.tn'),
    });
    const tampered = { ...genuine, Message: sesBounce('fb-3', 'other@example.tn') };
    expect((await postSns(tampered)).status).toBe(401);
    const otherTopic = hooks.snsMessage({
      Type: 'Notification',
      Message: sesBounce('fb-4', 'ses4@example.tn'),
      TopicArn: 'arn:aws:sns:eu-west-1:999999999999:theirs',
    });
    expect((await postSns(otherTopic)).status).toBe(401);
    const elsewhere = hooks.snsMessage({
      Type: 'Notification',
      Message: sesBounce('fb-5', 'ses5@example.tn'),
      SigningCertURL: 'https://attacker.example/cert.pem',
    });
    expect((await postSns(elsewhere)).status).toBe(401);
    expect(
      await MailEventModel.countDocuments({
        provider: 'ses',
        key: trusted({
          $in: ['ses3@example.tn', 'other@example.tn', 'ses4@example.tn', 'ses5@example.tn'],
        }),
      }),
    ).toBe(0);
  });

  it('confirms a subscription by visiting its SubscribeURL on the allowed host', async () => {
    const before = hooks.confirmations();
    const response = await postSns(
      hooks.snsMessage({
        Type: 'SubscriptionConfirmation',
        Message: 'You have chosen to subscribe',
        Token: 'token-1',
        SubscribeURL: hooks.certUrl.replace('/SimpleNotificationService.pem', '/confirm?token=1'),
      }),
    );
    expect(response.status).toBe(200);
    expect(hooks.confirmations()).toBe(before + 1);
  });
});
