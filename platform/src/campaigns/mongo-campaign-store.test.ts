import { Types } from 'mongoose';
import { DEFAULT_TEMPLATE, type CampaignRecipient } from '@agency/contracts';
import { ContactModel } from '../contact/contact.model';
import { SubscriberModel } from '../newsletter/subscriber.model';
import {
  createQueuedCampaign,
  seedContacts,
  seedSubscribers,
  storedCampaign,
} from '../testing/campaign-fixtures';
import { collect } from '../testing/collect';
import { useFileDatabase } from '../testing/file-database';
import { CampaignModel } from './campaign.model';
import { CampaignBatchModel, CampaignOutcomeModel } from './campaign-batch.model';
import type { CampaignSendState, PositionedOutcome } from './campaign-store';
import { CampaignTemplateModel } from './campaign-template.model';
import { mongoCampaignStore as store } from './mongo-campaign-store';
import { walkKeysInMemory } from '../audience/walk-keys';

const recipient = (name: string, locale = 'en'): CampaignRecipient => ({
  key: `${name.toLowerCase()}@example.tn`,
  email: `${name}@example.tn`,
  firstName: name,
  lastName: '',
  locale,
});
const sent = (position: number, who: CampaignRecipient, attempts = 1): PositionedOutcome => ({
  position,
  email: who.email,
  outcome: { state: 'sent', attempts },
});
const failed = (position: number, who: CampaignRecipient, reason: string): PositionedOutcome => ({
  position,
  email: who.email,
  outcome: { state: 'failed', reason, attempts: 1 },
});

/**
 * The campaign engine's store over the shared models, against the
 * MongoDB-wire server: the audience a send walks, the ledger of rosters and
 * outcomes, and the campaign's state and counters.
 */
