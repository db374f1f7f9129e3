/**
 * What one recipient adds to its campaign's counters, from its events judged
 * together: the writer stores it beside the events and moves the campaign's
 * counters by the difference between the new and the old. Pure.
 * Counter paths are made of [A-Za-z0-9_-] segments: a link's index is `l<index>`,
 * a timeline bucket `h<yyyymmddhh>` (an hour) or `d<yyyymmdd>` (a day), UTC.
 */
import { campaignSourceKeyOf, type Locale } from '@agency/contracts';
import type { RejudgedRecipient, StoredTrackingEvent } from '../tracking/stored-event-verdicts';

/** Counter path → value. */
export type Counters = Map<string, number>;

/** The first hours after the send began are counted per hour, the rest per day. */
export const HOURLY_TIMELINE_HOURS = 48;

const HOUR_MS = 3_600_000;

const digitsOf = (iso: string, length: number): string =>
  iso.slice(0, length).replace(/[-T:]/g, '');

/** The timeline bucket an event falls in: hourly for 48 h from the campaign's start, daily after. */
export const timelineBucketOf = (at: string, startedAt: Date | null): string => {
  const time = Date.parse(at);
  const hourly = startedAt !== null && time < startedAt.getTime() + HOURLY_TIMELINE_HOURS * HOUR_MS;
  const iso = new Date(time).toISOString();
  return hourly ? `h${digitsOf(iso, 13)}` : `d${digitsOf(iso, 10)}`;
};

const add = (counters: Counters, path: string, value = 1): void => {
  counters.set(path, (counters.get(path) ?? 0) + value);
};

/** Adds a unique (0 or 1) and a total under `path`. */
const addUniqueAndTotal = (counters: Counters, path: string, total: number): void => {
  if (total === 0) return;
  add(counters, `${path}.unique`);
  add(counters, `${path}.total`, total);
};

const countWhere = (
  events: readonly StoredTrackingEvent[],
  test: (event: StoredTrackingEvent) => boolean,
): number => events.filter(test).length;

const addOpens = (counters: Counters, judged: RejudgedRecipient): void => {
  const isOpen = (verdict: string) => (e: StoredTrackingEvent) =>
    e.kind === 'open' && e.verdict === verdict;
  const implied = judged.impliedOpenAt === null ? 0 : 1;
  addUniqueAndTotal(
    counters,
    'opens.people',
    countWhere(judged.events, isOpen('person')) + implied,
  );
  addUniqueAndTotal(counters, 'opens.machines', countWhere(judged.events, isOpen('machine')));
  if (implied) add(counters, 'opens.implied');
};

const addClicks = (counters: Counters, judged: RejudgedRecipient): void => {
  const clicks = judged.events.filter((event) => event.kind === 'click');
  const byWhom = (verdict: string) => clicks.filter((event) => event.verdict === verdict);
  addUniqueAndTotal(counters, 'clicks.people', byWhom('person').length);
  addUniqueAndTotal(counters, 'clicks.scanners', byWhom('scanner').length);
  // The trap link is not a link of the table: its clicks count as scanners' above only.
  const links = new Set(
    clicks.flatMap((e) => (e.trap || e.linkIndex === null ? [] : [e.linkIndex])),
  );
  for (const index of links) {
    const onLink = clicks.filter((event) => !event.trap && event.linkIndex === index);
    addUniqueAndTotal(
      counters,
      `links.l${index}.people`,
      countWhere(onLink, (e) => e.verdict === 'person'),
    );
    addUniqueAndTotal(
      counters,
      `links.l${index}.scanners`,
      countWhere(onLink, (e) => e.verdict !== 'person'),
    );
  }
};

const addTimeline = (
  counters: Counters,
  judged: RejudgedRecipient,
  startedAt: Date | null,
): void => {
  for (const event of judged.events) {
    if (event.verdict !== 'person') continue;
    add(counters, `timeline.${timelineBucketOf(event.at, startedAt)}.${event.kind}s`);
  }
  if (judged.impliedOpenAt !== null) {
    add(counters, `timeline.${timelineBucketOf(judged.impliedOpenAt, startedAt)}.opens`);
  }
};

const addLanguage = (counters: Counters, judged: RejudgedRecipient, locale: Locale): void => {
  const person = judged.events.filter((event) => event.verdict === 'person');
  if (judged.impliedOpenAt !== null || person.some((e) => e.kind === 'open')) {
    add(counters, `languages.${locale}.opened`);
  }
  if (person.some((e) => e.kind === 'click')) add(counters, `languages.${locale}.clicked`);
};

/** Who the recipient is to the report: the mail's language and the audience's source it came from. */
export interface RecipientOrigin {
  locale: Locale;
  /** Its place among the campaign's sources; null when its tokens did not say. */
  source: number | null;
}

/**
 * The recipient's part of its source's row (`sources.s<place>`, or
 * `sources.unknown`): who opened and who clicked, as its language's row counts them.
 */
const addSource = (counters: Counters, { locale, source }: RecipientOrigin): void => {
  const key = campaignSourceKeyOf(source);
  if (counters.has(`languages.${locale}.opened`)) add(counters, `sources.${key}.opened`);
  if (counters.has(`languages.${locale}.clicked`)) add(counters, `sources.${key}.clicked`);
};

/** Everything one recipient adds to the campaign's counters. */
export const contributionOf = (
  judged: RejudgedRecipient,
  origin: RecipientOrigin,
  startedAt: Date | null,
): Counters => {
  const counters: Counters = new Map();
  addOpens(counters, judged);
  addClicks(counters, judged);
  addTimeline(counters, judged, startedAt);
  addLanguage(counters, judged, origin.locale);
  addSource(counters, origin);
  return counters;
};

/** What moves the counters from `before` to `after`: the non-zero differences. */
export const differenceOf = (before: Counters, after: Counters): Counters => {
  const delta: Counters = new Map();
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const change = (after.get(path) ?? 0) - (before.get(path) ?? 0);
    if (change !== 0) delta.set(path, change);
  }
  return delta;
};

export const countersOfEntries = (entries: readonly { path: string; value: number }[]): Counters =>
  new Map(entries.map(({ path, value }) => [path, value]));

export const entriesOfCounters = (counters: Counters): { path: string; value: number }[] =>
  [...counters].map(([path, value]) => ({ path, value }));
