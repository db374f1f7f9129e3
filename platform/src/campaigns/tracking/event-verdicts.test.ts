import fc from 'fast-check';
import { judgeClicks, judgeMail, judgeOpen, type MailTrackingEvent } from './event-verdicts';
import {
  BURST_DISTINCT_LINKS,
  BURST_WINDOW_SECONDS,
  EARLY_OPEN_SECONDS,
  type ClickFacts,
  type RequestFacts,
} from './machine-rules';

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)';

const open = (
  secondsSinceDelivery: number | null,
  overrides: Partial<RequestFacts> = {},
): MailTrackingEvent => ({
  kind: 'open',
  facts: {
    method: 'GET',
    userAgent: BROWSER,
    clientAddress: '198.51.100.4',
    secondsSinceDelivery,
    ...overrides,
  },
});

const clickFacts = (
  linkIndex: number,
  secondsSinceDelivery: number | null,
  overrides: Partial<ClickFacts> = {},
): ClickFacts => ({
  method: 'GET',
  userAgent: BROWSER,
  clientAddress: '198.51.100.4',
  secondsSinceDelivery,
  linkIndex,
  isTrapLink: false,
  ...overrides,
});

const click = (
  linkIndex: number,
  seconds: number | null,
  overrides: Partial<ClickFacts> = {},
): MailTrackingEvent => ({
  kind: 'click',
  facts: clickFacts(linkIndex, seconds, overrides),
});

describe('judgeOpen', () => {
  it('judges a person’s open an hour after delivery with no rule', () => {
    expect(judgeOpen(open(3600).facts)).toEqual({ verdict: 'person', rule: null });
  });

  it('judges an Apple proxy prefetch a machine’s', () => {
    expect(
      judgeOpen(open(4, { clientAddress: '17.58.1.2', userAgent: 'Mozilla/5.0' }).facts),
    ).toEqual({
      verdict: 'machine',
      rule: 'apple-privacy-proxy-network',
    });
  });

  it('judges Gmail’s proxy fetch a person’s open, naming the rule', () => {
    const gmail =
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
    expect(judgeOpen(open(600, { userAgent: gmail }).facts)).toEqual({
      verdict: 'person',
      rule: 'gmail-image-proxy',
    });
  });

  it('never returns the address or the user agent', () => {
    const judged = judgeOpen(
      open(1, { clientAddress: '17.58.1.2', userAgent: 'Mozilla/5.0' }).facts,
    );
    expect(Object.keys(judged).sort()).toEqual(['rule', 'verdict']);
    expect(JSON.stringify(judged)).not.toMatch(/17\.58|mozilla/i);
  });

  it('never throws, whatever the facts', () => {
    fc.assert(
      fc.property(
        fc.record({
          method: fc.string(),
          userAgent: fc.option(fc.string(), { nil: undefined }),
          clientAddress: fc.option(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6()), { nil: null }),
          secondsSinceDelivery: fc.option(fc.double(), { nil: null }),
        }),
        (facts) => {
          expect(['person', 'machine']).toContain(judgeOpen(facts).verdict);
        },
      ),
    );
  });
});

