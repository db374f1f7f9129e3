/**
 * Verdicts on a campaign mail's opens and clicks: a person's, or a machine's
 * (a machine open, a scanner click), with the name of the rule that decided.
 * The open pixel and the tracking redirect will call `judgeOpen` and
 * `judgeClicks` with each request's facts; the event writer will call
 * `judgeMail` again over all of one mail's events when a new one arrives,
 * because some verdicts depend on what follows (an early open turns out to be
 * a person's when the person clicks later). Only `{ verdict, rule }` is meant
 * to be stored: the facts (address, user agent) are not returned.
 * Pure functions: no store, no clock, no Redis.
 */
import {
  BURST_DISTINCT_LINKS,
  BURST_WINDOW_SECONDS,
  EARLY_OPEN_RULE,
  MAIL_RULES,
  deliverySecondsOf,
  firstMatchingRule,
  signalsOf,
  type ClickFacts,
  type ClickVerdict,
  type OpenVerdict,
  type RequestFacts,
} from './machine-rules';

export interface OpenJudgement {
  readonly verdict: OpenVerdict;
  /** The rule that decided, or null when none did (a plain person's open). */
  readonly rule: string | null;
}

export interface ClickJudgement {
  readonly verdict: ClickVerdict;
  readonly rule: string | null;
}

/** One event of one mail, as the event writer will hold it before judging. */
export type MailTrackingEvent =
  | { readonly kind: 'open'; readonly facts: RequestFacts }
  | { readonly kind: 'click'; readonly facts: ClickFacts };

export type EventJudgement =
  ({ readonly kind: 'open' } & OpenJudgement) | ({ readonly kind: 'click' } & ClickJudgement);

export interface MailJudgement {
  /** One judgement per event, in the order given. */
  readonly events: readonly EventJudgement[];
  /** A person's open the mail's events imply (a person clicked, no person's open came), or null. */
  readonly impliedOpen: OpenJudgement | null;
}

/** One open judged on its own facts; `judgeMail` may later turn an early open into a person's. */
export const judgeOpen = (facts: RequestFacts): OpenJudgement => {
  const rule = firstMatchingRule(signalsOf('open', facts));
  if (!rule) return { verdict: 'person', rule: null };
  return { verdict: rule.verdict === 'machine' ? 'machine' : 'person', rule: rule.name };
};

const judgeClickAlone = (facts: ClickFacts): ClickJudgement => {
  const rule = firstMatchingRule(signalsOf('click', facts, facts.isTrapLink === true));
  if (!rule) return { verdict: 'person', rule: null };
  return { verdict: rule.verdict === 'machine' ? 'scanner' : 'person', rule: rule.name };
};

const isInBurstWindow = (facts: ClickFacts): boolean => {
  const seconds = deliverySecondsOf(facts);
  return seconds !== null && seconds <= BURST_WINDOW_SECONDS;
};

const isBurst = (clicks: readonly ClickFacts[], inWindow: readonly boolean[]): boolean =>
  new Set(clicks.filter((_, index) => inWindow[index]).map((click) => click.linkIndex)).size >=
  BURST_DISTINCT_LINKS;

/**
 * The clicks of one mail, judged together, in the order given. Each is first
 * judged on its own facts; then, within BURST_WINDOW_SECONDS of delivery, a
 * burst of distinct links, or any one scanner click, marks every click of the
 * mail in that window as a scanner's.
 */
export const judgeClicks = (clicks: readonly ClickFacts[]): ClickJudgement[] => {
  const alone = clicks.map(judgeClickAlone);
  const inWindow = clicks.map(isInBurstWindow);
  const burst = isBurst(clicks, inWindow);
  const scannerInWindow = alone.some(
    (judgement, index) => inWindow[index] && judgement.verdict === 'scanner',
  );
  return alone.map((judgement, index): ClickJudgement => {
    if (judgement.verdict === 'scanner' || !inWindow[index]) return judgement;
    if (burst) return { verdict: 'scanner', rule: MAIL_RULES.linkBurst };
    if (scannerInWindow) return { verdict: 'scanner', rule: MAIL_RULES.scannerWindow };
    return judgement;
  });
};

/** An event judged, with its time since delivery (as the rules read it) for the group rules. */
interface TimedJudgement {
  readonly seconds: number | null;
  readonly judgement: EventJudgement;
}

/** When a person showed up: the times of the person's clicks and opens (unknown times left out). */
const humanSignTimes = (timed: readonly TimedJudgement[]): number[] =>
  timed.flatMap(({ seconds, judgement }) =>
    judgement.verdict === 'person' && seconds !== null ? [seconds] : [],
  );

const isProvisional = (judgement: EventJudgement): boolean =>
  judgement.kind === 'open' && judgement.rule === EARLY_OPEN_RULE;

/** An early open stays a machine's unless a human sign comes at or after it. */
const confirmEarlyOpens = (timed: readonly TimedJudgement[]): EventJudgement[] => {
  const signs = humanSignTimes(timed);
  return timed.map(({ seconds, judgement }) => {
    if (!isProvisional(judgement) || seconds === null) return judgement;
    const followed = signs.some((sign) => sign >= seconds);
    return followed
      ? { kind: 'open', verdict: 'person', rule: MAIL_RULES.laterHumanSign }
      : judgement;
  });
};

const impliedOpenOf = (judgements: readonly EventJudgement[]): OpenJudgement | null => {
  const personClicked = judgements.some((j) => j.kind === 'click' && j.verdict === 'person');
  const personOpened = judgements.some((j) => j.kind === 'open' && j.verdict === 'person');
  return personClicked && !personOpened
    ? { verdict: 'person', rule: MAIL_RULES.impliedByClick }
    : null;
};

/** The mail's clicks judged together, found again by their facts (equal facts in one mail get equal verdicts). */
const clickJudgementsOf = (
  events: readonly MailTrackingEvent[],
): Map<ClickFacts, ClickJudgement> => {
  const clicks = events.flatMap((event) => (event.kind === 'click' ? [event.facts] : []));
  const judged = judgeClicks(clicks);
  return new Map(
    clicks.map((facts, index) => [facts, judged[index] ?? { verdict: 'person', rule: null }]),
  );
};

/**
 * All the events of one mail judged as a group: clicks by `judgeClicks`,
 * opens by `judgeOpen`, then early opens re-judged against the person's
 * later signs, and the open a person's click implies.
 */
export const judgeMail = (events: readonly MailTrackingEvent[]): MailJudgement => {
  const clicks = clickJudgementsOf(events);
  const timed = events.map((event): TimedJudgement => ({
    seconds: deliverySecondsOf(event.facts),
    judgement:
      event.kind === 'open'
        ? { kind: 'open', ...judgeOpen(event.facts) }
        : { kind: 'click', ...(clicks.get(event.facts) ?? { verdict: 'person', rule: null }) },
  }));
  const judged = confirmEarlyOpens(timed);
  return { events: judged, impliedOpen: impliedOpenOf(judged) };
};
