import { trusted } from 'mongoose';
import {
  SOFT_BOUNCE_LIMIT,
  SOFT_BOUNCE_WINDOW_DAYS,
  type MailEventKind,
  type MailEventProvider,
  type MailEventsResponse,
} from '@agency/contracts';
import {
  parseCampaignMessageId,
  parseCampaignReturnPath,
  type CampaignMailIdentity,
} from '../campaigns/campaign-mail-identity';
import { isDuplicateKeyError } from '../database-errors';
import { normalizeEmail } from '../newsletter/newsletter-token';
import { markUnsubscribed } from '../newsletter/unsubscribe';
import type { SubscriberChanges } from '../newsletter/subscriber-changes';
import { MailEventModel } from './mail-event.model';
import { suppressAddress } from './suppression.service';

/** One bounce or complaint, as any provider's (or a returned mail's) format is read into. */
export interface MailEventInput {
  provider: MailEventProvider | 'dsn';
  /** The provider's own id of the event: the same event delivered twice changes nothing. */
  eventId: string;
  kind: MailEventKind;
  email: string;
  /** Message-IDs the event names (the original mail's header, with or without brackets). */
  messageIds?: readonly string[];
  /** Envelope senders the event names: a per-recipient return path names the mail too. */
  returnPaths?: readonly string[];
  detail?: string;
  at?: Date;
}

/** The campaign mail an event answers: its Message-ID first, else its return path. */
export function identifyCampaignMail(
  event: Pick<MailEventInput, 'messageIds' | 'returnPaths'>,
): CampaignMailIdentity | undefined {
  for (const id of event.messageIds ?? []) {
    const identity = parseCampaignMessageId(id);
    if (identity) return identity;
  }
  for (const path of event.returnPaths ?? []) {
    const identity = parseCampaignReturnPath(path);
    if (identity) return identity;
  }
  return undefined;
}

const DAY_MS = 24 * 3600 * 1000;

async function softBouncesOf(key: string, now: Date): Promise<number> {
  return MailEventModel.countDocuments({
    key,
    kind: 'soft-bounce',
    at: trusted({ $gte: new Date(now.getTime() - SOFT_BOUNCE_WINDOW_DAYS * DAY_MS) }),
  });
}

/**
 * What an event does to its address: a hard bounce suppresses it at once,
 * the third soft bounce within 30 days too, and a complaint suppresses it
 * and unsubscribes it from the newsletter.
 */
async function applyEffect(
  event: MailEventInput,
  key: string,
  at: Date,
  changes: SubscriberChanges,
  campaignId?: string,
): Promise<void> {
  const base = {
    email: event.email,
    source: event.provider,
    at,
    ...(campaignId ? { campaignId } : {}),
    ...(event.detail ? { detail: event.detail } : {}),
  };
  if (event.kind === 'hard-bounce') {
    await suppressAddress({ ...base, reason: 'hard-bounce' });
  } else if (event.kind === 'complaint') {
    await suppressAddress({ ...base, reason: 'complaint' });
    await markUnsubscribed(key, 'complaint', changes, at);
  } else if ((await softBouncesOf(key, at)) >= SOFT_BOUNCE_LIMIT) {
    await suppressAddress({ ...base, reason: 'soft-bounce' });
  }
}

/**
 * Records events and applies their effects. Each is appended once under
 * `<provider>:<event id>`: a replay meets the index and is counted as a
 * duplicate, changing nothing. The effect runs after the append, and an
 * effect already applied (the address suppressed) is a no-op, so a retry
 * after a failure between the two completes the work.
 */
export async function recordMailEvents(
  events: readonly MailEventInput[],
  changes: SubscriberChanges,
): Promise<Omit<MailEventsResponse, 'ignored'>> {
  let recorded = 0;
  let duplicates = 0;
  for (const event of events) {
    const key = normalizeEmail(event.email);
    const at = event.at && !Number.isNaN(event.at.getTime()) ? event.at : new Date();
    const identity = identifyCampaignMail(event);
    try {
      await MailEventModel.create({
        _id: `${event.provider}:${event.eventId}`.slice(0, 500),
        provider: event.provider,
        kind: event.kind,
        key,
        email: event.email.trim(),
        ...(identity ? { campaign: identity.campaignId, round: identity.round } : {}),
        ...(event.detail ? { detail: event.detail.slice(0, 2000) } : {}),
        at,
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      duplicates += 1;
      continue;
    }
    recorded += 1;
    await applyEffect(event, key, at, changes, identity?.campaignId);
  }
  return { recorded, duplicates };
}
