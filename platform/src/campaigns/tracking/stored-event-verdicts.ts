/**
 * One recipient's stored events judged again together. The endpoints judge
 * each request on its own facts and drop them (`judgeOpen`, `judgeClicks`);
 * what reaches the event writer is the request's verdict, its rule and its
 * times. Some verdicts depend on what came after (an early open is a
 * person's once the person clicks; the first click of a scanner's burst looks
 * like a person's until the next two come), so every time a recipient's
 * events change the writer judges them all again from the requests' own
 * verdicts with the mail rules below. Pure: no store, no clock.
 */
import type { TrackingEventRecord } from '@agency/contracts';
import {
  BURST_DISTINCT_LINKS,
  BURST_WINDOW_SECONDS,
  EARLY_OPEN_RULE,
  MAIL_RULES,
} from './machine-rules';

/** What is stored of an event: the request's verdict and rule, and its times. */
export type StoredTrackingEvent = Pick<
  TrackingEventRecord,
  'id' | 'kind' | 'linkIndex' | 'trap' | 'at' | 'sentAt' | 'verdict' | 'rule'
>;

export interface RejudgedRecipient {
  /** The events in the order given, each with the verdict and rule of the mail's rules. */
  readonly events: readonly StoredTrackingEvent[];
  /** When a person's open is implied (a person's first click, with no person's open), or null. */
  readonly impliedOpenAt: string | null;
}

/** Seconds from the mail's delivery to the request; null when either time is unreadable. */
const secondsSinceSent = (event: StoredTrackingEvent): number | null => {
  const seconds = (Date.parse(event.at) - Date.parse(event.sentAt)) / 1000;
  return Number.isFinite(seconds) ? seconds : null;
};

const isInBurstWindow = (event: StoredTrackingEvent): boolean => {
  const seconds = secondsSinceSent(event);
  return event.kind === 'click' && seconds !== null && seconds <= BURST_WINDOW_SECONDS;
};

/** The rule that makes every click in the burst window a scanner's, or null when none applies. */
const windowRuleOf = (events: readonly StoredTrackingEvent[]): string | null => {
  const inWindow = events.filter(isInBurstWindow);
  if (new Set(inWindow.map((event) => event.linkIndex)).size >= BURST_DISTINCT_LINKS) {
    return MAIL_RULES.linkBurst;
  }
  if (inWindow.some((event) => event.verdict === 'scanner')) return MAIL_RULES.scannerWindow;
  return null;
};

const rejudgeClicks = (events: readonly StoredTrackingEvent[]): StoredTrackingEvent[] => {
  const rule = windowRuleOf(events);
  return events.map((event) =>
    rule && event.verdict !== 'scanner' && isInBurstWindow(event)
      ? { ...event, verdict: 'scanner', rule }
      : event,
  );
};

/** An early open stays a machine's unless a person's click or open comes at or after it. */
const confirmEarlyOpens = (events: readonly StoredTrackingEvent[]): StoredTrackingEvent[] => {
  const signs = events.flatMap((event) => {
    const seconds = secondsSinceSent(event);
    return event.verdict === 'person' && seconds !== null ? [seconds] : [];
  });
  return events.map((event) => {
    const seconds = secondsSinceSent(event);
    if (event.kind !== 'open' || event.rule !== EARLY_OPEN_RULE || seconds === null) return event;
    return signs.some((sign) => sign >= seconds)
      ? { ...event, verdict: 'person', rule: MAIL_RULES.laterHumanSign }
      : event;
  });
};

const impliedOpenAtOf = (events: readonly StoredTrackingEvent[]): string | null => {
  if (events.some((event) => event.kind === 'open' && event.verdict === 'person')) return null;
  const personClicks = events
    .filter((event) => event.kind === 'click' && event.verdict === 'person')
    .map((event) => event.at)
    .sort();
  return personClicks[0] ?? null;
};

/**
 * A recipient's events judged together: a burst of distinct links, or any
 * scanner click, within BURST_WINDOW_SECONDS of delivery marks every click in
 * that window a scanner's; then an early open followed by a person's sign is
 * a person's; then a person's click without a person's open implies one.
 */
export const rejudgeRecipientEvents = (
  events: readonly StoredTrackingEvent[],
): RejudgedRecipient => {
  const judged = confirmEarlyOpens(rejudgeClicks(events));
  return { events: judged, impliedOpenAt: impliedOpenAtOf(judged) };
};
