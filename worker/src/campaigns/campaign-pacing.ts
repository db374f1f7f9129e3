import { windowStateAt } from '@agency/contracts';
import type { Redis, CampaignSendState } from '@agency/platform';

/**
 * When a campaign outside its sending window may go on (its next opening on
 * the agency's clock), or null when it may be sent now. Pure arithmetic on
 * the send state a batch reads anyway: no store or Redis call.
 */
export function windowClosedUntil(
  campaign: Pick<CampaignSendState, 'sendingWindow'>,
  timeZone: string,
  now = new Date(),
): Date | null {
  if (!campaign.sendingWindow) return null;
  const state = windowStateAt(campaign.sendingWindow, timeZone, now);
  return state.open ? null : state.opensAt;
}

/**
 * A campaign's own pace as a cell rate (GCRA): each mail is due one interval
 * after the one before, and up to a second's worth may go at once, so waves
 * of mails keep the rate over a minute within a second's worth of it.
 * KEYS: the campaign's pace key. ARGV: now (ms), interval (ms), burst (ms),
 * mails wanted. Answers the mails granted and, when none, how long to wait.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local room = math.floor((now + burst - tat) / interval)
local granted = math.min(want, math.max(room, 0))
if granted > 0 then
  tat = tat + granted * interval
  redis.call('SET', KEYS[1], tat, 'PX', math.ceil(tat - now + burst + 60000))
  return { granted, 0 }
end
return { 0, math.ceil(tat - burst + interval - now) }
`;

export interface PaceGrant {
  granted: number;
  /** When none was granted: how long until the next mail is due. */
  waitMs: number;
}

/** Where a campaign's pace is kept: shared by every batch of every worker. */
export function campaignPaceKey(prefix: string, campaignId: string): string {
  return `${prefix}:campaign:${campaignId}:pace`;
}

/**
 * Takes up to `want` mails of the campaign's allowance of `perMinute`. One
 * Redis call per wave of mails, and only for a campaign with a rate of its own.
 */
export async function takePace(
  redis: Redis,
  prefix: string,
  campaignId: string,
  perMinute: number,
  want: number,
): Promise<PaceGrant> {
  const interval = 60_000 / perMinute;
  const burst = Math.max(interval, 1000);
  const [granted, waitMs] = (await redis.eval(
    TAKE_SCRIPT,
    1,
    campaignPaceKey(prefix, campaignId),
    Date.now(),
    interval,
    burst,
    want,
  )) as [number, number];
  return { granted: Number(granted), waitMs: Number(waitMs) };
}
