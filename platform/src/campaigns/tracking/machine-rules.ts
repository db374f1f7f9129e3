/**
 * The rules that tell a person's open or click from a machine's: mail privacy
 * proxies that fetch every pixel on delivery, and mail security gateways that
 * follow every link. The open pixel and the tracking redirect will hand the
 * request's facts to `event-verdicts.ts`, which applies this table; the store
 * then keeps only the verdict and the name of the rule that decided. The
 * client's address and user agent are read here, in memory, and never
 * returned: what leaves this file is a network's name or a rule's name.
 *
 * The table is small on purpose: each entry names its public source, and a
 * rule that cannot be cited does not belong here (the burst and window rules
 * in `MAIL_RULES` catch the gateways whose address ranges are not listed).
 */
import { BlockList, isIP } from 'node:net';

/** What a request was: the pixel (an open) or a tracking link (a click). */
export type EventKind = 'open' | 'click';

/** A machine's open is 'machine', a machine's click is 'scanner'. */
export type OpenVerdict = 'person' | 'machine';
export type ClickVerdict = 'person' | 'scanner';

/**
 * The facts of one request, read from it and dropped once judged.
 * `secondsSinceDelivery` is null when the mail's delivery time is unknown.
 */
export interface RequestFacts {
  readonly method: string;
  readonly userAgent?: string | null;
  readonly clientAddress?: string | null;
  readonly secondsSinceDelivery: number | null;
}

/** A click's facts: which link of the mail, and whether it is the hidden trap link. */
export interface ClickFacts extends RequestFacts {
  readonly linkIndex: number;
  readonly isTrapLink: boolean;
}

/** The networks the table names, each from a list its owner publishes. */
export type KnownNetwork = 'apple-private-relay' | 'mail-security-gateway';

/** What the rules look at: the facts normalised, the address reduced to its network's name. */
export interface RequestSignals {
  readonly kind: EventKind;
  readonly method: string;
  readonly userAgent: string;
  readonly network: KnownNetwork | null;
  readonly secondsSinceDelivery: number | null;
  readonly isTrapLink: boolean;
}

export interface MachineRule {
  readonly name: string;
  readonly appliesTo: readonly EventKind[];
  /** 'machine' marks a machine open or a scanner click; 'person' names how a person's open came. */
  readonly verdict: 'machine' | 'person';
  readonly matches: (signals: RequestSignals) => boolean;
}

/**
 * Address ranges by network. Only the owners' own published ranges, a few
 * blocks each, never long copied lists:
 * - Apple: 17.0.0.0/8 and 2620:149::/32 are Apple Inc.'s own registrations
 *   (ARIN, AS714). Mail Privacy Protection loads images through the iCloud
 *   Private Relay infrastructure (Apple, "Prepare your network or web server
 *   for iCloud Private Relay"; Word to the Wise, "Apple MPP reporting and
 *   geolocation", 2021). Apple's full egress list (mask-api.icloud.com
 *   egress-ip-ranges.csv) is long and mostly its partners' addresses: it is
 *   not copied here; the early-open rule catches those fetches by their timing.
 * - Microsoft Exchange Online Protection, which runs Defender for Office 365
 *   Safe Links and Safe Attachments: the Exchange Online ranges of Microsoft's
 *   "Microsoft 365 URLs and IP address ranges" (40.92.0.0/15, 40.107.0.0/16,
 *   52.100.0.0/14, 104.47.0.0/17, 2a01:111:f400::/48, 2a01:111:f403::/48).
 * - Mimecast: its US data centre ranges from "Mimecast Data Centers and URLs"
 *   (205.139.110.0/23, 207.211.30.0/24).
 * - Barracuda Email Security Service: the ranges Barracuda publishes for its
 *   cloud service (64.235.144.0/20, 209.222.80.0/21).
 * - Proofpoint (hosted, pphosted.com): Proofpoint's own registrations
 *   148.163.128.0/19 and 67.231.144.0/20.
 * People inside these companies' offices click from other networks; a request
 * from these blocks is the service itself.
 */
const NETWORK_RANGES: Readonly<Record<KnownNetwork, readonly string[]>> = {
  'apple-private-relay': ['17.0.0.0/8', '2620:149::/32'],
  'mail-security-gateway': [
    '40.92.0.0/15',
    '40.107.0.0/16',
    '52.100.0.0/14',
    '104.47.0.0/17',
    '2a01:111:f400::/48',
    '2a01:111:f403::/48',
    '205.139.110.0/23',
    '207.211.30.0/24',
    '64.235.144.0/20',
    '209.222.80.0/21',
    '148.163.128.0/19',
    '67.231.144.0/20',
  ],
};

