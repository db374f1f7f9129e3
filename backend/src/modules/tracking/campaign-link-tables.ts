import { LRUCache } from 'lru-cache';
import {
  findCampaignTrackingTable,
  withTimeout,
  type CampaignTrackingTable,
} from '@agency/platform';

/**
 * The link tables of the campaigns being clicked, kept in the process: a
 * campaign's table never changes once its send has started, so a burst of
 * clicks costs one store read per campaign, and later clicks never wait on
 * the store. lru-cache bounds the memory by the number of campaigns, and
 * its `fetch` makes the clicks that arrive together before the first read
 * share that read. A campaign's key is destroyed some days after its send:
 * entries expire, so a destroyed key is seen within `ttlMs`.
 */
export interface CampaignLinkTables {
  /** The campaign's table; null when there is no such campaign. Rejects when the store failed. */
  get(campaignId: string): Promise<KeptLinkTable | null>;
}

/** A campaign's table as kept, with each link's redirect made once. */
export interface KeptLinkTable extends CampaignTrackingTable {
  /**
   * Each link as its redirect's Location: an absolute http(s) URL as a
   * browser writes it (WHATWG: no spaces, no line breaks, non-ASCII
   * encoded), or null for one that is not, which is never followed.
   */
  locations: (string | null)[];
}

function locationOf(link: string): string | null {
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

async function keptTable(
  read: Promise<CampaignTrackingTable | null>,
): Promise<KeptLinkTable | null> {
  const table = await read;
  return table && { ...table, locations: table.links.map(locationOf) };
}

export interface CampaignLinkTablesOptions {
  /** Campaigns kept at most. */
  max?: number;
  /** How long an entry is trusted (ms). */
  ttlMs?: number;
  /** A store read that takes longer is given up (and not kept). */
  readTimeoutMs?: number;
  read?: (campaignId: string) => Promise<CampaignTrackingTable | null>;
}

/** What the cache holds: lru-cache keeps no null, and "no such campaign" is worth keeping too. */
interface Entry {
  table: KeptLinkTable | null;
}

export function createCampaignLinkTables({
  max = 1000,
  ttlMs = 10 * 60_000,
  readTimeoutMs = 3000,
  read = findCampaignTrackingTable,
}: CampaignLinkTablesOptions = {}): CampaignLinkTables {
  const cache = new LRUCache<string, Entry>({
    max,
    ttl: ttlMs,
    fetchMethod: async (campaignId) => ({
      table: await withTimeout(keptTable(read(campaignId)), readTimeoutMs),
    }),
  });
  return {
    async get(campaignId) {
      const entry = await cache.fetch(campaignId);
      return entry?.table ?? null;
    },
  };
}
