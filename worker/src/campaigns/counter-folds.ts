import type { Logger, CampaignSendState } from '@agency/platform';
import type { RoundProgress } from './round-tracker';

interface Pending {
  campaign: CampaignSendState;
  progress: RoundProgress;
  timer?: NodeJS.Timeout;
  writing: boolean;
  lastWriteAt: number;
}

export interface CounterFolds {
  /** The round's newest counters: written into the campaign now, or at most `intervalMs` later. */
  fold(campaign: CampaignSendState, progress: RoundProgress): void;
  /** The round ended and wrote its own counters: nothing more is folded for it. */
  forget(campaignId: string): void;
  /** A fold is waiting or being written. */
  busy(): boolean;
  close(): void;
}

/**
 * Copies a round's counters into the campaign document at most once per
 * `intervalMs` per campaign and process, however many batches end meanwhile,
 * and always once more after the last change. A batch ends every few
 * milliseconds at full speed: one write of the campaign each would be most
 * of the store's work, for a progress bar read every second or two.
 * `write` answers undefined when it could not write now (another writer
 * holds the campaign): the newest counters are then tried again later.
 */
export function counterFolds(
  write: (campaign: CampaignSendState, progress: RoundProgress) => Promise<unknown>,
  intervalMs: number,
  logger: Logger,
): CounterFolds {
  // An entry stays after its write, to space out the next one; the round's end forgets it.
  const pending = new Map<string, Pending>();

  function schedule(id: string, entry: Pending) {
    if (entry.timer || entry.writing) return;
    const wait = Math.max(entry.lastWriteAt + intervalMs - Date.now(), 0);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void writeNow(id, entry);
    }, wait);
    entry.timer.unref();
  }

  async function writeNow(id: string, entry: Pending) {
    const { campaign, progress } = entry;
    entry.writing = true;
    entry.lastWriteAt = Date.now();
    let written = false;
    try {
      written = (await write(campaign, progress)) !== undefined;
      // Stryker disable next-line BlockStatement: the catch only logs, and a log line is not behaviour
    } catch (error) {
      logger.warn({ campaignId: id, err: error }, 'could not fold the campaign counters');
    } finally {
      entry.writing = false;
    }
    // Forgotten meanwhile (the round ended), or nothing newer to write: done until the next fold.
    if (pending.get(id) !== entry || (written && entry.progress === progress)) return;
    schedule(id, entry);
  }

  return {
    fold(campaign, progress) {
      const entry = pending.get(campaign.id);
      if (!entry) {
        const created: Pending = { campaign, progress, writing: false, lastWriteAt: 0 };
        pending.set(campaign.id, created);
        schedule(campaign.id, created);
        return;
      }
      if (progress.version >= entry.progress.version) {
        entry.campaign = campaign;
        entry.progress = progress;
      }
      schedule(campaign.id, entry);
    },
    forget(campaignId) {
      clearTimeout(pending.get(campaignId)?.timer);
      pending.delete(campaignId);
    },
    busy() {
      return [...pending.values()].some((entry) => entry.timer !== undefined || entry.writing);
    },
    close() {
      for (const entry of pending.values()) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}
