import { Types } from 'mongoose';
import { DomainError } from '../domain-error';
import { useFileDatabase } from '../testing/file-database';
import { CampaignModel } from './campaign.model';
import {
  pauseCampaign,
  queueDraftCampaign,
  restoreSchedule,
  resumeCampaign,
  returnQueuedCampaignToDraft,
  returnResumedCampaignToPaused,
  scheduleCampaign,
  startResendRound,
  unscheduleCampaign,
} from './campaign-send-commands';

/**
 * The state changes of a send that the API asks for, and the undo of each
 * one whose job Redis could not take: the campaign is left as it was.
 */
describe("the campaigns module's send commands", () => {
  useFileDatabase('campaign-send-commands');

  const campaignIn = async (fields: Record<string, unknown>) =>
    String(
      (
        await CampaignModel.create({
          name: 'Offer',
          subject: 'Hi',
          content: '<p>Hi</p>',
          ...fields,
        })
      )._id,
    );
  const stored = async (id: string) => {
    const campaign = await CampaignModel.findById(id).lean();
    if (!campaign) throw new Error(`no campaign ${id}`);
    return campaign;
  };
  const refusal = (code: string, message: string) =>
    expect.objectContaining({ constructor: DomainError, code, message });
  const missing = String(new Types.ObjectId());

  it('queues a draft once, and puts it back to draft when its dispatch could not be added', async () => {
    const id = await campaignIn({ status: 'draft' });
    expect(await queueDraftCampaign(id)).toMatchObject({ id, status: 'queued' });
    expect((await stored(id)).queuedAt).toBeInstanceOf(Date);
    await expect(queueDraftCampaign(id)).rejects.toEqual(
      refusal('CONFLICT', 'Only a draft campaign can be sent'),
    );
    await expect(queueDraftCampaign(missing)).rejects.toEqual(
      refusal('NOT_FOUND', 'No campaign with this id'),
    );
    await returnQueuedCampaignToDraft(id);
    const undone = await stored(id);
    expect(undone.status).toBe('draft');
    expect(undone.queuedAt).toBeUndefined();
  });

  it('pauses only a campaign being sent', async () => {
    const id = await campaignIn({ status: 'sending' });
    expect(await pauseCampaign(id)).toMatchObject({ status: 'paused' });
    await expect(pauseCampaign(id)).rejects.toEqual(
      refusal('CONFLICT', 'Only a campaign being sent can be paused'),
    );
  });

  it('resumes as a new pass of the round, and stays paused when its dispatch could not be added', async () => {
    const id = await campaignIn({ status: 'paused', round: 2, pass: 1 });
    const resumed = await resumeCampaign(id);
    expect(resumed).toMatchObject({ round: 2, pass: 2, campaign: { status: 'queued' } });
    await returnResumedCampaignToPaused(id);
    expect(await stored(id)).toMatchObject({ status: 'paused', pass: 2 });
  });

  it('starts a round for the failed with the sent carried over, only after a send with failures', async () => {
    const id = await campaignIn({ status: 'sent', sentCount: 5, failedCount: 2, round: 1 });
    expect(await startResendRound(id)).toMatchObject({ round: 2, pass: 1 });
    expect(await stored(id)).toMatchObject({
      status: 'queued',
      roundBaseSent: 5,
      failedCount: 0,
      countersVersion: 0,
    });
    const clean = await campaignIn({ status: 'sent', sentCount: 5, failedCount: 0 });
    await expect(startResendRound(clean)).rejects.toEqual(
      refusal('CONFLICT', 'Only a finished campaign with failed recipients can be resent'),
    );
  });

  it('schedules a draft, and puts it back as it was when its job could not be added', async () => {
    const id = await campaignIn({ status: 'draft' });
    const at = new Date('2030-05-01T08:00:00Z');
    const { campaign, previous } = await scheduleCampaign(id, at);
    expect(campaign).toMatchObject({ status: 'scheduled', scheduledAt: at.toISOString() });
    expect(previous).toEqual({ status: 'draft', scheduledAt: null });
    await restoreSchedule(id, previous);
    expect(await stored(id)).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('moves a schedule, answering the time it replaced, and puts that time back on an undo', async () => {
    const first = new Date('2030-05-01T08:00:00Z');
    const id = await campaignIn({ status: 'scheduled', scheduledAt: first });
    const { previous } = await scheduleCampaign(id, new Date('2030-06-01T08:00:00Z'));
    expect(previous).toEqual({ status: 'scheduled', scheduledAt: first });
    await restoreSchedule(id, previous);
    expect(await stored(id)).toMatchObject({ status: 'scheduled', scheduledAt: first });
  });

  it('schedules nothing being sent, and unschedules only a scheduled campaign', async () => {
    const sending = await campaignIn({ status: 'sending' });
    await expect(scheduleCampaign(sending, new Date())).rejects.toEqual(
      refusal('CONFLICT', 'Only a draft or a scheduled campaign can be scheduled'),
    );
    const at = new Date('2030-05-01T08:00:00Z');
    const id = await campaignIn({ status: 'scheduled', scheduledAt: at });
    const { campaign, scheduledAt } = await unscheduleCampaign(id);
    expect(campaign).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(scheduledAt).toEqual(at);
    expect(await stored(id)).toMatchObject({ status: 'draft', scheduledAt: null });
    await expect(unscheduleCampaign(id)).rejects.toEqual(
      refusal('CONFLICT', 'Only a scheduled campaign can be unscheduled'),
    );
  });
});
