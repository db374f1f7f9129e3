import { Types } from 'mongoose';
import { type CampaignRecipient, type Locale } from '@agency/contracts';
import { useFileDatabase } from '../../testing/test-context';
import { ContactModel } from '../contact/store';
import { SubscriberModel } from '../newsletter/store';
import { CampaignModel, type Campaign } from './campaign.model';
import { CampaignRecipientModel, outcomeFactId, pendingFactId } from './campaign-recipient.model';
import {
  appendOutcomeFacts,
  appendPendingFacts,
  beginSending,
  findCampaignForSend,
  findCampaignSendState,
  findStuckQueuedCampaigns,
  finishRound,
  foldCounters,
  recordTotal,
  streamFailedRecipients,
  streamRecipients,
  type CampaignForSend,
} from './campaign-delivery.service';

/**
 * The MongoDB side of a campaign send, against the real store: the campaign's
 * status and counters, who is mailed, and the ledger of what happened to each
 * recipient. No queue and no worker: only the database this file owns.
 */
useFileDatabase('delivery');
beforeEach(async () => {
  await Promise.all([
    CampaignModel.deleteMany({}),
    CampaignRecipientModel.deleteMany({}),
    ContactModel.deleteMany({}),
    SubscriberModel.deleteMany({}),
  ]);
});

async function storedCampaign(fields: Partial<Campaign> = {}): Promise<CampaignForSend> {
  const created = await CampaignModel.create({
    name: 'Spring offer',
    subject: 'Our spring packages',
    content: '<p>Hello</p>',
    ...fields,
  });
  const campaign = await findCampaignForSend(String(created._id));
  if (!campaign) throw new Error('the campaign was not stored');
  return campaign;
}

async function reread(campaign: CampaignForSend): Promise<CampaignForSend> {
  const current = await findCampaignForSend(String(campaign._id));
  if (!current) throw new Error('the campaign is gone');
  return current;
}

