import type { SegmentRule } from '@agency/contracts';
import { campaignAudience } from '@agency/backend';
import {
  addSegment,
  countSegmentRule,
  createKeptCounts,
  createLogger,
  readCampaignReport,
  refreshPeople,
} from '@agency/platform';
import { SuppressionModel } from '@agency/platform/testing/audience-models';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

// Whole sends on real services: more than the mutation run's 10 s default.
jest.setTimeout(60_000);

let ctx: CampaignContext;
let smtp: SmtpSink;

beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createCampaignContext();
});
afterEach(async () => {
  await ctx.close();
  await smtp.close();
});

const recipientsOf = (sink: SmtpSink) =>
  sink.received.flatMap((entry) => entry.envelopeTo.map((address) => address.toLowerCase())).sort();

const FRENCH: SegmentRule = {
  match: 'all',
  conditions: [{ field: 'locale', op: 'is', value: 'fr' }],
};
const SUBSCRIBERS: SegmentRule = {
  match: 'any',
  conditions: [{ field: 'source', op: 'anyOf', value: ['subscriber'] }],
};

/** Seeds go behind the API: the people view is refreshed as their writers would. */
async function seedAudience(): Promise<void> {
  await ctx.seedContacts([
    { email: 'amel@example.tn', locale: 'fr' },
    { email: 'silent@example.tn', locale: 'fr', consented: false },
    { email: 'bounced@example.tn', locale: 'fr' },
    { email: 'english@example.tn', locale: 'en' },
  ]);
  await ctx.seedSubscribers([
    { email: 'amel@example.tn', status: 'confirmed', locale: 'fr' },
    { email: 'reader@example.tn', status: 'confirmed' },
    { email: 'waiting@example.tn', status: 'pending' },
    { email: 'left@example.tn', status: 'unsubscribed', locale: 'fr' },
  ]);
  await SuppressionModel.create({
    _id: 'bounced@example.tn',
    email: 'bounced@example.tn',
    reason: 'hard-bounce',
    source: 'dsn',
    at: new Date(),
  });
  await refreshPeople([
    'amel@example.tn',
    'silent@example.tn',
    'bounced@example.tn',
    'english@example.tn',
    'reader@example.tn',
    'waiting@example.tn',
    'left@example.tn',
  ]);
}

const STAFF_ID = '0123456789abcdef01234567';

describe('a campaign to segments', () => {
  it('mails exactly whom its count said: the consenting matches, each once, none suppressed or unsubscribed', async () => {
    await seedAudience();
    await ctx.startWorker(smtp.url);
    const french = await addSegment({ name: 'French', rule: FRENCH }, STAFF_ID);
    const readers = await addSegment({ name: 'Readers', rule: SUBSCRIBERS }, STAFF_ID);
    const segmentIds = [String(french._id), String(readers._id)];

    // What the builder and the editor say before sending.
    const builder = await Promise.all([countSegmentRule(FRENCH), countSegmentRule(SUBSCRIBERS)]);
    const kept = createKeptCounts(ctx.redis, {
      prefix: ctx.queuePrefix,
      timeZone: 'UTC',
      logger: createLogger('test', 'silent'),
    });
    const editor = await campaignAudience(kept, [], segmentIds);

    const id = await ctx.queueCampaign({ recipientType: 'segments', segmentIds });
    await ctx.waitForStatus(id, ['sent']);

    const expected = ['amel@example.tn', 'reader@example.tn'];
    expect(recipientsOf(smtp)).toEqual(expected);
    expect(editor.segments).toBe(expected.length);
    expect(await ctx.campaign(id)).toMatchObject({ total: expected.length, sentCount: 2 });
    // Amel is French and a subscriber: one mail, counted once by each count it is in.
    expect(builder.map(({ mailable }) => mailable)).toEqual([1, 2]);
    // The French rule matches the three French enquiries and the one who left.
    expect(builder[0]?.matched).toBe(4);
    const ledger = await ctx.ledger(id);
    expect(ledger.map(({ email }) => email.toLowerCase()).sort()).toEqual(expected);
    // The ledger keeps the segment each came through: Amel under French (met first), the reader under Readers.
    const { sources } = await readCampaignReport(id);
    expect(
      sources.map(({ kind, segmentName, delivered }) => [kind, segmentName, delivered]),
    ).toEqual([
      ['segment', 'French', 1],
      ['segment', 'Readers', 1],
    ]);
  });
});
