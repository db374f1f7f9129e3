import type { CampaignDto } from '@agency/contracts';

/** Which of a campaign's two rates: of opens, or of clicks. */
export type RateKind = 'open' | 'click';

/** The editor's switch that decides whether a campaign counted this kind at all. */
const TRACKING_SWITCH: Record<RateKind, keyof CampaignDto['tracking']> = {
  open: 'opens',
  click: 'clicks',
};

/**
 * A campaign's unique rate of one kind over delivered, as every screen must
 * read it: `not-tracked` when the campaign did not count that kind (its 0
 * would read as nobody opening), null while nothing was delivered.
 */
export function campaignRate(
  campaign: Pick<CampaignDto, 'rates' | 'tracking'>,
  kind: RateKind,
): number | null | 'not-tracked' {
  if (!campaign.tracking[TRACKING_SWITCH[kind]]) return 'not-tracked';
  return campaign.rates?.[kind] ?? null;
}