async function collect(stream: AsyncIterable<CampaignRecipient>): Promise<CampaignRecipient[]> {
  const recipients: CampaignRecipient[] = [];
  for await (const recipient of stream) recipients.push(recipient);
  return recipients;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

function expectRecent(date: Date | null | undefined, since: Date) {
  expect(date).toBeInstanceOf(Date);
  expect(date?.getTime()).toBeGreaterThanOrEqual(since.getTime());
  expect(date?.getTime()).toBeLessThanOrEqual(Date.now());
}

function contact(
  email: string,
  firstName: string,
  locale: Locale = 'en',
  _id = new Types.ObjectId(),
) {
  return {
    _id,
    firstName,
    lastName: 'Test',
    email,
    service: 'web-design' as const,
    message: 'A campaign test recipient',
    locale,
  };
}

const amira: CampaignRecipient = {
  key: 'amira@example.tn',
  email: 'Amira@Example.tn',
  firstName: 'Amira',
  locale: 'fr',
};
const sami: CampaignRecipient = {
  key: 'sami@example.tn',
  email: 'sami@example.tn',
  firstName: '',
  locale: 'ar',
};

describe('what a batch reads of its campaign', () => {
  it('is the send state without the mail: a long content is read once per worker, not per batch', async () => {
    const campaign = await storedCampaign({
      status: 'sending',
      content: `<p>${'x'.repeat(50_000)}</p>`,
    });

    const state = await findCampaignSendState(String(campaign._id));

    expect(state).toMatchObject({
      _id: campaign._id,
      status: 'sending',
      round: 1,
      roundBaseSent: 0,
    });
    expect(state).not.toHaveProperty('content');
    expect(state).not.toHaveProperty('subject');
    expect(await findCampaignSendState(new Types.ObjectId().toHexString())).toBeNull();
  });
});

describe('starting a send', () => {
  it('moves a queued campaign to sending and stamps its first start', async () => {
    const campaign = await storedCampaign({ status: 'queued', queuedAt: minutesAgo(1) });
    const before = new Date();

    const started = await beginSending(String(campaign._id));

    expect(started).toMatchObject({ _id: campaign._id, status: 'sending' });
    expectRecent(started?.startedAt, before);
    expect(await reread(campaign)).toMatchObject({
      status: 'sending',
      startedAt: started?.startedAt,
    });
  });

  it('keeps the first start time when a resumed campaign starts again', async () => {
    const firstStart = minutesAgo(30);
    const campaign = await storedCampaign({ status: 'queued', startedAt: firstStart, pass: 2 });

    const started = await beginSending(String(campaign._id));

    expect(started).toMatchObject({ status: 'sending', startedAt: firstStart });
    expect((await reread(campaign)).startedAt).toEqual(firstStart);
  });

  it('answers a campaign that is not queued as it is, without starting it', async () => {
    const paused = await storedCampaign({ status: 'paused', pausedAt: minutesAgo(2) });

    expect(await beginSending(String(paused._id))).toEqual(paused);
    expect(await reread(paused)).toEqual(paused);
  });

  it('answers nothing for a campaign that does not exist', async () => {
    expect(await beginSending(new Types.ObjectId().toHexString())).toBeNull();
  });

  it('starts only the campaign it is given', async () => {
    const other = await storedCampaign({ status: 'queued', queuedAt: minutesAgo(1) });
    const campaign = await storedCampaign({ status: 'queued', queuedAt: minutesAgo(1) });

    const started = await beginSending(String(campaign._id));

    expect(started?._id).toEqual(campaign._id);
    expect(await reread(other)).toEqual(other);
  });
});

describe('the recipients of a first send', () => {
  it('are the contacts, then the confirmed subscribers, once per address and in the order stored', async () => {
    // Stored in the reverse order of their ids: the stream follows the ids.
    const [first, second, third] = [
      new Types.ObjectId(),
      new Types.ObjectId(),
      new Types.ObjectId(),
    ];
    await ContactModel.create(contact('nour@example.tn', 'Nour', 'en', third));
    await ContactModel.create(contact(' Amira@Example.tn ', 'Amira', 'fr', second));
    await ContactModel.create(contact('sami@example.tn', 'Sami', 'ar', first));
    await ContactModel.create(contact('AMIRA@example.tn', 'Amira again', 'en'));
    const [older, newer] = [new Types.ObjectId(), new Types.ObjectId()];
    await SubscriberModel.create([
      { _id: newer, email: 'leila@example.tn', status: 'confirmed', locale: 'ar' },
      { _id: older, email: 'karim@example.tn', status: 'confirmed', locale: 'fr' },
      { email: 'sami@example.tn', status: 'confirmed', locale: 'fr' },
      { email: 'waiting@example.tn', status: 'pending' },
    ]);

    expect(await collect(streamRecipients('all'))).toEqual([
      { key: 'sami@example.tn', email: 'sami@example.tn', firstName: 'Sami', locale: 'ar' },
      { key: 'amira@example.tn', email: 'Amira@Example.tn', firstName: 'Amira', locale: 'fr' },
      { key: 'nour@example.tn', email: 'nour@example.tn', firstName: 'Nour', locale: 'en' },
      { key: 'karim@example.tn', email: 'karim@example.tn', firstName: '', locale: 'fr' },
      { key: 'leila@example.tn', email: 'leila@example.tn', firstName: '', locale: 'ar' },
    ]);
  });

  it('are only the contacts, or only the confirmed subscribers, when the campaign says so', async () => {
    await ContactModel.create(contact('amira@example.tn', 'Amira'));
    await SubscriberModel.create([
      { email: 'nour@example.tn', status: 'confirmed' },
      { email: 'waiting@example.tn', status: 'pending' },
    ]);

    const keys = async (type: 'contacts' | 'subscribers') =>
      (await collect(streamRecipients(type))).map((recipient) => recipient.key);
    expect(await keys('contacts')).toEqual(['amira@example.tn']);
    expect(await keys('subscribers')).toEqual(['nour@example.tn']);
  });

  it('leave out anyone who unsubscribed, whatever the case of the address they wrote from', async () => {
    await ContactModel.create([
      contact('Left@Example.tn ', 'Gone'),
      contact('amira@example.tn', 'Amira'),
    ]);
    await SubscriberModel.create([
      { email: 'left@example.tn', status: 'unsubscribed' },
      { email: 'nour@example.tn', status: 'confirmed' },
    ]);

    const keys = (await collect(streamRecipients('all'))).map((recipient) => recipient.key);
    expect(keys).toEqual(['amira@example.tn', 'nour@example.tn']);
  });
});

describe('the recipients of a resend', () => {
  async function fact(
    campaign: CampaignForSend,
    round: number,
    state: 'pending' | 'sent' | 'failed',
    email: string,
    personal: { firstName?: string; locale?: string } = {},
  ) {
    await CampaignRecipientModel.create({
      _id: outcomeFactId(String(campaign._id), round, `${state}-${email}`),
      campaign: campaign._id,
      round,
      state,
      email,
      at: new Date(),
      ...personal,
    });
  }

  it('are those whose latest round failed, in the order of the ledger, less anyone who unsubscribed since', async () => {
    const campaign = await storedCampaign({ status: 'queued', round: 3 });
    const other = await storedCampaign({ status: 'queued', round: 3 });
    await fact(campaign, 2, 'failed', 'zoe@example.tn', { firstName: 'Zoe', locale: 'fr' });
    await fact(campaign, 2, 'failed', ' Amira@Example.tn', { firstName: 'Amira', locale: 'ar' });
    await fact(campaign, 2, 'failed', 'left@example.tn', { firstName: 'Gone', locale: 'en' });
    await fact(campaign, 2, 'sent', 'sent@example.tn');
    await fact(campaign, 2, 'pending', 'pending@example.tn');
    await fact(campaign, 1, 'failed', 'earlier@example.tn');
    await fact(other, 2, 'failed', 'other@example.tn');
    await SubscriberModel.create({ email: 'left@example.tn', status: 'unsubscribed' });

    expect(await collect(streamFailedRecipients(String(campaign._id), 2))).toEqual([
      { key: 'amira@example.tn', email: 'Amira@Example.tn', firstName: 'Amira', locale: 'ar' },
      { key: 'zoe@example.tn', email: 'zoe@example.tn', firstName: 'Zoe', locale: 'fr' },
    ]);
  });

  it('are greeted without a name and in English when the ledger kept neither', async () => {
    const campaign = await storedCampaign({ status: 'queued', round: 2 });
    await fact(campaign, 1, 'failed', 'nour@example.tn');

    expect(await collect(streamFailedRecipients(String(campaign._id), 1))).toEqual([
      { key: 'nour@example.tn', email: 'nour@example.tn', firstName: '', locale: 'en' },
    ]);
  });
});

describe('the send ledger', () => {
  it('records who is owed a mail in the round, with what the mail is personalised with', async () => {
    const campaign = await storedCampaign({ status: 'sending' });
    const id = String(campaign._id);
    const before = new Date();

    await appendPendingFacts(id, 1, [amira, sami]);

    const facts = await CampaignRecipientModel.find().sort({ _id: 1 }).lean();
    expect(facts).toStrictEqual([
      {
        _id: pendingFactId(id, 1, amira.key),
        campaign: campaign._id,
        round: 1,
        state: 'pending',
        email: 'Amira@Example.tn',
        firstName: 'Amira',
        locale: 'fr',
        at: expect.any(Date),
      },
      {
        _id: pendingFactId(id, 1, sami.key),
        campaign: campaign._id,
        round: 1,
        state: 'pending',
        email: 'sami@example.tn',
        firstName: '',
        locale: 'ar',
        at: expect.any(Date),
      },
    ]);
    for (const fact of facts) expectRecent(fact.at, before);
  });

  // Strict equality: a sent fact must have no reason at all, not a null one.
  it('records a sent mail with its attempts, and a failed one with its reason too', async () => {
    const campaign = await storedCampaign({ status: 'sending', round: 2 });
    const id = String(campaign._id);
    const before = new Date();

    await appendOutcomeFacts(id, 2, [
      { recipient: amira, outcome: { state: 'sent', attempts: 1 } },
      { recipient: sami, outcome: { state: 'failed', reason: '550 mailbox unknown', attempts: 3 } },
    ]);

    const sent = await CampaignRecipientModel.findById(outcomeFactId(id, 2, amira.key)).lean();
    expect(sent).toStrictEqual({
      _id: outcomeFactId(id, 2, amira.key),
      campaign: campaign._id,
      round: 2,
      state: 'sent',
      email: 'Amira@Example.tn',
      firstName: 'Amira',
      locale: 'fr',
      attempts: 1,
      at: expect.any(Date),
    });
    expectRecent(sent?.at, before);
    expect(
      await CampaignRecipientModel.findById(outcomeFactId(id, 2, sami.key)).lean(),
    ).toStrictEqual({
      _id: outcomeFactId(id, 2, sami.key),
      campaign: campaign._id,
      round: 2,
      state: 'failed',
      email: 'sami@example.tn',
      firstName: '',
      locale: 'ar',
      reason: '550 mailbox unknown',
      attempts: 3,
      at: expect.any(Date),
    });
  });

  it('skips the facts already there when a batch is replayed after a crash, and still writes the new ones', async () => {
    const campaign = await storedCampaign({ status: 'sending' });
    const id = String(campaign._id);
    await appendPendingFacts(id, 1, [amira]);
    await appendOutcomeFacts(id, 1, [
      { recipient: amira, outcome: { state: 'sent', attempts: 1 } },
    ]);
    const nour = { key: 'nour@example.tn', email: 'nour@example.tn', firstName: '', locale: 'en' };

    // The duplicate comes first: the insert goes on past it.
    await expect(appendPendingFacts(id, 1, [amira, sami, nour])).resolves.toBeUndefined();
    await expect(
      appendOutcomeFacts(id, 1, [
        { recipient: amira, outcome: { state: 'failed', reason: 'replayed', attempts: 2 } },
        { recipient: sami, outcome: { state: 'sent', attempts: 1 } },
      ]),
    ).resolves.toBeUndefined();

    const facts = await CampaignRecipientModel.find().sort({ _id: 1 }).lean();
    expect(facts.map(({ _id, state }) => ({ _id, state }))).toEqual([
      { _id: outcomeFactId(id, 1, amira.key), state: 'sent' },
      { _id: pendingFactId(id, 1, amira.key), state: 'pending' },
      { _id: pendingFactId(id, 1, nour.key), state: 'pending' },
      { _id: pendingFactId(id, 1, sami.key), state: 'pending' },
      { _id: outcomeFactId(id, 1, sami.key), state: 'sent' },
    ]);
  });

  it('writes nothing for an empty batch', async () => {
    const campaign = await storedCampaign({ status: 'sending' });

    await appendPendingFacts(String(campaign._id), 1, []);
    await appendOutcomeFacts(String(campaign._id), 1, []);

    expect(await CampaignRecipientModel.countDocuments()).toBe(0);
  });

  it('reports a write that fails for any other reason than a replay', async () => {
    const campaign = await storedCampaign({ status: 'sending' });
    // Over MongoDB's 16 MiB document limit: the driver refuses it before sending.
    const huge = { ...sami, firstName: 'x'.repeat(16.5 * 1024 * 1024) };

    await expect(appendPendingFacts(String(campaign._id), 1, [huge])).rejects.toThrow(
      /larger than the maximum/,
    );
  });
});

describe('the counters folded in from Redis', () => {
  it('show the sent of every round so far and the failed of this round', async () => {
    const campaign = await storedCampaign({ status: 'sending', round: 2, roundBaseSent: 5 });

    await foldCounters(campaign, { sent: 3, failed: 2, version: 4 });

    expect(await reread(campaign)).toMatchObject({
      sentCount: 8,
      failedCount: 2,
      countersVersion: 4,
    });
  });

  it('keep the newest counts when an older fold arrives late', async () => {
    const campaign = await storedCampaign({ status: 'sending' });
    await foldCounters(campaign, { sent: 7, failed: 1, version: 9 });

    await foldCounters(campaign, { sent: 6, failed: 1, version: 8 });
    await foldCounters(campaign, { sent: 1, failed: 0, version: 9 });

    expect(await reread(campaign)).toMatchObject({
      sentCount: 7,
      failedCount: 1,
      countersVersion: 9,
    });
  });

  it('leave a new round alone when a fold of the round before arrives late', async () => {
    const campaign = await storedCampaign({ status: 'sending', round: 2, roundBaseSent: 4 });

    await foldCounters(
      { ...campaign, round: 1, roundBaseSent: 0 },
      { sent: 4, failed: 3, version: 6 },
    );

    expect(await reread(campaign)).toMatchObject({
      sentCount: 0,
      failedCount: 0,
      countersVersion: 0,
    });
  });

  it('change only their own campaign', async () => {
    const other = await storedCampaign({ status: 'sending' });
    const campaign = await storedCampaign({ status: 'sending' });

    await foldCounters(campaign, { sent: 2, failed: 0, version: 1 });

    expect(await reread(other)).toEqual(other);
    expect(await reread(campaign)).toMatchObject({ sentCount: 2 });
  });
});

describe('the total of the first round', () => {
  it('grows while the recipients are streamed and never shrinks when a resume streams them again', async () => {
    const campaign = await storedCampaign({ status: 'sending' });
    const id = String(campaign._id);

    await recordTotal(id, 500);
    await recordTotal(id, 1000);
    expect((await reread(campaign)).total).toBe(1000);

    await recordTotal(id, 500);
    expect((await reread(campaign)).total).toBe(1000);
  });

  it('is left as it was by a resend round', async () => {
    const campaign = await storedCampaign({ status: 'sending', round: 2, total: 40 });

    await recordTotal(String(campaign._id), 60);

    expect((await reread(campaign)).total).toBe(40);
  });

  it('is counted only for its own campaign', async () => {
    const other = await storedCampaign({ status: 'sending' });
    const campaign = await storedCampaign({ status: 'sending' });

    await recordTotal(String(campaign._id), 12);

    expect(await reread(other)).toEqual(other);
    expect((await reread(campaign)).total).toBe(12);
  });
});

describe('finishing a round', () => {
  it('marks the campaign sent with its final counts, when it finished, and how many were mailed', async () => {
    const campaign = await storedCampaign({ status: 'sending', total: 9, countersVersion: 3 });
    const before = new Date();

    expect(await finishRound(campaign, { sent: 6, failed: 2, version: 5 })).toBe('sent');

    const finished = await reread(campaign);
    expect(finished).toMatchObject({
      status: 'sent',
      sentCount: 6,
      failedCount: 2,
      countersVersion: 5,
      // One left the list between two passes: the total is who was mailed.
      total: 8,
    });
    expectRecent(finished.finishedAt, before);
  });

  it('marks the campaign failed when nobody at all received it', async () => {
    const campaign = await storedCampaign({ status: 'sending' });

    expect(await finishRound(campaign, { sent: 0, failed: 3, version: 3 })).toBe('failed');

    expect(await reread(campaign)).toMatchObject({
      status: 'failed',
      sentCount: 0,
      failedCount: 3,
    });
  });

  it('marks a resend sent when this round reached nobody but an earlier one did, keeping the total', async () => {
    const campaign = await storedCampaign({
      status: 'sending',
      round: 2,
      roundBaseSent: 4,
      sentCount: 4,
      total: 6,
    });

    expect(await finishRound(campaign, { sent: 0, failed: 2, version: 2 })).toBe('sent');

    expect(await reread(campaign)).toMatchObject({
      status: 'sent',
      sentCount: 4,
      failedCount: 2,
      total: 6,
    });
  });

  it('marks a round with nobody to mail sent, with its counters marked as folded', async () => {
    const campaign = await storedCampaign({ status: 'queued' });

    expect(await finishRound(campaign, { sent: 0, failed: 0, version: 0 })).toBe('sent');

    // Version 1 at least: a fold still in flight from the round cannot overwrite the final counts.
    expect(await reread(campaign)).toMatchObject({
      status: 'sent',
      sentCount: 0,
      failedCount: 0,
      total: 0,
      countersVersion: 1,
    });
  });

  it.each(['queued', 'sending', 'paused'] as const)(
    'finishes a %s campaign with nothing left to send',
    async (status) => {
      const campaign = await storedCampaign({ status });

      expect(await finishRound(campaign, { sent: 1, failed: 0, version: 1 })).toBe('sent');

      expect((await reread(campaign)).status).toBe('sent');
    },
  );

  it.each(['cancelled', 'sent', 'draft'] as const)(
    'leaves a %s campaign as it is and answers that nothing was finished',
    async (status) => {
      const campaign = await storedCampaign({ status });

      expect(await finishRound(campaign, { sent: 1, failed: 0, version: 1 })).toBeNull();

      expect(await reread(campaign)).toEqual(campaign);
    },
  );

  it('does not finish a newer round from a late finish of the round before', async () => {
    const campaign = await storedCampaign({ status: 'sending', round: 2, roundBaseSent: 3 });

    expect(
      await finishRound({ ...campaign, round: 1 }, { sent: 3, failed: 1, version: 4 }),
    ).toBeNull();

    expect(await reread(campaign)).toEqual(campaign);
  });

  it('finishes only its own campaign', async () => {
    const other = await storedCampaign({ status: 'sending' });
    const campaign = await storedCampaign({ status: 'sending' });

    expect(await finishRound(campaign, { sent: 1, failed: 0, version: 1 })).toBe('sent');

    expect(await reread(other)).toEqual(other);
  });
});

describe('queued campaigns whose dispatch may have been lost', () => {
  it('are those queued longer ago than the age given, with their round and pass', async () => {
    const stuck = await storedCampaign({
      status: 'queued',
      queuedAt: minutesAgo(10),
      round: 2,
      pass: 3,
    });
    await storedCampaign({ status: 'queued', queuedAt: minutesAgo(1) });
    await storedCampaign({ status: 'sending', queuedAt: minutesAgo(10) });
    await storedCampaign({ status: 'draft' });

    expect(await findStuckQueuedCampaigns(5 * 60_000)).toEqual([
      { id: String(stuck._id), round: 2, pass: 3 },
    ]);
  });
});