describe('judgeClicks', () => {
  it('judges a person’s single click a person’s', () => {
    expect(judgeClicks([clickFacts(0, 120)])).toEqual([{ verdict: 'person', rule: null }]);
  });

  it(`marks a burst of ${BURST_DISTINCT_LINKS} distinct links within ${BURST_WINDOW_SECONDS} s`, () => {
    const burst = Array.from({ length: BURST_DISTINCT_LINKS }, (_, link) =>
      clickFacts(link, 1 + link / 2),
    );
    expect(judgeClicks(burst)).toEqual(
      burst.map(() => ({ verdict: 'scanner', rule: 'link-burst' })),
    );
  });

  it('marks a burst that ends exactly at the window’s edge', () => {
    const burst = Array.from({ length: BURST_DISTINCT_LINKS }, (_, link) =>
      clickFacts(link, BURST_WINDOW_SECONDS),
    );
    expect(judgeClicks(burst).every((judged) => judged.verdict === 'scanner')).toBe(true);
  });

  it('does not mark one link fewer than a burst', () => {
    const clicks = Array.from({ length: BURST_DISTINCT_LINKS - 1 }, (_, link) =>
      clickFacts(link, 2),
    );
    expect(judgeClicks(clicks).every((judged) => judged.verdict === 'person')).toBe(true);
  });

  it('does not count the same link hit again as a distinct link', () => {
    const clicks = [clickFacts(0, 1), clickFacts(0, 2), clickFacts(1, 3), clickFacts(1, 4)];
    expect(judgeClicks(clicks).every((judged) => judged.verdict === 'person')).toBe(true);
  });

  it('leaves a click just outside the window out of the burst, and a person’s', () => {
    const clicks = [clickFacts(0, 1), clickFacts(1, 2), clickFacts(2, BURST_WINDOW_SECONDS + 0.5)];
    expect(judgeClicks(clicks).map((judged) => judged.verdict)).toEqual([
      'person',
      'person',
      'person',
    ]);
  });

  it('keeps a person’s later click a person’s after a burst at delivery', () => {
    const clicks = [clickFacts(0, 1), clickFacts(1, 1), clickFacts(2, 1), clickFacts(1, 900)];
    expect(judgeClicks(clicks).map((judged) => judged.verdict)).toEqual([
      'scanner',
      'scanner',
      'scanner',
      'person',
    ]);
  });

  it('marks every click in the window when one of them is a scanner’s', () => {
    const clicks = [clickFacts(0, 2), clickFacts(5, 3, { isTrapLink: true }), clickFacts(0, 600)];
    expect(judgeClicks(clicks)).toEqual([
      { verdict: 'scanner', rule: 'same-mail-scanner-window' },
      { verdict: 'scanner', rule: 'trap-link' },
      { verdict: 'person', rule: null },
    ]);
  });

  it('does not let a scanner’s click outside the window mark the clicks inside it', () => {
    const clicks = [clickFacts(0, 2), clickFacts(1, 600, { method: 'HEAD' })];
    expect(judgeClicks(clicks)).toEqual([
      { verdict: 'person', rule: null },
      { verdict: 'scanner', rule: 'head-request' },
    ]);
  });

  it('judges HEAD, a scanner agent and a gateway address scanners’ on their own', () => {
    const clicks = [
      clickFacts(0, 700, { method: 'HEAD' }),
      clickFacts(1, 800, { userAgent: 'python-requests/2.32' }),
      clickFacts(2, 900, { clientAddress: '::ffff:40.107.3.4' }),
    ];
    expect(judgeClicks(clicks).map((judged) => judged.rule)).toEqual([
      'head-request',
      'scanner-user-agent',
      'security-gateway-network',
    ]);
  });

  it('marks every click inside a burst’s window and none after it, whatever the order', () => {
    const inWindow = fc.record({
      link: fc.nat(20),
      seconds: fc.double({ min: 0, max: BURST_WINDOW_SECONDS, noNaN: true }),
    });
    const later = fc.record({
      link: fc.nat(20),
      seconds: fc.double({ min: BURST_WINDOW_SECONDS + 1, max: 1e6, noNaN: true }),
    });
    const mixed = fc
      .tuple(
        fc.uniqueArray(inWindow, { minLength: BURST_DISTINCT_LINKS, selector: (c) => c.link }),
        fc.array(later, { maxLength: 5 }),
      )
      .chain(([burst, after]) =>
        fc.shuffledSubarray([...burst, ...after], { minLength: burst.length + after.length }),
      );
    fc.assert(
      fc.property(mixed, (drawn) => {
        const judged = judgeClicks(drawn.map((c) => clickFacts(c.link, c.seconds)));
        expect(judged.map((j) => j.verdict)).toEqual(
          drawn.map((c) => (c.seconds <= BURST_WINDOW_SECONDS ? 'scanner' : 'person')),
        );
      }),
    );
  });

  it('does not take clicks with an unknown delivery time as a burst', () => {
    const clicks = [clickFacts(0, null), clickFacts(1, null), clickFacts(2, null)];
    expect(judgeClicks(clicks).every((judged) => judged.verdict === 'person')).toBe(true);
  });
});

