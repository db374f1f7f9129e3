import fc from 'fast-check';
import {
  EARLY_OPEN_SECONDS,
  MACHINE_RULES,
  classifyNetwork,
  firstMatchingRule,
  signalsOf,
  type EventKind,
  type RequestFacts,
} from './machine-rules';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HOME_ADDRESS = '203.0.113.7';

const facts = (overrides: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'GET',
  userAgent: BROWSER,
  clientAddress: HOME_ADDRESS,
  secondsSinceDelivery: 3600,
  ...overrides,
});

const ruleFor = (
  kind: EventKind,
  overrides: Partial<RequestFacts> = {},
  isTrapLink = false,
): string | null => firstMatchingRule(signalsOf(kind, facts(overrides), isTrapLink))?.name ?? null;

describe('classifyNetwork', () => {
  it.each([
    ['17.253.144.10', 'apple-private-relay'],
    ['2620:149:a44::10', 'apple-private-relay'],
    ['::ffff:17.1.2.3', 'apple-private-relay'],
    ['40.107.22.5', 'mail-security-gateway'],
    ['40.93.255.255', 'mail-security-gateway'],
    ['104.47.127.1', 'mail-security-gateway'],
    ['2a01:111:f400:7e1c::1', 'mail-security-gateway'],
    ['2A01:111:F403::25', 'mail-security-gateway'],
    ['205.139.111.3', 'mail-security-gateway'],
    ['209.222.87.255', 'mail-security-gateway'],
    ['148.163.150.1', 'mail-security-gateway'],
    ['67.231.159.9', 'mail-security-gateway'],
    [' 40.107.22.5 ', 'mail-security-gateway'],
  ])('puts %s in %s', (address, network) => {
    expect(classifyNetwork(address)).toBe(network);
  });

  it.each([
    ['18.0.0.1'],
    ['16.255.255.255'],
    ['40.106.255.255'],
    ['40.94.1.1'],
    ['104.47.128.1'],
    ['2a01:111:f401::1'],
    ['2620:14a::1'],
    ['::ffff:203.0.113.7'],
    [HOME_ADDRESS],
  ])('leaves %s, just outside every range, unnamed', (address) => {
    expect(classifyNetwork(address)).toBeNull();
  });

  it.each([
    ['not an address'],
    [''],
    ['17.0.0'],
    ['256.1.1.1'],
    ['[2620:149::1]:443'],
    ['17.1.2.3:8080'],
    ['fe80::1%eth0'],
    ['::ffff:'],
  ])('answers null for the malformed %j', (address) => {
    expect(classifyNetwork(address)).toBeNull();
  });

  it('answers null for an absent address', () => {
    expect(classifyNetwork(undefined)).toBeNull();
    expect(classifyNetwork(null)).toBeNull();
  });

  it('never throws and answers only a network name or null, whatever the string', () => {
    const names = new Set<string | null>([null, 'apple-private-relay', 'mail-security-gateway']);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6(), fc.ipV4Extended()), (address) => {
        expect(names.has(classifyNetwork(address))).toBe(true);
      }),
    );
  });
});

