import {
  rejudgeRecipientEvents,
  type StoredTrackingEvent,
} from '../tracking/stored-event-verdicts';
import {
  HOURLY_TIMELINE_HOURS,
  contributionOf,
  differenceOf,
  timelineBucketOf,
} from './recipient-contribution';

const STARTED = new Date('2026-05-04T10:30:00.000Z');
const SENT = STARTED.toISOString();
const at = (hours: number) => new Date(STARTED.getTime() + hours * 3_600_000).toISOString();

const event = (fields: Partial<StoredTrackingEvent>): StoredTrackingEvent => ({
  id: 'e',
  kind: 'open',
  linkIndex: null,
  trap: false,
  at: at(1),
  sentAt: SENT,
  verdict: 'person',
  rule: null,
  ...fields,
});

describe('the timeline buckets', () => {
  it('are hours for the first 48 hours from the start, days after', () => {
    expect(timelineBucketOf(at(0.6), STARTED)).toBe('h2026050411');
    expect(timelineBucketOf(at(HOURLY_TIMELINE_HOURS - 0.01), STARTED)).toBe('h2026050610');
    expect(timelineBucketOf(at(HOURLY_TIMELINE_HOURS), STARTED)).toBe('d20260506');
    expect(timelineBucketOf(at(1), null)).toBe('d20260504');
  });
});

describe("a recipient's contribution", () => {
  it('counts the trap as a scanner click but not as a link of the table', () => {
    const judged = rejudgeRecipientEvents([
      event({
        id: 'a',
        kind: 'click',
        linkIndex: 2,
        trap: true,
        verdict: 'scanner',
        rule: 'trap-link',
      }),
    ]);
    const counters = contributionOf(judged, { locale: 'en', source: 1 }, STARTED);
    expect(counters.get('clicks.scanners.total')).toBe(1);
    expect([...counters.keys()].some((path) => path.startsWith('links.'))).toBe(false);
  });

  it('counts an implied open in the people’s opens, the language and the timeline', () => {
    const judged = rejudgeRecipientEvents([event({ id: 'a', kind: 'click', linkIndex: 0 })]);
    const counters = contributionOf(judged, { locale: 'ar', source: null }, STARTED);
    expect(Object.fromEntries(counters)).toEqual({
      'opens.people.unique': 1,
      'opens.people.total': 1,
      'opens.implied': 1,
      'clicks.people.unique': 1,
      'clicks.people.total': 1,
      'links.l0.people.unique': 1,
      'links.l0.people.total': 1,
      'timeline.h2026050411.clicks': 1,
      'timeline.h2026050411.opens': 1,
      'languages.ar.opened': 1,
      'languages.ar.clicked': 1,
      'sources.unknown.opened': 1,
      'sources.unknown.clicked': 1,
    });
  });

  it("counts a person under its source's row, and a machine under none", () => {
    const opened = rejudgeRecipientEvents([event({ id: 'a', at: at(2) })]);
    const person = contributionOf(opened, { locale: 'fr', source: 4 }, STARTED);
    expect(person.get('sources.s4.opened')).toBe(1);
    expect(person.has('sources.s4.clicked')).toBe(false);
    const machine = rejudgeRecipientEvents([
      event({ id: 'b', verdict: 'machine', rule: 'apple-mpp' }),
    ]);
    const counters = contributionOf(machine, { locale: 'fr', source: 4 }, STARTED);
    expect([...counters.keys()].some((path) => path.startsWith('sources.'))).toBe(false);
  });

  it('moves by the difference, both ways', () => {
    const before = new Map([
      ['opens.machines.unique', 1],
      ['opens.machines.total', 1],
    ]);
    const after = new Map([
      ['opens.people.unique', 1],
      ['opens.people.total', 1],
      ['opens.machines.total', 1],
    ]);
    expect(Object.fromEntries(differenceOf(before, after))).toEqual({
      'opens.machines.unique': -1,
      'opens.people.unique': 1,
      'opens.people.total': 1,
    });
  });
});
