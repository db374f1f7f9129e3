import type { CampaignAudienceDto } from '@agency/contracts';
import {
  countAudience,
  excludedKeys,
  keptAudience,
  suppressedKeys,
  type KeptCounts,
} from '@agency/platform';
import { readFigures } from '../stats';

/**
 * How many distinct addresses each recipient type would reach if sent now,
 * as the send counts them, whoever unsubscribed or is on the suppression
 * list left out: the kept figures (@agency/platform's stats/kept-audience.ts).
 * `lists` walks the members of the lists asked for as the send does, and
 * `segments` the consenting people of the segments asked for.
 */
export async function campaignAudience(
  kept: KeptCounts,
  listIds: readonly string[] = [],
  segmentIds: readonly string[] = [],
): Promise<CampaignAudienceDto> {
  // Only a walk of lists or segments needs who left: reading them scans the
  // subscribers on the embedded store (690 ms at 20,000), which the kept
  // figures alone never need.
  const walks = listIds.length > 0 || segmentIds.length > 0;
  const [suppressed, excluded] = await Promise.all([
    suppressedKeys(),
    walks ? excludedKeys() : new Set<string>(),
  ]);
  const [figures, lists, segments] = await Promise.all([
    readFigures(() => keptAudience(kept, suppressed)),
    listIds.length > 0
      ? countAudience({ recipientType: 'lists', listIds: [...listIds] }, excluded)
      : 0,
    segmentIds.length > 0
      ? countAudience(
          { recipientType: 'segments', listIds: [], segmentIds: [...segmentIds] },
          excluded,
        )
      : 0,
  ]);
  return { ...figures, lists, segments };
}