const blockListOf = (ranges: readonly string[]): BlockList => {
  const list = new BlockList();
  for (const range of ranges) {
    const slash = range.indexOf('/');
    const network = range.slice(0, slash);
    const prefix = Number(range.slice(slash + 1));
    const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(network, prefix, family);
  }
  return list;
};

const NETWORK_BLOCK_LISTS: ReadonlyArray<readonly [KnownNetwork, BlockList]> = (
  Object.keys(NETWORK_RANGES) as KnownNetwork[]
).map((network) => [network, blockListOf(NETWORK_RANGES[network])] as const);

/**
 * The named network an address belongs to, or null (unknown, absent or
 * malformed: never throws). Only the name leaves: the address is not kept.
 * BlockList matches an IPv4-mapped address (`::ffff:a.b.c.d`, as Koa reports
 * an IPv4 client on a dual-stack socket) against the IPv4 ranges itself.
 */
export const classifyNetwork = (clientAddress: string | null | undefined): KnownNetwork | null => {
  if (typeof clientAddress !== 'string') return null;
  const address = clientAddress.trim();
  const version = isIP(address);
  if (version === 0) return null;
  const family = version === 6 ? 'ipv6' : 'ipv4';
  try {
    const found = NETWORK_BLOCK_LISTS.find(([, list]) => list.check(address, family));
    return found ? found[0] : null;
  } catch {
    return null;
  }
};

/**
 * Seconds from delivery within which an open is a machine's until a person
 * shows up later. Apple's proxies and the gateways fetch as the mail lands
 * (SocketLabs, "Identifying Apple MPP opens": images load as soon as the
 * device downloads the message); a person needs the notification, the device
 * and the open. A person who does read that fast and then clicks, or opens
 * again later, is restored by `MAIL_RULES.laterHumanSign`.
 */
export const EARLY_OPEN_SECONDS = 30;

/** The one request rule whose verdict a mail's later events can overturn. */
export const EARLY_OPEN_RULE = 'early-open';

/**
 * A burst: this many distinct links of one mail hit within this many seconds
 * of delivery. Gateways sandbox a mail by following every link within seconds
 * of delivery (Mautic #16263, Resend #901: clicks at +0 to +12 s); a person
 * cannot open a mail, read it, follow one link, come back and follow two more
 * within ten seconds of its arrival. Two links are not enough: a person can
 * double-click, or click a link and its twin image.
 */
export const BURST_DISTINCT_LINKS = 3;
export const BURST_WINDOW_SECONDS = 10;

/**
 * User-agent tokens (matched lower-case, anywhere in the string) of programs
 * that fetch links without a person: each is the tool's own documented default.
 * - `headlesschrome`: Chrome's headless mode names itself so (Chrome docs,
 *   "Chrome Headless mode"); sandboxes detonate links with it.
 * - `python-requests`, `go-http-client`, `curl/`, `wget/`: the default agents
 *   of Python Requests, Go's net/http, curl and GNU Wget (each library's docs),
 *   seen as scanners by senders (craft-campaign #546).
 * - `gmail-content-sampling`: Google's link sampler, which follows links in
 *   Gmail without the reader (reported as Stack Overflow 63184772).
 */
export const SCANNER_AGENT_TOKENS: readonly string[] = [
  'headlesschrome',
  'python-requests',
  'go-http-client',
  'curl/',
  'wget/',
  'gmail-content-sampling',
];

/**
 * Gmail's image proxy agent. Gmail fetches a mail's images through Google's
 * servers when the reader opens it and caches them (Word to the Wise, "Gmail
 * deploys image proxy servers", 2013); ScientiaMobile's WURFL reclassified the
 * agent from robot to email client in 2018 on the same evidence. So its fetch
 * is a person's open: only the first one reaches us, and the early-open rule
 * before it still marks a fetch made as the mail lands.
 */
const GMAIL_IMAGE_PROXY_TOKEN = 'googleimageproxy';

/**
 * The bare agent `Mozilla/5.0` and nothing else: what senders report Apple's
 * privacy proxies send (Apple does not document it; senders skip it as a
 * prefetcher, e.g. jdavidbakr/mail-tracker #255). No mail client or browser a
 * person uses sends so little.
 */
const BARE_MOZILLA_AGENT = 'mozilla/5.0';

const isHead = (signals: RequestSignals): boolean => signals.method === 'HEAD';
const hasNoAgent = (signals: RequestSignals): boolean => signals.userAgent === '';
const isEarly = (signals: RequestSignals, windowSeconds: number): boolean =>
  signals.secondsSinceDelivery !== null && signals.secondsSinceDelivery <= windowSeconds;

/**
 * The request rules, first match wins, in the order a verdict is surest.
 * Each rule's comment names its source.
 */
