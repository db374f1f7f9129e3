import {
  type Logger,
  type CampaignRoundKeys,
  type CampaignSendState,
  type CampaignStore,
  type RoundCounts,
} from '@agency/platform';
import type { CounterFolds } from './counter-folds';
import { isRoundSettled, type RoundProgress, type RoundTracker } from './round-tracker';

export interface RoundEndDeps {
  store: CampaignStore;
  tracker: RoundTracker;
  folds: CounterFolds;
  logger: Logger;
}

/**
 * Ends the round (sent, or failed when nobody received it) in its turn among
 * the campaign's writers, and lets its Redis state expire.
 */
export async function finishRound(
  deps: RoundEndDeps,
  campaign: CampaignSendState,
  keys: CampaignRoundKeys,
  counts: RoundCounts,
): Promise<void> {
  const status = await deps.tracker.writeInTurn(campaign.id, () =>
    deps.store.finishRound(campaign, counts),
  );
  deps.folds.forget(campaign.id);
  if (!status) return;
  await deps.tracker.expire(keys);
  deps.logger.info(
    { campaignId: campaign.id, round: campaign.round, status, ...counts },
    'campaign finished',
  );
}

/** After a batch or the dispatch: the round ends once every recipient is settled, else its counters are folded. */
export async function settleRoundIfDone(
  deps: RoundEndDeps,
  campaign: CampaignSendState,
  keys: CampaignRoundKeys,
  progress: RoundProgress,
): Promise<void> {
  if (isRoundSettled(progress)) return finishRound(deps, campaign, keys, progress);
  deps.folds.fold(campaign, progress);
}
