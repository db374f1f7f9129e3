import { BURST_WINDOW_SECONDS, EARLY_OPEN_RULE, MAIL_RULES } from './machine-rules';
import { rejudgeRecipientEvents, type StoredTrackingEvent } from './stored-event-verdicts';

const SENT = '2026-05-04T10:00:00.000Z';
const after = (seconds: number): string =>
  new Date(Date.parse(SENT) + seconds * 1000).toISOString();

let counter = 0;
const open = (
  seconds: number,
  verdict: StoredTrackingEvent['verdict'] = 'person',
  rule: string | null = null,
): StoredTrackingEvent => ({
  id: `e${(counter += 1)}`,
  kind: 'open',
  linkIndex: null,
  trap: false,
  at: after(seconds),
  sentAt: SENT,
  verdict,
  rule,
});
const click = (
  linkIndex: number,
  seconds: number,
  verdict: StoredTrackingEvent['verdict'] = 'person',
  rule: string | null = null,
): StoredTrackingEvent => ({ ...open(seconds, verdict, rule), kind: 'click', linkIndex });

const verdicts = (events: readonly StoredTrackingEvent[]) => events.map((e) => [e.verdict, e.rule]);

describe('rejudgeRecipientEvents', () => {
  it('turns an early open into a person’s when a person’s click follows', () => {
    const judged = rejudgeRecipientEvents([open(2, 'machine', EARLY_OPEN_RULE), click(0, 120)]);
    expect(verdicts(judged.events)).toEqual([
      ['person', MAIL_RULES.laterHumanSign],
      ['person', null],
    ]);
    expect(judged.impliedOpenAt).toBeNull();
  });

  it('turns an early open into a person’s when a later person’s open follows', () => {
    const judged = rejudgeRecipientEvents([open(2, 'machine', EARLY_OPEN_RULE), open(600)]);
    expect(judged.events[0]).toMatchObject({ verdict: 'person', rule: MAIL_RULES.laterHumanSign });
  });

  it('keeps an early open a machine’s with no later human sign, and a proxy’s open whatever follows', () => {
    const alone = rejudgeRecipientEvents([open(2, 'machine', EARLY_OPEN_RULE)]);
    expect(verdicts(alone.events)).toEqual([['machine', EARLY_OPEN_RULE]]);
    const proxy = rejudgeRecipientEvents([
      open(1, 'machine', 'apple-privacy-proxy-network'),
      click(0, 300),
    ]);
    expect(proxy.events[0]).toMatchObject({
      verdict: 'machine',
      rule: 'apple-privacy-proxy-network',
    });
  });

  it('does not confirm an early open by a person’s click that came before it', () => {
    const judged = rejudgeRecipientEvents([click(0, -5), open(3, 'machine', EARLY_OPEN_RULE)]);
    expect(judged.events[1]).toMatchObject({ verdict: 'machine' });
  });

  it('marks every click in the window a scanner’s when distinct links burst', () => {
    const judged = rejudgeRecipientEvents([click(0, 1), click(1, 1.5), click(2, 2), click(0, 400)]);
    expect(verdicts(judged.events)).toEqual([
      ['scanner', MAIL_RULES.linkBurst],
      ['scanner', MAIL_RULES.linkBurst],
      ['scanner', MAIL_RULES.linkBurst],
      ['person', null],
    ]);
  });

  it('needs distinct links for a burst: the same link thrice stays a person’s', () => {
    const judged = rejudgeRecipientEvents([click(0, 1), click(0, 2), click(1, 3)]);
    expect(judged.events.every((e) => e.verdict === 'person')).toBe(true);
  });

  it('lets one scanner click in the window mark the mail’s other clicks in it', () => {
    const judged = rejudgeRecipientEvents([
      click(3, 1, 'scanner', 'trap-link'),
      click(0, 2),
      click(1, BURST_WINDOW_SECONDS + 1),
    ]);
    expect(verdicts(judged.events)).toEqual([
      ['scanner', 'trap-link'],
      ['scanner', MAIL_RULES.scannerWindow],
      ['person', null],
    ]);
  });

  it('implies an open at the first person’s click when no person’s open came', () => {
    const judged = rejudgeRecipientEvents([
      open(1, 'machine', 'apple-privacy-proxy-network'),
      click(1, 900),
      click(0, 300),
    ]);
    expect(judged.impliedOpenAt).toBe(after(300));
  });

  it('implies no open from scanner clicks alone', () => {
    const judged = rejudgeRecipientEvents([click(0, 1, 'scanner', 'head-request')]);
    expect(judged.impliedOpenAt).toBeNull();
  });

  it('judges a click whose times cannot be read outside the window', () => {
    const broken = { ...click(0, 1), sentAt: 'not a date' };
    const judged = rejudgeRecipientEvents([broken, click(1, 1, 'scanner', 'head-request')]);
    expect(judged.events[0]).toMatchObject({ verdict: 'person' });
  });
});