describe('MACHINE_RULES', () => {
  it('names every rule once', () => {
    const names = MACHINE_RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('lets an ordinary person open and click, an hour after delivery', () => {
    expect(ruleFor('open')).toBeNull();
    expect(ruleFor('click')).toBeNull();
  });

  describe('trap-link', () => {
    it('fires on a click on the hidden link', () => {
      expect(ruleFor('click', {}, true)).toBe('trap-link');
    });
    it('does not fire on a visible link', () => {
      expect(ruleFor('click', {}, false)).toBeNull();
    });
  });

  describe('head-request', () => {
    it.each(['HEAD', 'head', ' Head '])('fires on %j for a click and an open', (method) => {
      expect(ruleFor('click', { method })).toBe('head-request');
      expect(ruleFor('open', { method })).toBe('head-request');
    });
    it('does not fire on GET', () => {
      expect(ruleFor('click', { method: 'get' })).toBeNull();
    });
  });

  describe('no-user-agent', () => {
    it.each([[undefined], [null], [''], ['   ']])('fires when the agent is %j', (userAgent) => {
      expect(ruleFor('click', { userAgent })).toBe('no-user-agent');
      expect(ruleFor('open', { userAgent })).toBe('no-user-agent');
    });
    it('does not fire on a one-word agent', () => {
      expect(ruleFor('click', { userAgent: 'Thunderbird' })).toBeNull();
    });
  });

  describe('scanner-user-agent', () => {
    it.each([
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ],
      ['python-requests/2.32.3'],
      ['Go-http-client/1.1'],
      ['curl/8.5.0'],
      ['Wget/1.21.4'],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/42.0 Safari/537.36 Edge/12.246 Gmail-content-sampling',
      ],
      ['PYTHON-REQUESTS/2.31'],
    ])('fires on %j', (userAgent) => {
      expect(ruleFor('click', { userAgent })).toBe('scanner-user-agent');
      expect(ruleFor('open', { userAgent })).toBe('scanner-user-agent');
    });
    it.each([
      [BROWSER],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko)'],
    ])('does not fire on a person’s browser %j', (userAgent) => {
      expect(ruleFor('click', { userAgent })).toBeNull();
    });
    it('does not fire on a word that only resembles a tool', () => {
      expect(ruleFor('click', { userAgent: 'Mozilla/5.0 CurlyBrowser/1.0' })).toBeNull();
    });
  });

  describe('security-gateway-network', () => {
    it('fires on a click and an open from a gateway’s published range', () => {
      expect(ruleFor('click', { clientAddress: '40.107.22.5' })).toBe('security-gateway-network');
      expect(ruleFor('open', { clientAddress: '2a01:111:f403::9' })).toBe(
        'security-gateway-network',
      );
    });
    it('does not fire just outside the range', () => {
      expect(ruleFor('click', { clientAddress: '40.106.255.255' })).toBeNull();
    });
  });

  describe('apple-privacy-proxy-network', () => {
    it('fires on an open from Apple’s addresses', () => {
      expect(ruleFor('open', { clientAddress: '17.58.1.2' })).toBe('apple-privacy-proxy-network');
    });
    it('does not judge a click from Apple’s addresses (a person behind Private Relay)', () => {
      expect(ruleFor('click', { clientAddress: '17.58.1.2' })).toBeNull();
    });
    it('does not fire just outside Apple’s block', () => {
      expect(ruleFor('open', { clientAddress: '18.0.0.1' })).toBeNull();
    });
  });

  describe('apple-privacy-proxy-agent', () => {
    it.each(['Mozilla/5.0', 'mozilla/5.0 '])(
      'fires on an open with the bare agent %j',
      (userAgent) => {
        expect(ruleFor('open', { userAgent })).toBe('apple-privacy-proxy-agent');
      },
    );
    it('does not fire on a full Safari agent', () => {
      expect(
        ruleFor('open', { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' }),
      ).toBeNull();
    });
    it('does not judge a click', () => {
      expect(ruleFor('click', { userAgent: 'Mozilla/5.0' })).toBeNull();
    });
  });

  describe('early-open', () => {
    it.each([0, 1, EARLY_OPEN_SECONDS, -5])('fires on an open %d s after delivery', (seconds) => {
      expect(ruleFor('open', { secondsSinceDelivery: seconds })).toBe('early-open');
    });
    it('does not fire just after the window', () => {
      expect(ruleFor('open', { secondsSinceDelivery: EARLY_OPEN_SECONDS + 0.001 })).toBeNull();
    });
    it.each([null, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
      'does not fire when the time is %p',
      (seconds) => {
        expect(ruleFor('open', { secondsSinceDelivery: seconds })).toBeNull();
      },
    );
    it('does not judge a click on its own', () => {
      expect(ruleFor('click', { secondsSinceDelivery: 1 })).toBeNull();
    });
  });

  describe('gmail-image-proxy', () => {
    const GMAIL =
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
    it('names a person’s open through Gmail’s proxy', () => {
      const rule = firstMatchingRule(signalsOf('open', facts({ userAgent: GMAIL })));
      expect(rule?.name).toBe('gmail-image-proxy');
      expect(rule?.verdict).toBe('person');
    });
    it('gives way to the early-open rule when the fetch comes as the mail lands', () => {
      expect(ruleFor('open', { userAgent: GMAIL, secondsSinceDelivery: 2 })).toBe('early-open');
    });
    it('does not fire on another Firefox', () => {
      expect(
        ruleFor('open', { userAgent: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0' }),
      ).toBeNull();
    });
  });
});
