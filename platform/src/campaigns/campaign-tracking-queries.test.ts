import { Types } from 'mongoose';
import { useFileDatabase } from '../testing/file-database';
import { CampaignModel } from './campaign.model';
import { findCampaignTrackingTable } from './campaign-tracking-queries';

/** The read the public pixel and redirect make, against the MongoDB-wire server. */
describe("a campaign's tracking table", () => {
  useFileDatabase('campaign-tracking-queries');

  const draft = (tracking: Record<string, unknown>) =>
    CampaignModel.create({ name: 'Spring', subject: 'Hello', content: '<p>Hi</p>', tracking });

  it('answers the links, switches, mode and whether the key exists, never the key', async () => {
    const sent = await draft({
      opens: true,
      clicks: false,
      mode: 'individual',
      key: 'k'.repeat(43),
      links: ['https://example.com/a', 'https://example.com/b'],
    });
    const table = await findCampaignTrackingTable(String(sent._id));
    expect(table).toEqual({
      links: ['https://example.com/a', 'https://example.com/b'],
      mode: 'individual',
      opens: true,
      clicks: false,
      hasKey: true,
    });
    expect(JSON.stringify(table)).not.toContain('k'.repeat(43));
  });

  it('says a campaign has no key before its send and once the key is destroyed', async () => {
    const drafted = await draft({});
    expect(await findCampaignTrackingTable(String(drafted._id))).toEqual({
      links: [],
      mode: null,
      opens: true,
      clicks: true,
      hasKey: false,
    });
    const destroyed = await draft({
      mode: 'anonymous',
      key: null,
      keyDestroyedAt: new Date(),
      links: ['https://example.com/a'],
    });
    expect(await findCampaignTrackingTable(String(destroyed._id))).toMatchObject({
      links: ['https://example.com/a'],
      hasKey: false,
    });
  });

  it('answers null for no campaign and for an id that is not one', async () => {
    expect(await findCampaignTrackingTable(String(new Types.ObjectId()))).toBeNull();
    expect(await findCampaignTrackingTable('not-an-id')).toBeNull();
  });
});