describe("the campaign engine's store", () => {
  useFileDatabase('campaign-store');
  beforeEach(async () => {
    await Promise.all(
      [
        ContactModel,
        SubscriberModel,
        CampaignModel,
        CampaignBatchModel,
        CampaignOutcomeModel,
        CampaignTemplateModel,
      ].map((model) => (model as typeof ContactModel).deleteMany({})),
    );
  });

  const state = async (id: string) => {
    const found = await store.sendState(id);
    if (!found) throw new Error(`no campaign ${id}`);
    return found;
  };

  describe('the audience', () => {
    beforeEach(async () => {
      await seedContacts([
        { email: 'Amira@example.tn', firstName: 'Amira', locale: 'fr' },
        { email: 'amira@EXAMPLE.tn', firstName: 'Amira again' },
        { email: 'both@example.tn', firstName: 'Both' },
        { email: 'left@example.tn', firstName: 'Left' },
      ]);
      await seedSubscribers([
        { email: 'both@example.tn', status: 'confirmed', locale: 'ar' },
        { email: 'confirmed@example.tn', status: 'confirmed', locale: 'ar' },
        { email: 'waiting@example.tn', status: 'pending' },
        { email: 'left@example.tn', status: 'unsubscribed' },
      ]);
    });

    it.each([
      ['contacts', ['amira@example.tn', 'both@example.tn']],
      ['subscribers', ['both@example.tn', 'confirmed@example.tn']],
      ['all', ['amira@example.tn', 'both@example.tn', 'confirmed@example.tn']],
    ] as const)(
      '%s: one recipient per normalised address, never the unsubscribed or unconfirmed',
      async (type, keys) => {
        const walked = await collect(
          store.audience({ recipientType: type, listIds: [] }, walkKeysInMemory()),
        );
        expect(walked.map(({ key }) => key).sort()).toEqual(keys);
      },
    );

    it('takes a contact before a subscriber of the same address: it has a name', async () => {
      const walked = await collect(
        store.audience({ recipientType: 'all', listIds: [] }, walkKeysInMemory()),
      );
      expect(walked.find(({ key }) => key === 'both@example.tn')).toEqual({
        key: 'both@example.tn',
        email: 'both@example.tn',
        firstName: 'Both',
        lastName: 'Test',
        locale: 'en',
        // Counted under the contacts, the source it was found in first.
        source: 0,
      });
      expect(walked.find(({ key }) => key === 'confirmed@example.tn')?.source).toBe(1);
      expect(walked.find(({ key }) => key === 'amira@example.tn')).toMatchObject({
        email: 'Amira@example.tn',
        locale: 'fr',
      });
    });
  });

  describe('the ledger', () => {
    const [amira, sami, nour] = [recipient('Amira', 'fr'), recipient('Sami'), recipient('Nour')];
    let id: string;

    beforeEach(async () => {
      id = await createQueuedCampaign();
      await store.addBatches(id, 1, [
        { seq: 0, recipients: [amira, sami] },
        { seq: 1, recipients: [nour] },
      ]);
    });

    it("keeps each recipient's source in the roster, and none for a recipient without one", async () => {
      const other = await createQueuedCampaign();
      await store.addBatches(other, 1, [{ seq: 0, recipients: [{ ...amira, source: 3 }, sami] }]);
      const [batch] = await collect(store.roundBatches(other, 1));
      expect(batch?.recipients).toEqual([{ ...amira, source: 3 }, sami]);
      expect(batch?.recipients[1]).not.toHaveProperty('source');
    });

    it('holds each batch once, however often the dispatch adds it', async () => {
      await store.addBatches(id, 1, [
        { seq: 0, recipients: [nour] },
        { seq: 2, recipients: [nour] },
      ]);
      const batches = await collect(store.roundBatches(id, 1));
      expect(batches.sort((a, b) => a.seq - b.seq)).toEqual([
        { seq: 0, recipients: [amira, sami], states: ['pending', 'pending'] },
        { seq: 1, recipients: [nour], states: ['pending'] },
        { seq: 2, recipients: [nour], states: ['pending'] },
      ]);
    });

    it('keeps each recipient as they are mailed, an unknown last name as an empty one', async () => {
      const nameless: CampaignRecipient = {
        key: 'hela@example.tn',
        email: 'Hela@example.tn',
        firstName: 'Hela',
        locale: 'en',
      };
      await store.addBatches(id, 1, [{ seq: 3, recipients: [nameless] }]);

      const batches = await collect(store.roundBatches(id, 1));
      expect(batches.find(({ seq }) => seq === 3)?.recipients).toEqual([
        { ...nameless, lastName: '' },
      ]);
    });

    it("joins each batch's outcomes to its roster, and keeps the first outcome of each", async () => {
      await store.recordOutcomes(id, 1, 0, [sent(1, sami)]);
      await store.recordOutcomes(id, 1, 0, [failed(1, sami, '550 late'), sent(0, amira, 2)]);

      const [first] = (await collect(store.roundBatches(id, 1))).sort((a, b) => a.seq - b.seq);
      expect(first?.states).toEqual(['sent', 'sent']);
      const [outcomes] = await CampaignOutcomeModel.find({ _id: `${id}:1:0` }).lean();
      expect(outcomes?.outcomes).toEqual([
        { position: 1, email: sami.email, state: 'sent', attempts: 1, at: expect.any(Date) },
        { position: 0, email: amira.email, state: 'sent', attempts: 2, at: expect.any(Date) },
      ]);
    });

    it('writes a failed outcome with its reason, and nothing for a run without outcomes', async () => {
      await store.recordOutcomes(id, 1, 1, []);
      expect(await CampaignOutcomeModel.countDocuments({ _id: `${id}:1:1` })).toBe(0);

      await store.recordOutcomes(id, 1, 1, [failed(0, nour, '550 no such user')]);
      const [outcomes] = await CampaignOutcomeModel.find({ _id: `${id}:1:1` }).lean();
      expect(outcomes?.outcomes).toEqual([
        {
          position: 0,
          email: nour.email,
          state: 'failed',
          reason: '550 no such user',
          attempts: 1,
          at: expect.any(Date),
        },
      ]);
    });

    it('writes nothing when a batch run again has no new outcome', async () => {
      await store.recordOutcomes(id, 1, 0, [sent(0, amira), sent(1, sami)]);
      const updates = jest.spyOn(CampaignOutcomeModel.collection, 'updateOne');
      try {
        await store.recordOutcomes(id, 1, 0, [sent(1, sami, 2)]);
        expect(updates).not.toHaveBeenCalled();
      } finally {
        updates.mockRestore();
      }
    });

    it('adds nothing for no batches, and does not take a failed write for a batch already there', async () => {
      await expect(store.addBatches(id, 1, [])).resolves.toBeUndefined();
      const insert = jest
        .spyOn(CampaignBatchModel.collection, 'insertMany')
        .mockRejectedValueOnce(new Error('the store is down'));
      try {
        await expect(store.addBatches(id, 1, [{ seq: 2, recipients: [nour] }])).rejects.toThrow(
          'the store is down',
        );
      } finally {
        insert.mockRestore();
      }
    });

    it('does not take a failed outcome write for outcomes already there', async () => {
      const insert = jest
        .spyOn(CampaignOutcomeModel.collection, 'insertOne')
        .mockRejectedValueOnce(new Error('the store is down'));
      try {
        await expect(store.recordOutcomes(id, 1, 0, [sent(0, amira)])).rejects.toThrow(
          'the store is down',
        );
      } finally {
        insert.mockRestore();
      }
      expect(await CampaignOutcomeModel.countDocuments({ _id: `${id}:1:0` })).toBe(0);
    });

    /** The projection of each call of `method` on `collection` while `read` runs. */
    async function projectionsOf(
      collection: object,
      method: 'find' | 'findOne',
      read: () => Promise<unknown>,
    ): Promise<unknown[]> {
      const calls = jest.spyOn(collection as Record<typeof method, () => unknown>, method);
      try {
        await read();
        return calls.mock.calls.map((args) => (args as unknown[])[1]);
      } finally {
        calls.mockRestore();
      }
    }

    // The embedded store decodes every field a read asks for: each read of the ledger asks for what its step uses.
    it('reads of the outcomes only the states to resume, and the whole lines only for a resend', async () => {
      await store.recordOutcomes(id, 1, 0, [failed(0, amira, '550 no'), sent(1, sami)]);

      const forResume = await projectionsOf(CampaignOutcomeModel.collection, 'find', () =>
        collect(store.roundBatches(id, 1)),
      );
      expect(forResume).toEqual([
        { projection: { seq: 1, 'outcomes.position': 1, 'outcomes.state': 1 } },
      ]);
      const rosters = await projectionsOf(CampaignBatchModel.collection, 'find', () =>
        collect(store.roundBatches(id, 1)),
      );
      expect(rosters).toEqual([{ projection: { seq: 1, recipients: 1 } }]);

      const forResend = await projectionsOf(CampaignOutcomeModel.collection, 'find', () =>
        collect(store.failedRecipients(id, 1)),
      );
      expect(forResend).toEqual([{ projection: { outcomes: 1 } }]);
      const rosterOfResend = await projectionsOf(CampaignBatchModel.collection, 'findOne', () =>
        collect(store.failedRecipients(id, 1)),
      );
      expect(rosterOfResend).toEqual([{ projection: { recipients: 1 } }]);

      const knownOutcomes = await projectionsOf(CampaignOutcomeModel.collection, 'findOne', () =>
        store.recordOutcomes(id, 1, 0, [sent(0, amira, 2)]),
      );
      expect(knownOutcomes).toEqual([{ projection: { outcomes: 1 } }]);
    });

    it("gives a resend the round's failed recipients as they were mailed, without who left since", async () => {
      await store.recordOutcomes(id, 1, 0, [failed(0, amira, '550 no'), sent(1, sami)]);
      await store.recordOutcomes(id, 1, 1, [failed(0, nour, '451 later')]);
      await seedSubscribers([{ email: 'nour@example.tn', status: 'unsubscribed' }]);

      expect(await collect(store.failedRecipients(id, 1))).toEqual([amira]);
      expect(await collect(store.failedRecipients(id, 2))).toEqual([]);
    });
  });

  describe("the campaign's state", () => {
    it('begins sending once: queued becomes sending, the first start is kept', async () => {
      const id = await createQueuedCampaign();
      const begun = await store.beginSending(id);
      expect(begun).toMatchObject({ id, status: 'sending', round: 1, pass: 1 });
      const { startedAt } = await storedCampaign(id);
      expect(startedAt).toBeInstanceOf(Date);

      await CampaignModel.updateOne({ _id: id }, { status: 'queued', pass: 2 });
      expect(await store.beginSending(id)).toMatchObject({ status: 'sending', pass: 2 });
      expect((await storedCampaign(id)).startedAt).toEqual(startedAt);

      await CampaignModel.updateOne({ _id: id }, { status: 'paused' });
      const writes = jest.spyOn(CampaignModel, 'findOneAndUpdate');
      const reads = jest.spyOn(CampaignModel, 'findById');
      try {
        expect(await store.beginSending(id)).toMatchObject({ status: 'paused' });
        // A campaign not queued is only read, and only for its send state and first start.
        expect(writes).not.toHaveBeenCalled();
        expect(reads.mock.calls.map((args) => Object.keys(args[1] as object).sort())).toEqual([
          [
            'countersVersion',
            'dispatchedRound',
            'enquiryLawfulBasis',
            'listIds',
            'pass',
            'queuedAt',
            'ratePerMinute',
            'recipientType',
            'round',
            'roundBaseSent',
            'segmentIds',
            'sendingWindow',
            'startedAt',
            'status',
            'updatedAt',
          ],
        ]);
      } finally {
        writes.mockRestore();
        reads.mockRestore();
      }
      expect(await store.beginSending(new Types.ObjectId().toHexString())).toBeNull();
      expect(await store.sendState('not-an-id')).toBeNull();
    });

    it('reads the whole send state a batch needs', async () => {
      const listId = new Types.ObjectId();
      const queuedAt = new Date('2026-11-20T10:00:00Z');
      const id = await createQueuedCampaign({
        recipientType: 'lists',
        sendingWindow: { days: [1, 2], start: '09:00', end: '17:00' },
        ratePerMinute: 90,
      });
      await CampaignModel.updateOne(
        { _id: id },
        {
          listIds: [listId],
          enquiryLawfulBasis: 'contract',
          status: 'sending',
          round: 2,
          pass: 3,
          roundBaseSent: 40,
          countersVersion: 7,
          dispatchedRound: 1,
          queuedAt,
        },
      );
      const { updatedAt } = await storedCampaign(id);

      expect(await state(id)).toEqual({
        id,
        status: 'sending',
        recipientType: 'lists',
        listIds: [String(listId)],
        segmentIds: [],
        enquiryLawfulBasis: 'contract',
        round: 2,
        pass: 3,
        roundBaseSent: 40,
        countersVersion: 7,
        dispatchedRound: 1,
        queuedAt,
        updatedAt,
        sendingWindow: { days: [1, 2], start: '09:00', end: '17:00' },
        ratePerMinute: 90,
      });
    });

    it('reads a campaign stored before the send state had all its fields, with their defaults', async () => {
      const updatedAt = new Date('2026-01-05T08:00:00Z');
      const { insertedId } = await CampaignModel.collection.insertOne({
        name: 'Older',
        subject: 'Hello',
        content: '<p>Hi</p>',
        recipientType: 'all',
        status: 'sending',
        round: 1,
        pass: 1,
        roundBaseSent: 0,
        countersVersion: 0,
        updatedAt,
      });

      expect(await state(String(insertedId))).toEqual({
        id: String(insertedId),
        status: 'sending',
        recipientType: 'all',
        listIds: [],
        segmentIds: [],
        enquiryLawfulBasis: null,
        round: 1,
        pass: 1,
        roundBaseSent: 0,
        countersVersion: 0,
        dispatchedRound: 0,
        queuedAt: null,
        updatedAt,
        sendingWindow: null,
        ratePerMinute: null,
      });
    });

    it('reads the mail apart from the state, and never the mail with the state', async () => {
      const id = await createQueuedCampaign({ subject: 'Hi {{firstName}}' });
      expect(await store.mail(id)).toMatchObject({
        defaultLocale: 'en',
        languages: { en: { subject: 'Hi {{firstName}}' } },
        template: { layout: DEFAULT_TEMPLATE.layout },
      });
      expect(Object.keys(await state(id))).not.toContain('content');
    });

    it('reads the state without the mail, and the mail without the audience', async () => {
      const id = await createQueuedCampaign();
      const stateRead = jest.spyOn(CampaignModel.collection, 'findOne');
      const mailRead = jest.spyOn(CampaignModel, 'findById');
      try {
        await store.sendState(id);
        expect(stateRead.mock.calls.map((args) => (args as unknown[])[1])).toEqual([
          {
            projection: {
              status: 1,
              recipientType: 1,
              listIds: 1,
              segmentIds: 1,
              enquiryLawfulBasis: 1,
              round: 1,
              pass: 1,
              roundBaseSent: 1,
              countersVersion: 1,
              dispatchedRound: 1,
              queuedAt: 1,
              updatedAt: 1,
              sendingWindow: 1,
              ratePerMinute: 1,
            },
          },
        ]);
        await store.mail(id);
        expect(mailRead.mock.calls.map((args) => args[1])).toEqual([
          {
            subject: 1,
            content: 1,
            defaultLocale: 1,
            translations: 1,
            placeholderFallbacks: 1,
            templateId: 1,
            queuedAt: 1,
            fromAddress: 1,
            replyTo: 1,
            tracking: 1,
          },
        ]);
      } finally {
        stateRead.mockRestore();
        mailRead.mockRestore();
      }
    });

    it('reads the mail in every language it is written in, in its template', async () => {
      const template = await CampaignTemplateModel.create({
        name: 'Newsletter',
        header: '<h1>News</h1>',
        footer: '<p>See you</p>',
        layout: '<div>{{header}}{{content}}{{footer}}</div>',
        brandColor: '#111111',
        backgroundColor: '#222222',
        textColor: '#333333',
      });
      const id = await createQueuedCampaign({
        subject: 'Hello',
        content: '<p>Hi</p>',
        translations: [{ locale: 'fr', subject: 'Bonjour', content: '<p>Salut</p>' }],
      });
      await CampaignModel.updateOne({ _id: id }, { templateId: template._id });

      expect(await store.mail(id)).toEqual({
        defaultLocale: 'en',
        languages: {
          en: { subject: 'Hello', content: '<p>Hi</p>' },
          fr: { subject: 'Bonjour', content: '<p>Salut</p>' },
        },
        // Set none: the rendering says the shipped defaults.
        placeholderFallbacks: null,
        template: {
          header: '<h1>News</h1>',
          footer: '<p>See you</p>',
          layout: '<div>{{header}}{{content}}{{footer}}</div>',
          brandColor: '#111111',
          backgroundColor: '#222222',
          textColor: '#333333',
        },
        queuedAt: expect.any(Date),
        // The agency's first-run sender and texts: no admin saved settings here.
        sender: { from: '"Agency" <no-reply@agency.local>', replyTo: 'no-reply@agency.local' },
        agency: expect.objectContaining({ postalAddress: '' }),
        // Before the send starts: the switches, no key, no table.
        tracking: { opens: true, clicks: true, key: null, keyDestroyed: false, links: [] },
      });
    });

    it('reads the mail in its own default language, and an older one with the defaults', async () => {
      const french = await createQueuedCampaign({
        subject: 'Bonjour',
        content: '<p>Salut</p>',
        defaultLocale: 'fr',
      });
      expect(await store.mail(french)).toMatchObject({
        defaultLocale: 'fr',
        languages: { fr: { subject: 'Bonjour', content: '<p>Salut</p>' } },
      });

      const { insertedId } = await CampaignModel.collection.insertOne({
        name: 'Older',
        subject: 'Hello',
        content: '<p>Hi</p>',
        recipientType: 'all',
        status: 'sending',
      });
      expect(await store.mail(String(insertedId))).toEqual({
        defaultLocale: 'en',
        languages: { en: { subject: 'Hello', content: '<p>Hi</p>' } },
        placeholderFallbacks: null,
        template: {
          header: DEFAULT_TEMPLATE.header,
          footer: DEFAULT_TEMPLATE.footer,
          layout: DEFAULT_TEMPLATE.layout,
          brandColor: DEFAULT_TEMPLATE.brandColor,
          backgroundColor: DEFAULT_TEMPLATE.backgroundColor,
          textColor: DEFAULT_TEMPLATE.textColor,
        },
        queuedAt: null,
        // The agency's first-run sender and texts: no admin saved settings here.
        sender: { from: '"Agency" <no-reply@agency.local>', replyTo: 'no-reply@agency.local' },
        agency: expect.objectContaining({ postalAddress: '' }),
        // Stored before there was tracking: the model's switches, as the dashboard shows them.
        tracking: { opens: true, clicks: true, key: null, keyDestroyed: false, links: [] },
      });
    });

    it('reads a template stored without header or footer as empty ones, and a missing one as the default', async () => {
      const { insertedId } = await CampaignTemplateModel.collection.insertOne({
        name: 'Bare',
        layout: '<div>{{content}}</div>',
        brandColor: '#111111',
        backgroundColor: '#222222',
        textColor: '#333333',
      });
      const bare = await createQueuedCampaign();
      await CampaignModel.updateOne({ _id: bare }, { templateId: insertedId });
      const gone = await createQueuedCampaign();
      await CampaignModel.updateOne({ _id: gone }, { templateId: new Types.ObjectId() });

      expect((await store.mail(bare))?.template).toMatchObject({ header: '', footer: '' });
      expect((await store.mail(gone))?.template).toEqual({
        header: DEFAULT_TEMPLATE.header,
        footer: DEFAULT_TEMPLATE.footer,
        layout: DEFAULT_TEMPLATE.layout,
        brandColor: DEFAULT_TEMPLATE.brandColor,
        backgroundColor: DEFAULT_TEMPLATE.backgroundColor,
        textColor: DEFAULT_TEMPLATE.textColor,
      });
      expect(await store.mail(new Types.ObjectId().toHexString())).toBeNull();
    });

    it('writes only the campaign it is given, never the one stored before it', async () => {
      const other = await createQueuedCampaign();
      const before = await CampaignModel.findById(other).lean();
      const id = await createQueuedCampaign();
      const scheduledAt = new Date(Date.now() - 1000);
      await CampaignModel.updateOne({ _id: id }, { status: 'scheduled', scheduledAt });

      expect(await store.startScheduled(id, scheduledAt)).toBe(true);
      expect(await store.beginSending(id)).toMatchObject({ status: 'sending' });
      await store.recordTotal(id, 5);
      await store.markDispatched(id, 1, 5, {});
      await store.foldCounters(await state(id), { sent: 1, failed: 0, version: 1 });
      expect(await store.finishRound(await state(id), { sent: 5, failed: 0, version: 2 })).toBe(
        'sent',
      );

      expect(await storedCampaign(id)).toMatchObject({ status: 'sent', total: 5, sentCount: 5 });
      expect(await CampaignModel.findById(other).lean()).toEqual(before);
    });

    it('folds counters only when they are newer than those it holds', async () => {
      const id = await createQueuedCampaign();
      await CampaignModel.updateOne({ _id: id }, { status: 'sending', roundBaseSent: 10 });
      const campaign = await state(id);
      await store.foldCounters(campaign, { sent: 5, failed: 1, version: 3 });
      await store.foldCounters(campaign, { sent: 4, failed: 1, version: 2 });
      expect(await storedCampaign(id)).toMatchObject({
        sentCount: 15,
        failedCount: 1,
        countersVersion: 3,
      });
    });

    it("takes the counted total, then the dispatch's exact one, which a late count leaves", async () => {
      const id = await createQueuedCampaign();
      await store.recordTotal(id, 72);
      expect(await storedCampaign(id)).toMatchObject({ total: 72, dispatchedRound: 0 });
      await store.markDispatched(id, 1, 70, { s0: 52, s1: 18 });
      expect(await storedCampaign(id)).toMatchObject({
        total: 70,
        dispatchedRound: 1,
        mailsPerSource: { s0: 52, s1: 18 },
      });
      await store.recordTotal(id, 75);
      expect(await storedCampaign(id)).toMatchObject({ total: 70 });

      // A resend round mails some of them again: the campaign's total stays.
      await CampaignModel.updateOne({ _id: id }, { round: 2 });
      await store.recordTotal(id, 90);
      await store.markDispatched(id, 2, 90, { s0: 90 });
      expect(await storedCampaign(id)).toMatchObject({
        total: 70,
        dispatchedRound: 2,
        mailsPerSource: { s0: 52, s1: 18 },
      });
    });

    it.each([
      ['sending', { sent: 2, failed: 1 }, 'sent'],
      ['paused', { sent: 2, failed: 0 }, 'sent'],
      ['sending', { sent: 0, failed: 3 }, 'failed'],
      ['queued', { sent: 0, failed: 0 }, 'sent'],
      ['cancelled', { sent: 2, failed: 0 }, null],
    ] as const)('ends a %s round with %j as %s', async (status, counts, ended) => {
      const id = await createQueuedCampaign();
      await CampaignModel.updateOne({ _id: id }, { status });
      expect(await store.finishRound(await state(id), { ...counts, version: 4 })).toBe(ended);
      if (ended) {
        expect(await storedCampaign(id)).toMatchObject({
          status: ended,
          sentCount: counts.sent,
          failedCount: counts.failed,
          total: counts.sent + counts.failed,
          countersVersion: 4,
        });
      } else {
        expect(await storedCampaign(id)).toMatchObject({ status });
      }
    });

    it('ends a resend round adding its mails to those sent before, its total untouched', async () => {
      const id = await createQueuedCampaign();
      await CampaignModel.updateOne(
        { _id: id },
        { status: 'sending', round: 2, roundBaseSent: 6, total: 7 },
      );

      expect(await store.finishRound(await state(id), { sent: 1, failed: 0, version: 0 })).toBe(
        'sent',
      );

      expect(await storedCampaign(id)).toMatchObject({
        status: 'sent',
        sentCount: 7,
        failedCount: 0,
        total: 7,
        countersVersion: 1,
      });
    });

    it('finds campaigns left queued, or sending without a change, for longer than asked', async () => {
      const old = new Date(Date.now() - 10 * 60_000);
      const queued = await createQueuedCampaign();
      const sending = await createQueuedCampaign();
      const fresh = await createQueuedCampaign();
      await createQueuedCampaign();
      await CampaignModel.collection.updateOne(
        { _id: new Types.ObjectId(queued) },
        { $set: { queuedAt: old } },
      );
      await CampaignModel.collection.updateOne(
        { _id: new Types.ObjectId(sending) },
        { $set: { status: 'sending', updatedAt: old } },
      );
      await CampaignModel.updateOne({ _id: fresh }, { status: 'sending' });

      const ids = (found: CampaignSendState[]) => found.map(({ id }) => id);
      expect(ids(await store.stuckQueued(60_000))).toEqual([queued]);
      expect(ids(await store.stalledSending(60_000))).toEqual([sending]);
    });
  });
});
