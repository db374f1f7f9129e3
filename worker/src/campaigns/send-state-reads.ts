import type { CampaignSendState, CampaignStore } from '@agency/platform';

/** A campaign's send state, and when the read that gave it was asked for. */
export interface SendStateRead {
  state: CampaignSendState | null;
  readAt: number;
}

/**
 * A worker's reads of its campaigns' send state, shared by its batches.
 * Each sending batch reads its campaign again every second or so to notice
 * a pause or a cancel; several batches of one campaign run at once in a
 * worker, and on the embedded store each read decodes the whole campaign
 * document (its content too). A batch that finds a read younger than it
 * needs takes that one, with its age: it reads again once that read is as
 * old as it allows, so no batch acts on an older state than it would alone.
 */
export interface SendStateReads {
  /** A read asked for now, which the batches then share. */
  fresh(campaignId: string): Promise<SendStateRead>;
  /** The last read asked for less than `maxAgeMs` ago, or a new one. */
  recent(campaignId: string, maxAgeMs: number): Promise<SendStateRead>;
}

/** Campaigns whose last read is kept; more at once is rare (each is one being sent). */
const CAMPAIGNS_KEPT = 20;

export function sendStateReads(store: Pick<CampaignStore, 'sendState'>): SendStateReads {
  const last = new Map<string, { readAt: number; state: Promise<CampaignSendState | null> }>();

  async function fresh(campaignId: string): Promise<SendStateRead> {
    const read = { readAt: Date.now(), state: store.sendState(campaignId) };
    last.delete(campaignId);
    if (last.size >= CAMPAIGNS_KEPT) last.clear();
    last.set(campaignId, read);
    try {
      return { state: await read.state, readAt: read.readAt };
    } catch (error) {
      // A failed read is not shared: the next batch asks the store again.
      if (last.get(campaignId) === read) last.delete(campaignId);
      throw error;
    }
  }

  return {
    fresh,
    async recent(campaignId, maxAgeMs) {
      const read = last.get(campaignId);
      if (!read || Date.now() - read.readAt >= maxAgeMs) return fresh(campaignId);
      return { state: await read.state, readAt: read.readAt };
    },
  };
}