export const MACHINE_RULES: readonly MachineRule[] = [
  // The trap: a link hidden from people (display:none, aria-hidden,
  // tabindex=-1) that only a program reading the HTML follows.
  { name: 'trap-link', appliesTo: ['click'], verdict: 'machine', matches: (s) => s.isTrapLink },
  // A person's browser or mail client GETs; link checkers and gateways probe
  // with HEAD (RFC 9110 §9.3.2: HEAD asks for the headers only).
  { name: 'head-request', appliesTo: ['open', 'click'], verdict: 'machine', matches: isHead },
  // Every browser and mail client sends a User-Agent (RFC 9110 §10.1.5 says a
  // client SHOULD); a request without one is a script.
  { name: 'no-user-agent', appliesTo: ['open', 'click'], verdict: 'machine', matches: hasNoAgent },
  // SCANNER_AGENT_TOKENS above, each a tool's documented default agent.
  {
    name: 'scanner-user-agent',
    appliesTo: ['open', 'click'],
    verdict: 'machine',
    matches: (s) => SCANNER_AGENT_TOKENS.some((token) => s.userAgent.includes(token)),
  },
  // NETWORK_RANGES above: Microsoft, Mimecast, Barracuda and Proofpoint's
  // published ranges for their mail filtering services.
  {
    name: 'security-gateway-network',
    appliesTo: ['open', 'click'],
    verdict: 'machine',
    matches: (s) => s.network === 'mail-security-gateway',
  },
  // NETWORK_RANGES above: Apple's own blocks, through which Mail Privacy
  // Protection prefetches every pixel. A person's click from there (Private
  // Relay in Safari) is still a person's: this rule judges opens only.
  {
    name: 'apple-privacy-proxy-network',
    appliesTo: ['open'],
    verdict: 'machine',
    matches: (s) => s.network === 'apple-private-relay',
  },
  // BARE_MOZILLA_AGENT above: the agent Apple's proxies send from their
  // partners' networks.
  {
    name: 'apple-privacy-proxy-agent',
    appliesTo: ['open'],
    verdict: 'machine',
    matches: (s) => s.userAgent === BARE_MOZILLA_AGENT,
  },
  // EARLY_OPEN_SECONDS above. Provisional: judgeMail turns it into a person's
  // open when a human sign follows.
  {
    name: EARLY_OPEN_RULE,
    appliesTo: ['open'],
    verdict: 'machine',
    matches: (s) => isEarly(s, EARLY_OPEN_SECONDS),
  },
  // GMAIL_IMAGE_PROXY_TOKEN above: a person's open through Google's proxy,
  // named so the report can tell how the open came.
  {
    name: 'gmail-image-proxy',
    appliesTo: ['open'],
    verdict: 'person',
    matches: (s) => s.userAgent.includes(GMAIL_IMAGE_PROXY_TOKEN),
  },
];

/**
 * The rules that judge a mail's events together (in `event-verdicts.ts`),
 * named here beside the request rules so that every rule name the store can
 * hold is in this file.
 */
export const MAIL_RULES = {
  /** BURST_DISTINCT_LINKS links within BURST_WINDOW_SECONDS of delivery: every click in that window. */
  linkBurst: 'link-burst',
  /** Any scanner click in the burst window marks the mail's other clicks in it (the rule). */
  scannerWindow: 'same-mail-scanner-window',
  /** An early open followed by a person's click or a later person's open is a person's. */
  laterHumanSign: 'later-human-sign',
  /** A person's click on a mail with no person's open counts as an open. */
  impliedByClick: 'implied-by-click',
} as const;

/**
 * Non-finite times are unknown. A negative one stays: the delivery receipt can
 * be stored after a gateway's fetch, and such a fetch is within every window.
 */
const normaliseSeconds = (seconds: number | null): number | null =>
  seconds === null || !Number.isFinite(seconds) ? null : seconds;

/** The request's time since delivery as the rules read it. */
export const deliverySecondsOf = (facts: RequestFacts): number | null =>
  normaliseSeconds(facts.secondsSinceDelivery);

/** The facts reduced to what the rules look at; the address does not survive this. */
export const signalsOf = (
  kind: EventKind,
  facts: RequestFacts,
  isTrapLink = false,
): RequestSignals => ({
  kind,
  method: typeof facts.method === 'string' ? facts.method.trim().toUpperCase() : '',
  userAgent: typeof facts.userAgent === 'string' ? facts.userAgent.trim().toLowerCase() : '',
  network: classifyNetwork(facts.clientAddress),
  secondsSinceDelivery: deliverySecondsOf(facts),
  isTrapLink,
});

/** The first rule of the table that applies to this kind of event and matches. */
export const firstMatchingRule = (signals: RequestSignals): MachineRule | undefined =>
  MACHINE_RULES.find((rule) => rule.appliesTo.includes(signals.kind) && rule.matches(signals));