describe('judgeMail', () => {
  it('turns an early open into a person’s when the person clicks later', () => {
    const judged = judgeMail([open(5), click(0, 400)]);
    expect(judged.events).toEqual([
      { kind: 'open', verdict: 'person', rule: 'later-human-sign' },
      { kind: 'click', verdict: 'person', rule: null },
    ]);
    expect(judged.impliedOpen).toBeNull();
  });

  it('turns an early open into a person’s when the person opens again later', () => {
    const judged = judgeMail([open(5), open(EARLY_OPEN_SECONDS + 60)]);
    expect(judged.events).toEqual([
      { kind: 'open', verdict: 'person', rule: 'later-human-sign' },
      { kind: 'open', verdict: 'person', rule: null },
    ]);
  });

  it('keeps an early open alone a machine’s', () => {
    expect(judgeMail([open(5)]).events).toEqual([
      { kind: 'open', verdict: 'machine', rule: 'early-open' },
    ]);
  });

  it('keeps an early open a machine’s when only scanners click after it', () => {
    const judged = judgeMail([open(1), click(0, 2), click(1, 2), click(2, 3)]);
    expect(judged.events.map((event) => event.verdict)).toEqual([
      'machine',
      'scanner',
      'scanner',
      'scanner',
    ]);
    expect(judged.impliedOpen).toBeNull();
  });

  it('keeps an early open a machine’s when the person’s sign came before it', () => {
    const judged = judgeMail([click(0, 11), open(25)]);
    expect(judged.events[1]).toEqual({ kind: 'open', verdict: 'machine', rule: 'early-open' });
  });

  it('keeps an Apple proxy prefetch a machine’s even when the person clicks later', () => {
    const judged = judgeMail([open(2, { clientAddress: '17.58.1.2' }), click(0, 400)]);
    expect(judged.events[0]).toEqual({
      kind: 'open',
      verdict: 'machine',
      rule: 'apple-privacy-proxy-network',
    });
    expect(judged.impliedOpen).toEqual({ verdict: 'person', rule: 'implied-by-click' });
  });

  it('implies a person’s open from a person’s click with no open', () => {
    expect(judgeMail([click(2, 300)]).impliedOpen).toEqual({
      verdict: 'person',
      rule: 'implied-by-click',
    });
  });

  it('implies no open from a scanner’s click', () => {
    expect(judgeMail([click(2, 300, { isTrapLink: true })]).impliedOpen).toBeNull();
  });

  it('implies no open when a person’s open is there', () => {
    expect(judgeMail([open(3600), click(0, 3700)]).impliedOpen).toBeNull();
  });

  it('answers one verdict per event, in the order given, for any mix', () => {
    const event = fc.oneof(
      fc.record({
        kind: fc.constant('open' as const),
        seconds: fc.option(fc.integer({ min: -5, max: 4000 })),
      }),
      fc.record({
        kind: fc.constant('click' as const),
        seconds: fc.option(fc.integer({ min: -5, max: 4000 })),
        link: fc.nat(6),
      }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (drawn) => {
        const events = drawn.map((e) =>
          e.kind === 'open' ? open(e.seconds) : click(e.link, e.seconds),
        );
        const judged = judgeMail(events);
        expect(judged.events.map((e) => e.kind)).toEqual(events.map((e) => e.kind));
        const personClicked = judged.events.some(
          (e) => e.kind === 'click' && e.verdict === 'person',
        );
        const personOpened = judged.events.some((e) => e.kind === 'open' && e.verdict === 'person');
        expect(judged.impliedOpen !== null).toBe(personClicked && !personOpened);
      }),
    );
  });
});
