import { Types, type mongo } from 'mongoose';
import type { CampaignStatus } from '@agency/contracts';
import { createLogger } from '../logger';
import { collect } from '../testing/collect';
import { useFileDatabase } from '../testing/file-database';
import { CampaignModel } from './campaign.model';
import { CampaignBatchModel, CampaignOutcomeModel } from './campaign-batch.model';
import { LEGACY_LEDGER_COLLECTION, migrateLegacyLedger } from './legacy-ledger-migration';
import { mongoCampaignStore as store } from './mongo-campaign-store';

const logger = createLogger('test', 'silent');
/** The old ledger's collection, as the facts were stored: ids are strings. */
const legacy = () =>
  CampaignModel.db.collection(LEGACY_LEDGER_COLLECTION) as unknown as mongo.Collection<{
    _id: string;
  }>;
const migrate = () => migrateLegacyLedger({ batchSize: 2, logger });

async function campaignWith(status: CampaignStatus): Promise<Types.ObjectId> {
  const { _id } = await CampaignModel.create({
    name: `A ${status} campaign`,
    subject: 'Hello',
    content: 'Hello {{firstName}}',
    status,
  });
  return _id;
}

const at = new Date('2026-10-01T09:00:00Z');
const key = (name: string) => `${name}@example.tn`;

/** The facts the per-recipient ledger held: a pending fact per recipient, an outcome per mail answered. */
function pendingFact(campaign: Types.ObjectId, round: number, name: string) {
  return {
    _id: `${String(campaign)}:${round}:pending:${key(name)}`,
    campaign,
    round,
    state: 'pending',
    email: `${name[0]?.toUpperCase()}${name.slice(1)}@example.tn`,
    firstName: name,
    locale: 'fr',
    at,
  };
}

function outcomeFact(
  campaign: Types.ObjectId,
  round: number,
  name: string,
  outcome: { state: 'sent' | 'failed'; reason?: string; attempts?: number },
) {
  return {
    _id: `${String(campaign)}:${round}:${key(name)}`,
    campaign,
    round,
    email: `${name[0]?.toUpperCase()}${name.slice(1)}@example.tn`,
    ...outcome,
    at,
  };
}

/**
 * Installations from before the ledger per batch: their campaigns' facts
 * move into rosters and outcomes, which the recipients dialog and resend to
 * the failed read, against the MongoDB-wire server.
 */
