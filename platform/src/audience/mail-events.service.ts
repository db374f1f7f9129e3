import { trusted } from 'mongoose';
import {
  SOFT_BOUNCE_LIMIT,
  SOFT_BOUNCE_WINDOW_DAYS,
  type MailEventKind,
  type MailEventProvider,
  type MailEventsResponse,
} from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import type { Logger } from '../logger';
import type { MailIdentityKey } from '../mail/mail-identity';
import { normalizeEmail } from '../mail/email-address';
import { markUnsubscribed } from '../newsletter/unsubscribe';
import type { SubscriberChanges } from '../newsletter/subscriber-changes';
import { MailEventModel } from './mail-event.model';
import { originOfMailEvent, type OriginChecks } from './mail-event-origin';
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

export interface RecordMailEventsOptions {
  /** Told when a complaint unsubscribes an address: the dashboard's figures follow it. */
  changes: SubscriberChanges;
  /** Checks that an event names a mail we sent to its recipient. */
  identityKey: MailIdentityKey;
  /** Where events naming no mail of ours are reported (warn). */
  logger: Logger;
}

export type RecordedMailEvents = Omit<MailEventsResponse, 'ignored'>;

/**
 * Records events and applies their effects, only for those that name a mail
 * we sent to their recipient (its Message-ID or return path says so, with
 * the recipient's keyed digest): anyone can send a report to the bounce
 * mailbox, and a provider reports on mail others send through it too. The
 * rest are counted as unmatched, logged, and neither stored nor applied:
 * stored, they would count towards the soft bounces that suppress an
 * address. Each matched event is appended once under
 * `<provider>:<event id>`: a replay meets the index and is counted as a
 * duplicate, changing nothing. The effect runs after the append, and an
 * effect already applied (the address suppressed) is a no-op, so a retry
 * after a failure between the two completes the work.
 */
export async function recordMailEvents(
  events: readonly MailEventInput[],
  { changes, identityKey, logger }: RecordMailEventsOptions,
): Promise<RecordedMailEvents> {
  let recorded = 0;
  let duplicates = 0;
  let unmatched = 0;
  const checks: OriginChecks = { key: identityKey, now: new Date(), rounds: new Map() };
  for (const event of events) {
    const origin = await originOfMailEvent(event, checks);
    if (!origin.ours) {
      unmatched += 1;
      logger.warn(
        {
          provider: event.provider,
          eventId: event.eventId.slice(0, 200),
          kind: event.kind,
          reason: origin.reason,
        },
        'mail event names no mail of ours to its recipient: not applied',
      );
      continue;
    }
    const key = normalizeEmail(event.email);
    const at = event.at && !Number.isNaN(event.at.getTime()) ? event.at : new Date();
    const campaign = origin.campaign;
    try {
      await MailEventModel.create({
        _id: `${event.provider}:${event.eventId}`.slice(0, 500),
        provider: event.provider,
        kind: event.kind,
        key,
        email: event.email.trim(),
        ...(campaign ? { campaign: campaign.campaignId, round: campaign.round } : {}),
        ...(event.detail ? { detail: event.detail.slice(0, 2000) } : {}),
        at,
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      duplicates += 1;
      continue;
    }
    recorded += 1;
    await applyEffect(event, key, at, changes, campaign?.campaignId);
  }
  return { recorded, duplicates, unmatched };
}
