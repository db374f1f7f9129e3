import type { CampaignProgressDto, CampaignStatus, SendingWindow } from '@agency/contracts';
import { SENDING_STATUSES, windowStateAt } from '@agency/contracts';
import { DomainError } from '../domain-error';
import { isoOrNull } from '../list-pages';
import type { Redis } from '../redis-connection';
import { CampaignModel } from './campaign.model';
import { campaignRateKey } from './campaign-keys';

/**
 * A campaign's send as the progress bar reads it: the counts the worker keeps
 * on the campaign, the rate from the per-second counters in Redis, and when
 * a closed sending window opens again.
 */
const RATE_WINDOW_SECONDS = 60;

/** Recipients settled per second over the last minute (or since the start, if sooner). */
async function rateOf(
  redis: Redis,
  prefix: string,
  id: string,
  startedAt: Date | null | undefined,
): Promise<number> {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  const seconds = Array.from({ length: RATE_WINDOW_SECONDS }, (_, back) => second - back);
  let counts: (string | null)[];
  try {
    counts = await redis.mget(seconds.map((at) => campaignRateKey(prefix, id, at)));
  } catch {
    return 0;
  }
  const settled = counts.reduce((sum, count) => sum + Number(count ?? 0), 0);
  const windowStart = now - RATE_WINDOW_SECONDS * 1000;
  const since = startedAt ? Math.max(startedAt.getTime(), windowStart) : windowStart;
  const elapsed = Math.max((now - since) / 1000, 1);
  return Math.round((settled / elapsed) * 10) / 10;
}

/** While a campaign being sent is outside its window: when the window opens again. */
function windowOpensAt(
  window: SendingWindow | null | undefined,
  timeZone: string,
  active: boolean,
): string | null {
  if (!active || !window) return null;
  const state = windowStateAt(window, timeZone, new Date());
  return state.open ? null : state.opensAt.toISOString();
}

export async function readCampaignProgress(
  redis: Redis,
  prefix: string,
  id: string,
  timeZone: string,
): Promise<CampaignProgressDto> {
  const campaign = await CampaignModel.findById(id, { content: 0, translations: 0 }).lean();
  if (!campaign) throw new DomainError('NOT_FOUND', 'No campaign with this id');
  const settled = campaign.sentCount + campaign.failedCount;
  const active = SENDING_STATUSES.includes(campaign.status as CampaignStatus);
  return {
    id,
    status: campaign.status as CampaignStatus,
    total: campaign.total,
    sentCount: campaign.sentCount,
    failedCount: campaign.failedCount,
    pendingCount: Math.max(campaign.total - settled, 0),
    percent: campaign.total > 0 ? Math.round((settled / campaign.total) * 1000) / 10 : 0,
    ratePerSecond: active ? await rateOf(redis, prefix, id, campaign.startedAt) : 0,
    windowOpensAt: windowOpensAt(campaign.sendingWindow as SendingWindow | null, timeZone, active),
    round: campaign.round,
    startedAt: isoOrNull(campaign.startedAt),
    finishedAt: isoOrNull(campaign.finishedAt),
  };
}
