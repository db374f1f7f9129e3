import { Types } from 'mongoose';
import { useFileDatabase } from '../testing/file-database';
import { MailEventModel } from './mail-event.model';
import { countCampaignMailEvents, latestCampaignMailEvents } from './mail-event-queries';

useFileDatabase('mail-event-queries');

const campaign = new Types.ObjectId();
const otherCampaign = new Types.ObjectId();

function event(
  id: string,
  fields: { key: string; kind: string; at: string; campaign?: Types.ObjectId; detail?: string },
) {
  return {
    _id: `postmark:${id}`,
    provider: 'postmark',
    email: fields.key,
    campaign,
    round: 1,
    ...fields,
    at: new Date(fields.at),
  };
}

describe('the latest mail event of each recipient of a campaign', () => {
  beforeAll(async () => {
    // The later event first: the store's order must not decide which is kept.
    await MailEventModel.insertMany([
      event('2', { key: 'leila@example.tn', kind: 'hard-bounce', at: '2026-03-02T10:00:00Z' }),
      event('1', {
        key: 'leila@example.tn',
        kind: 'soft-bounce',
        at: '2026-03-01T10:00:00Z',
        detail: 'mailbox full',
      }),
      event('3', {
        key: 'sami@example.tn',
        kind: 'complaint',
        at: '2026-03-03T10:00:00Z',
        detail: 'spam',
      }),
      event('4', {
        key: 'sami@example.tn',
        kind: 'hard-bounce',
        at: '2026-03-04T10:00:00Z',
        campaign: otherCampaign,
      }),
      event('5', { key: 'nour@example.tn', kind: 'complaint', at: '2026-03-05T10:00:00Z' }),
    ]);
  });

  it('keeps the latest event of each address the page names, however it is typed', async () => {
    const latest = await latestCampaignMailEvents(String(campaign), [
      ' Leila@Example.TN',
      'sami@example.tn',
      'nobody@example.tn',
    ]);

    expect(Object.fromEntries(latest)).toEqual({
      'leila@example.tn': {
        kind: 'hard-bounce',
        at: '2026-03-02T10:00:00.000Z',
        provider: 'postmark',
        detail: null,
      },
      // The later bounce came back from another campaign: not this one's.
      'sami@example.tn': {
        kind: 'complaint',
        at: '2026-03-03T10:00:00.000Z',
        provider: 'postmark',
        detail: 'spam',
      },
    });
  });

  it('answers nothing for a page without addresses', async () => {
    expect((await latestCampaignMailEvents(String(campaign), [])).size).toBe(0);
  });

  it('counts each campaign’s bounced and complaining addresses, each once', async () => {
    await MailEventModel.insertMany([
      event('6', { key: 'leila@example.tn', kind: 'hard-bounce', at: '2026-03-06T10:00:00Z' }),
    ]);
    const counts = await countCampaignMailEvents([String(campaign), String(otherCampaign)]);
    expect(Object.fromEntries(counts)).toEqual({
      // Leila bounced soft, then hard twice: one hard bounce.
      [String(campaign)]: { hardBounces: 1, softBounces: 0, complaints: 2 },
      [String(otherCampaign)]: { hardBounces: 1, softBounces: 0, complaints: 0 },
    });
  });
});