describe('moving the per-recipient campaign ledger into the ledger per batch', () => {
  useFileDatabase('legacy-ledger');
  beforeEach(async () => {
    await Promise.all([
      CampaignModel.deleteMany({}),
      CampaignBatchModel.deleteMany({}),
      CampaignOutcomeModel.deleteMany({}),
      legacy().deleteMany({}),
    ]);
  });

  it("copies an ended campaign's rounds into batches, with each outcome at its recipient, then deletes the facts", async () => {
    const campaign = await campaignWith('sent');
    await legacy().insertMany([
      pendingFact(campaign, 1, 'emna'),
      pendingFact(campaign, 1, 'cyrine'),
      pendingFact(campaign, 1, 'amira'),
      pendingFact(campaign, 1, 'dali'),
      pendingFact(campaign, 1, 'badis'),
      outcomeFact(campaign, 1, 'amira', { state: 'sent', attempts: 1 }),
      outcomeFact(campaign, 1, 'badis', {
        state: 'failed',
        reason: '550 5.1.1 no such user',
        attempts: 2,
      }),
      pendingFact(campaign, 2, 'badis'),
      outcomeFact(campaign, 2, 'badis', { state: 'sent' }),
      outcomeFact(campaign, 2, 'zied', { state: 'sent' }),
    ]);

    await expect(migrate()).resolves.toEqual({ migrated: 1, orphaned: 0, leftActive: 0 });

    const id = String(campaign);
    const round1 = await collect(store.roundBatches(id, 1));
    // Batches of two, in the order of the facts' ids: the same batches however often it runs.
    expect(
      round1.map(({ seq, recipients, states }) => ({
        seq,
        states,
        keys: recipients.map((r) => r.key),
      })),
    ).toEqual([
      { seq: 0, keys: [key('amira'), key('badis')], states: ['sent', 'failed'] },
      { seq: 1, keys: [key('cyrine'), key('dali')], states: ['pending', 'pending'] },
      { seq: 2, keys: [key('emna')], states: ['pending'] },
    ]);
    expect(round1[0]?.recipients[0]).toEqual({
      key: key('amira'),
      email: 'Amira@example.tn',
      firstName: 'amira',
      lastName: '',
      locale: 'fr',
    });
    const roster = await CampaignBatchModel.findById(`${id}:1:0`).lean();
    expect(roster?.createdAt).toEqual(at);
    const round2 = await collect(store.roundBatches(id, 2));
    expect(round2.map(({ recipients, states }) => [recipients.map((r) => r.key), states])).toEqual([
      [
        [key('badis'), key('zied')],
        ['sent', 'sent'],
      ],
    ]);

    // The server's reply, the attempts and the time stay what the send wrote.
    const outcomes = await CampaignOutcomeModel.findById(`${id}:1:0`).lean();
    expect(outcomes?.outcomes).toEqual([
      { position: 0, email: 'Amira@example.tn', state: 'sent', attempts: 1, at },
      {
        position: 1,
        email: 'Badis@example.tn',
        state: 'failed',
        reason: '550 5.1.1 no such user',
        attempts: 2,
        at,
      },
    ]);
    // A batch nobody was answered in has no outcome document.
    expect(await CampaignOutcomeModel.countDocuments({ campaign })).toBe(2);
    // Resend to the failed finds them in the new ledger.
    const failed = await collect(store.failedRecipients(id, 1));
    expect(failed.map(({ key: recipient }) => recipient)).toEqual([key('badis')]);
    expect(await legacy().countDocuments({ campaign })).toBe(0);
  });

  it('puts a recipient with an outcome but no pending fact at the end of its round', async () => {
    const campaign = await campaignWith('failed');
    await legacy().insertMany([
      pendingFact(campaign, 1, 'amira'),
      outcomeFact(campaign, 1, 'zied', { state: 'failed', reason: '554 rejected' }),
      outcomeFact(campaign, 1, 'yasmine', { state: 'sent' }),
    ]);

    await migrateLegacyLedger({ batchSize: 3, logger });

    const batches = await collect(store.roundBatches(String(campaign), 1));
    expect(batches.map(({ recipients, states }) => [recipients.map((r) => r.key), states])).toEqual(
      [
        [
          [key('amira'), key('yasmine'), key('zied')],
          ['pending', 'sent', 'failed'],
        ],
      ],
    );
    expect(batches[0]?.recipients[2]).toMatchObject({ firstName: '', locale: 'en' });
  });

  it('tells apart, chunk by chunk, the outcomes that have a pending fact from those that have none', async () => {
    const campaign = await campaignWith('sent');
    await legacy().insertMany([
      pendingFact(campaign, 1, 'amira'),
      pendingFact(campaign, 1, 'badis'),
      pendingFact(campaign, 1, 'cyrine'),
      outcomeFact(campaign, 1, 'badis', { state: 'sent' }),
      outcomeFact(campaign, 1, 'xavier', { state: 'failed', reason: '550 unknown' }),
      outcomeFact(campaign, 1, 'yasmine', { state: 'sent' }),
      outcomeFact(campaign, 1, 'zied', { state: 'sent' }),
    ]);

    // Batches of two: the outcomes are read two at a time, badis's beside a stray.
    await migrate();

    const batches = await collect(store.roundBatches(String(campaign), 1));
    expect(batches.map(({ recipients, states }) => [recipients.map((r) => r.key), states])).toEqual(
      [
        [
          [key('amira'), key('badis')],
          ['pending', 'sent'],
        ],
        [
          [key('cyrine'), key('xavier')],
          ['pending', 'failed'],
        ],
        [
          [key('yasmine'), key('zied')],
          ['sent', 'sent'],
        ],
      ],
    );
  });

  it('stops after the batch it is writing when the worker stops, and the next start finishes the copy', async () => {
    const campaign = await campaignWith('sent');
    const other = await campaignWith('sent');
    const facts = [
      pendingFact(campaign, 1, 'amira'),
      pendingFact(campaign, 1, 'badis'),
      pendingFact(campaign, 1, 'cyrine'),
      outcomeFact(campaign, 1, 'cyrine', { state: 'sent' }),
      pendingFact(other, 1, 'amira'),
      pendingFact(other, 1, 'badis'),
      pendingFact(other, 1, 'cyrine'),
    ];
    await legacy().insertMany(facts);
    const stop = new AbortController();
    const insert = CampaignBatchModel.collection.insertMany.bind(CampaignBatchModel.collection);
    const written = jest
      .spyOn(CampaignBatchModel.collection, 'insertMany')
      .mockImplementationOnce(async (...args) => {
        const result = await insert(...args);
        stop.abort();
        return result;
      });

    const info = jest.spyOn(logger, 'info');
    try {
      await expect(
        migrateLegacyLedger({ batchSize: 2, logger, signal: stop.signal }),
      ).resolves.toEqual({ migrated: 0, orphaned: 0, leftActive: 0 });
      expect(info).toHaveBeenCalledWith(
        { migrated: 0, orphaned: 0, leftActive: 0 },
        expect.stringContaining('next start'),
      );
    } finally {
      written.mockRestore();
      info.mockRestore();
    }

    // One batch written (of whichever campaign came first), every fact kept for the next start.
    expect(await CampaignBatchModel.countDocuments({})).toBe(1);
    expect(await legacy().countDocuments({})).toBe(facts.length);

    await expect(migrate()).resolves.toEqual({ migrated: 2, orphaned: 0, leftActive: 0 });
    const batches = await collect(store.roundBatches(String(campaign), 1));
    expect(batches.map(({ states }) => states)).toEqual([['pending', 'pending'], ['sent']]);
    expect(await CampaignBatchModel.countDocuments({ campaign: other })).toBe(2);
    expect(await legacy().countDocuments({})).toBe(0);
  });

  it('moves nothing, and deletes nothing, for a worker stopped before the move began', async () => {
    const sending = await campaignWith('sending');
    const gone = new Types.ObjectId();
    await legacy().insertMany([pendingFact(gone, 1, 'amira'), pendingFact(sending, 1, 'amira')]);
    const stop = new AbortController();
    stop.abort();

    await expect(
      migrateLegacyLedger({ batchSize: 2, logger, signal: stop.signal }),
    ).resolves.toEqual({ migrated: 0, orphaned: 0, leftActive: 0 });

    expect(await legacy().countDocuments({})).toBe(2);
    expect(await CampaignBatchModel.countDocuments({})).toBe(0);
  });

  it('leaves a campaign that is still queued, sending or paused as it is', async () => {
    const sending = await campaignWith('sending');
    const paused = await campaignWith('paused');
    const cancelled = await campaignWith('cancelled');
    await legacy().insertMany([
      pendingFact(sending, 1, 'amira'),
      pendingFact(paused, 1, 'amira'),
      pendingFact(cancelled, 1, 'amira'),
    ]);

    await expect(migrate()).resolves.toEqual({ migrated: 1, orphaned: 0, leftActive: 2 });

    expect(await legacy().countDocuments({ campaign: { $in: [sending, paused] } })).toBe(2);
    expect(await CampaignBatchModel.countDocuments({ campaign: sending })).toBe(0);
    expect(await CampaignBatchModel.countDocuments({ campaign: paused })).toBe(0);
    expect(await CampaignBatchModel.countDocuments({ campaign: cancelled })).toBe(1);
  });

  it('deletes the facts of a campaign that was deleted', async () => {
    const gone = new Types.ObjectId();
    const sending = await campaignWith('sending');
    await legacy().insertMany([
      pendingFact(gone, 1, 'amira'),
      outcomeFact(gone, 1, 'amira', { state: 'sent' }),
      pendingFact(sending, 1, 'amira'),
    ]);

    await expect(migrate()).resolves.toEqual({ migrated: 0, orphaned: 2, leftActive: 1 });

    expect(await legacy().countDocuments({ campaign: gone })).toBe(0);
    expect(await legacy().countDocuments({ campaign: sending })).toBe(1);
    expect(await CampaignBatchModel.countDocuments({})).toBe(0);
  });

  it('writes the same ledger when it runs again over facts a crash left behind', async () => {
    const campaign = await campaignWith('sent');
    const facts = [
      pendingFact(campaign, 1, 'amira'),
      pendingFact(campaign, 1, 'badis'),
      pendingFact(campaign, 1, 'cyrine'),
      outcomeFact(campaign, 1, 'cyrine', { state: 'sent' }),
    ];
    await legacy().insertMany(facts);
    await migrate();
    const rosters = await CampaignBatchModel.find({}).sort({ _id: 1 }).lean();
    const outcomes = await CampaignOutcomeModel.find({}).sort({ _id: 1 }).lean();

    // As if the worker had died half-way through the copy: the first batch
    // written, the second not, the facts all there.
    const id = String(campaign);
    await CampaignBatchModel.deleteOne({ _id: `${id}:1:1` });
    await CampaignOutcomeModel.deleteOne({ _id: `${id}:1:1` });
    await legacy().insertMany(facts);
    await expect(migrate()).resolves.toEqual({ migrated: 1, orphaned: 0, leftActive: 0 });

    expect(await CampaignBatchModel.find({}).sort({ _id: 1 }).lean()).toEqual(rosters);
    expect(await CampaignOutcomeModel.find({}).sort({ _id: 1 }).lean()).toEqual(outcomes);
    expect(await legacy().countDocuments({})).toBe(0);
  });

  it('keeps the facts when a write fails for another reason than a document already there', async () => {
    const campaign = await campaignWith('sent');
    await legacy().insertMany([
      pendingFact(campaign, 1, 'amira'),
      outcomeFact(campaign, 1, 'amira', { state: 'sent' }),
    ]);
    const insert = jest
      .spyOn(CampaignOutcomeModel.collection, 'insertMany')
      .mockRejectedValueOnce(new Error('disk full'));

    try {
      await expect(migrate()).rejects.toThrow('disk full');
    } finally {
      insert.mockRestore();
    }

    expect(await legacy().countDocuments({ campaign })).toBe(2);
    await expect(migrate()).resolves.toMatchObject({ migrated: 1 });
    expect(await CampaignOutcomeModel.countDocuments({ campaign })).toBe(1);
  });

  it('logs what it moved, and warns of the campaigns it left', async () => {
    const info = jest.spyOn(logger, 'info');
    const warn = jest.spyOn(logger, 'warn');
    try {
      await migrate();
      expect(info).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();

      const sent = await campaignWith('sent');
      await legacy().insertMany([pendingFact(sent, 1, 'amira')]);
      await migrate();
      expect(info).toHaveBeenCalledWith(
        { migrated: 1, orphaned: 0, leftActive: 0 },
        expect.stringContaining('moved'),
      );
      expect(warn).not.toHaveBeenCalled();

      const sending = await campaignWith('sending');
      await legacy().insertMany([pendingFact(sending, 1, 'amira')]);
      await migrate();
      expect(warn).toHaveBeenCalledWith({ campaigns: 1 }, expect.stringContaining('keep'));
    } finally {
      info.mockRestore();
      warn.mockRestore();
    }
  });

  it('does nothing on an installation that never had the old ledger', async () => {
    await legacy()
      .drop()
      .catch(() => undefined);

    await expect(migrate()).resolves.toEqual({ migrated: 0, orphaned: 0, leftActive: 0 });
  });
});
