import {
  newCampaignTrackingKey,
  type CampaignSendTracking,
  type CampaignStore,
} from '@agency/platform';
import type { CampaignMessenger } from './campaign-messenger';
import type { RoundTracker } from './round-tracker';

export interface TrackingStartDeps {
  store: CampaignStore;
  tracker: RoundTracker;
  messenger: Pick<CampaignMessenger, 'trackedLinks'>;
}

/**
 * Whether the send must make the campaign's key now: it tracks something and
 * has none yet. A destroyed key is never replaced: events under a new one
 * could be tied to people again after the agency was told they no longer can.
 */
export function needsTrackingKey(tracking: CampaignSendTracking): boolean {
  return (tracking.opens || tracking.clicks) && tracking.key === null && !tracking.keyDestroyed;
}

/**
 * Fixes a campaign's tracking as its send starts: its key, the agency's mode
 * now, and its link table (none when clicks are not tracked) over every
 * language it is written in. Every later dispatch (a resume, a resend, a
 * recovery) finds the key and changes nothing, so a link's index never moves;
 * two dispatches racing each store theirs only if none is there, and the mail
 * reads the one stored. Answers the tracking as stored.
 */
export async function startCampaignTracking(
  deps: TrackingStartDeps,
  campaignId: string,
): Promise<CampaignSendTracking | null> {
  const mail = await deps.store.mail(campaignId);
  if (!mail || !needsTrackingKey(mail.tracking)) return mail?.tracking ?? null;
  const links = mail.tracking.clicks ? deps.messenger.trackedLinks(mail) : [];
  return deps.tracker.writeInTurn(campaignId, () =>
    deps.store.startTracking(campaignId, { key: newCampaignTrackingKey(), links }),
  );
}
