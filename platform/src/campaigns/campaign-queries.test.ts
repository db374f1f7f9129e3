import { Types } from 'mongoose';
import { useFileDatabase } from '../testing/file-database';
import { CampaignModel } from './campaign.model';
import {
  campaignExists,
  findCampaignLanguageTarget,
  findCampaignNames,
  findCampaignRound,
} from './campaign-queries';

/** The campaigns module's reads the API makes around a campaign, against the MongoDB-wire server. */
describe("the campaigns module's queries", () => {
  useFileDatabase('campaign-queries');

  const draft = (fields: Record<string, unknown>) =>
    CampaignModel.create({ subject: 'Hello', content: '<p>Hi</p>', ...fields });
  const missing = String(new Types.ObjectId());

  it('names the campaigns asked for by id, leaving out those that are gone', async () => {
    const spring = await draft({ name: 'Spring offer' });
    const autumn = await draft({ name: 'Autumn news' });
    await draft({ name: 'Not asked for' });
    const names = await findCampaignNames([String(spring._id), String(autumn._id), missing]);
    expect([...names.entries()].sort()).toEqual(
      [
        [String(spring._id), 'Spring offer'],
        [String(autumn._id), 'Autumn news'],
      ].sort(),
    );
  });

  it("answers a campaign's round, and null for no campaign", async () => {
    const resent = await draft({ name: 'Resent', round: 3 });
    expect(await findCampaignRound(String(resent._id))).toBe(3);
    expect(await findCampaignRound(missing)).toBeNull();
    expect(await campaignExists(String(resent._id))).toBe(true);
    expect(await campaignExists(missing)).toBe(false);
  });

  it('answers whom a campaign goes to and the languages it is written in', async () => {
    const listId = new Types.ObjectId();
    const campaign = await draft({
      name: 'Bilingual',
      recipientType: 'lists',
      listIds: [listId],
      defaultLocale: 'fr',
      translations: [{ locale: 'ar', subject: 'مرحبا', content: '<p>مرحبا</p>' }],
    });
    expect(await findCampaignLanguageTarget(String(campaign._id))).toEqual({
      target: {
        recipientType: 'lists',
        listIds: [String(listId)],
        segmentIds: [],
        enquiryLawfulBasis: null,
      },
      defaultLocale: 'fr',
      translatedLocales: ['ar'],
    });
    expect(await findCampaignLanguageTarget(missing)).toBeNull();
  });
});
