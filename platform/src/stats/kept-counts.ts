import DataLoader from 'dataloader';
import { DateTime } from 'luxon';
import type { Result } from 'ioredis';
import type { ContactStatus, ServiceSlug } from '@agency/contracts';
import type { Logger } from '../logger';
import type { Redis } from '../redis-connection';
import type { ContactChanges, ContactFacts } from '../contact/contact-changes';
import { normalizeEmail } from '../mail/email-address';
import type { SubscriberChanges } from '../newsletter/subscriber-changes';

/*
 * The dashboard's figures, kept in Redis as each change happens rather than
 * counted from the collections on every request (listmonk refreshes
 * materialized views; this keeps the equivalent current on write). Redis
 * applies each increment atomically, so concurrent writers never lose one,
 * on either store. The store stays the truth: a change whose increment was
 * lost (Redis away, a crash between the two writes) is drift, which the
 * reconciliation (stats-reconciliation.ts) finds and repairs on a schedule.
 *
 * Keys, all under the queue prefix (one hash tag on a Redis Cluster):
 *   stats:counts                   contacts, by status, by service, by both;
 *                                  subscribers by status; campaigns; the
 *                                  campaign audiences (distinct addresses)
 *   stats:days:<time zone>         enquiries per local day, "yyyy-MM-dd"
 *   stats:enquiries-per-address    address -> how many enquiries it sent
 *   stats:subscriber-status        address -> its subscription's status
 *   stats:meta                     when the last reconciliation ran
 * The two per-address hashes let the audience counts follow an address
 * entering or leaving a recipient type without reading any collection.
 */

export interface StatsKeys {
  counts: string;
  days: string;
  enquiriesPerAddress: string;
  /** Of those enquiries, how many ticked "send me news". */
  consentedPerAddress: string;
  subscriberStatus: string;
  meta: string;
}

export function statsKeys(prefix: string, timeZone: string): StatsKeys {
  const base = `${prefix}:stats`;
  return {
    counts: `${base}:counts`,
    days: `${base}:days:${timeZone}`,
    enquiriesPerAddress: `${base}:enquiries-per-address`,
    consentedPerAddress: `${base}:consented-enquiries-per-address`,
    subscriberStatus: `${base}:subscriber-status`,
    meta: `${base}:meta`,
  };
}

/** The fields of `stats:counts`. */
export const COUNT_FIELDS = {
  contacts: 'contacts',
  contactsByStatus: (status: string) => `contacts:status:${status}`,
  contactsByService: (service: string) => `contacts:service:${service}`,
  contactsByStatusAndService: (status: string, service: string) =>
    `contacts:status:${status}:service:${service}`,
  subscribers: (status: string) => `subscribers:${status}`,
  campaigns: 'campaigns',
  /** Addresses that sent an enquiry and did not unsubscribe. */
  audienceContacts: 'audience:contacts',
  /** Addresses that sent an enquiry or confirmed a subscription, and did not unsubscribe. */
  audienceAll: 'audience:all',
  /**
   * The same two, with only the enquiries that ticked "send me news": whom a
   * campaign mails (the two above are whom a lawful basis lets it mail).
   */
  audienceContactsConsented: 'audience:contacts:consented',
  audienceAllConsented: 'audience:all:consented',
} as const;

/** The agency's calendar day of an instant, as the days hash names it. */
export function localDay(instant: Date, timeZone: string): string {
  return DateTime.fromJSDate(instant, { zone: timeZone }).toFormat('yyyy-MM-dd');
}

/**
 * Which audiences an address is in, from how many enquiries it sent (and how
 * many of them consented) and its subscription's status; `move` applies the
 * difference between two states.
 */
const AUDIENCE_LUA = `
local function reach(enquiries, consented, status)
  local r = { contacts = 0, all = 0, consentedContacts = 0, consentedAll = 0 }
  if status == 'unsubscribed' then return r end
  if enquiries > 0 then r.contacts = 1 end
  if enquiries > 0 or status == 'confirmed' then r.all = 1 end
  if consented > 0 then r.consentedContacts = 1 end
  if consented > 0 or status == 'confirmed' then r.consentedAll = 1 end
  return r
end
local FIELDS = {
  contacts = '${COUNT_FIELDS.audienceContacts}',
  all = '${COUNT_FIELDS.audienceAll}',
  consentedContacts = '${COUNT_FIELDS.audienceContactsConsented}',
  consentedAll = '${COUNT_FIELDS.audienceAllConsented}',
}
local function move(counts, before, after)
  local r0 = reach(before.enquiries, before.consented, before.status)
  local r1 = reach(after.enquiries, after.consented, after.status)
  for name, field in pairs(FIELDS) do
    if r1[name] ~= r0[name] then redis.call('HINCRBY', counts, field, r1[name] - r0[name]) end
  end
end
local function bump(hash, address, delta)
  local before = tonumber(redis.call('HGET', hash, address) or '0')
  local after = math.max(before + delta, 0)
  if after == 0 then redis.call('HDEL', hash, address) else redis.call('HSET', hash, address, after) end
  return before, after
end
`;

/**
 * Enquiries stored (+1) or deleted (-1), several in one call.
 * KEYS: counts, days, enquiries per address, consented enquiries per
 * address, subscriber status.
 * ARGV: for each enquiry, delta, local day, address, status, service, consented (1 or 0).
 */
const CONTACT_LUA = `${AUDIENCE_LUA}
local counts = KEYS[1]
for i = 1, #ARGV, 6 do
  local delta = tonumber(ARGV[i])
  local address = ARGV[i + 2]
  local status, service = ARGV[i + 3], ARGV[i + 4]
  redis.call('HINCRBY', counts, 'contacts', delta)
  redis.call('HINCRBY', counts, 'contacts:status:' .. status, delta)
  redis.call('HINCRBY', counts, 'contacts:service:' .. service, delta)
  redis.call('HINCRBY', counts, 'contacts:status:' .. status .. ':service:' .. service, delta)
  redis.call('HINCRBY', KEYS[2], ARGV[i + 1], delta)
  local enquiries0, enquiries1 = bump(KEYS[3], address, delta)
  local consented0 = tonumber(redis.call('HGET', KEYS[4], address) or '0')
  local consented1 = consented0
  if ARGV[i + 5] == '1' then consented0, consented1 = bump(KEYS[4], address, delta) end
  local subscription = redis.call('HGET', KEYS[5], address) or ''
  move(counts,
    { enquiries = enquiries0, consented = consented0, status = subscription },
    { enquiries = enquiries1, consented = consented1, status = subscription })
end
return #ARGV / 6
`;

/**
 * One address's subscription moved from one status (or none) to another.
 * KEYS: counts, enquiries per address, consented enquiries per address,
 * subscriber status. ARGV: address, from, to.
 */
const SUBSCRIBER_LUA = `${AUDIENCE_LUA}
local counts = KEYS[1]
local address = ARGV[1]
if ARGV[2] ~= '' then redis.call('HINCRBY', counts, 'subscribers:' .. ARGV[2], -1) end
redis.call('HINCRBY', counts, 'subscribers:' .. ARGV[3], 1)
redis.call('HSET', KEYS[4], address, ARGV[3])
local enquiries = tonumber(redis.call('HGET', KEYS[2], address) or '0')
local consented = tonumber(redis.call('HGET', KEYS[3], address) or '0')
move(counts,
  { enquiries = enquiries, consented = consented, status = ARGV[2] },
  { enquiries = enquiries, consented = consented, status = ARGV[3] })
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    statsContact(...args: (string | number)[]): Result<number, Context>;
    statsSubscriber(...args: (string | number)[]): Result<number, Context>;
  }
}

const scripted = new WeakSet<Redis>();

function withScripts(redis: Redis): Redis {
  if (!scripted.has(redis)) {
    redis.defineCommand('statsContact', { numberOfKeys: 5, lua: CONTACT_LUA });
    redis.defineCommand('statsSubscriber', { numberOfKeys: 4, lua: SUBSCRIBER_LUA });
    scripted.add(redis);
  }
  return redis;
}

export interface KeptCounts {
  contactChanges: ContactChanges;
  subscriberChanges: SubscriberChanges;
  campaignCreated(): Promise<void>;
  campaignDeleted(): Promise<void>;
  contactTotals: ContactTotals;
  /** Every field of `stats:counts` (0 for a field never written). */
  counts(): Promise<(field: string) => number>;
  /** Enquiries on each of these days, local to `timeZone` (the days are counted per zone). */
  days(dates: readonly string[], timeZone: string): Promise<number[]>;
  /** How many of these (normalised) addresses each kept audience counts now. */
  audienceReach(addresses: readonly string[]): Promise<AudienceReach>;
}

export interface AudienceReach {
  contacts: number;
  subscribers: number;
  all: number;
  /** `contacts` and `all` with only the enquiries that consented (COUNT_FIELDS). */
  consentedContacts: number;
  consentedAll: number;
}

/** How many enquiries the kept figures hold with these filters (undefined: not known now). */
export interface ContactTotals {
  count(filter: { status?: ContactStatus; service?: ServiceSlug }): Promise<number | undefined>;
}

/** The figures cannot be read while Redis does not answer: the API says so with a 503. */
export class FiguresUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The figures cannot be read right now; try again shortly', options);
    this.name = 'FiguresUnavailableError';
  }
}

async function read<T>(reply: () => Promise<T>): Promise<T> {
  try {
    return await reply();
  } catch (error: unknown) {
    throw new FiguresUnavailableError({ cause: error });
  }
}

/**
 * The agency's time zone: fixed (tests, tools), or read as the agency
 * settings say now, so a zone an admin saves names the days counted from
 * then on without a restart.
 */
export type TimeZoneSource = string | (() => Promise<string>);

export function zoneOf(source: TimeZoneSource): Promise<string> {
  return typeof source === 'string' ? Promise.resolve(source) : source();
}

export interface KeptCountsOptions {
  prefix: string;
  /** The agency's time zone, which names each enquiry's day. */
  timeZone: TimeZoneSource;
  logger: Logger;
}

/** The scripted connection and the keys every part of the kept figures writes. */
interface KeptStore {
  redis: Redis;
  keys: StatsKeys;
  daysKey: (zone: string) => string;
  /** Runs a write of the figures, logging it if it fails. */
  counted: (what: string, update: () => Promise<unknown>) => Promise<void>;
}

function keptStore(
  connection: Redis,
  { prefix, logger }: Omit<KeptCountsOptions, 'timeZone'>,
): KeptStore {
  return {
    redis: withScripts(connection),
    // Every key but the days' is the same in every zone.
    keys: statsKeys(prefix, 'UTC'),
    daysKey: (zone) => statsKeys(prefix, zone).days,
    // A change the figures missed is logged; the reconciliation repairs it.
    counted: async (what, update) => {
      try {
        await update();
      } catch (error: unknown) {
        logger.warn(
          { err: error, change: what },
          'kept figures missed a change; the reconciliation will repair it',
        );
      }
    },
  };
}

/** One enquiry fewer from an address (and from its consenting ones); a field goes with the last one. */
async function forgetOneEnquiryOf(
  redis: Redis,
  keys: StatsKeys,
  { email, consented }: Pick<ContactFacts, 'email' | 'consented'>,
): Promise<void> {
  const address = normalizeEmail(email);
  const hashes = consented
    ? [keys.enquiriesPerAddress, keys.consentedPerAddress]
    : [keys.enquiriesPerAddress];
  for (const hash of hashes) {
    const left = await redis.hincrby(hash, address, -1);
    if (left <= 0) await redis.hdel(hash, address);
  }
}

function keptContactChanges(
  { redis, keys, daysKey, counted }: KeptStore,
  timeZone: TimeZoneSource,
): ContactChanges {
  const contacts = async (changes: readonly { facts: ContactFacts; delta: 1 | -1 }[]) => {
    const zone = await zoneOf(timeZone);
    return redis.statsContact(
      keys.counts,
      daysKey(zone),
      keys.enquiriesPerAddress,
      keys.consentedPerAddress,
      keys.subscriberStatus,
      ...changes.flatMap(({ facts, delta }) => [
        delta,
        localDay(facts.createdAt, zone),
        normalizeEmail(facts.email),
        facts.status,
        facts.service,
        facts.consented ? 1 : 0,
      ]),
    );
  };
  // Enquiries inserted in one write (batched-writes.ts) all come back in the
  // same turn of the event loop: they are counted in one call, without waiting.
  const storedTogether = new DataLoader<ContactFacts, true>(
    async (stored) => {
      await contacts(stored.map((facts) => ({ facts, delta: 1 as const })));
      return stored.map(() => true as const);
    },
    { cache: false, maxBatchSize: 200 },
  );

  return {
    stored: (facts) => counted('contact stored', () => storedTogether.load(facts)),
    deleted: (facts) => counted('contact deleted', () => contacts([{ facts, delta: -1 }])),
    // The figures keep the enquiry (day, service, status); the audience no longer reaches its
    // address. The audience counts follow at the scheduled reconciliation, as after an erasure.
    anonymised: (facts) =>
      counted('contact anonymised', () => forgetOneEnquiryOf(redis, keys, facts)),
    statusChanged: (facts, from) =>
      counted('contact status', () =>
        redis
          .multi()
          .hincrby(keys.counts, COUNT_FIELDS.contactsByStatus(from), -1)
          .hincrby(keys.counts, COUNT_FIELDS.contactsByStatus(facts.status), 1)
          .hincrby(keys.counts, COUNT_FIELDS.contactsByStatusAndService(from, facts.service), -1)
          .hincrby(
            keys.counts,
            COUNT_FIELDS.contactsByStatusAndService(facts.status, facts.service),
            1,
          )
          .exec(),
      ),
  };
}

function keptSubscriberChanges({ redis, keys, counted }: KeptStore): SubscriberChanges {
  return {
    statusChanged: (email, from, to) =>
      from === to
        ? Promise.resolve()
        : counted('subscriber status', () =>
            redis.statsSubscriber(
              keys.counts,
              keys.enquiriesPerAddress,
              keys.consentedPerAddress,
              keys.subscriberStatus,
              normalizeEmail(email),
              from ?? '',
              to,
            ),
          ),
  };
}

/** The field of `stats:counts` that holds the enquiries with these filters. */
function contactCountField({
  status,
  service,
}: {
  status?: ContactStatus;
  service?: ServiceSlug;
}): string {
  if (status && service) return COUNT_FIELDS.contactsByStatusAndService(status, service);
  if (status) return COUNT_FIELDS.contactsByStatus(status);
  if (service) return COUNT_FIELDS.contactsByService(service);
  return COUNT_FIELDS.contacts;
}

function keptContactTotals({ redis, keys }: KeptStore): ContactTotals {
  return {
    async count(filter: { status?: ContactStatus; service?: ServiceSlug }) {
      try {
        return Number((await redis.hget(keys.counts, contactCountField(filter))) ?? 0);
      } catch {
        return undefined;
      }
    },
  };
}

// The same reach as AUDIENCE_LUA's, read from the three per-address hashes.
async function readAudienceReach(
  { redis, keys }: KeptStore,
  addresses: readonly string[],
): Promise<AudienceReach> {
  const reach: AudienceReach = {
    contacts: 0,
    subscribers: 0,
    all: 0,
    consentedContacts: 0,
    consentedAll: 0,
  };
  for (let from = 0; from < addresses.length; from += 1000) {
    const batch = addresses.slice(from, from + 1000);
    const [enquiries, consented, statuses] = await read(() =>
      Promise.all([
        redis.hmget(keys.enquiriesPerAddress, ...batch),
        redis.hmget(keys.consentedPerAddress, ...batch),
        redis.hmget(keys.subscriberStatus, ...batch),
      ]),
    );
    batch.forEach((_, index) => {
      const status = statuses[index];
      if (status === 'unsubscribed') return;
      const sent = Number(enquiries[index] ?? 0) > 0;
      const agreed = Number(consented[index] ?? 0) > 0;
      const confirmed = status === 'confirmed';
      if (sent) reach.contacts += 1;
      if (agreed) reach.consentedContacts += 1;
      if (confirmed) reach.subscribers += 1;
      if (sent || confirmed) reach.all += 1;
      if (agreed || confirmed) reach.consentedAll += 1;
    });
  }
  return reach;
}

export function createKeptCounts(connection: Redis, options: KeptCountsOptions): KeptCounts {
  const store = keptStore(connection, options);
  const { redis, keys, daysKey, counted } = store;
  return {
    contactChanges: keptContactChanges(store, options.timeZone),
    subscriberChanges: keptSubscriberChanges(store),
    campaignCreated: () =>
      counted('campaign created', () => redis.hincrby(keys.counts, COUNT_FIELDS.campaigns, 1)),
    campaignDeleted: () =>
      counted('campaign deleted', () => redis.hincrby(keys.counts, COUNT_FIELDS.campaigns, -1)),
    contactTotals: keptContactTotals(store),
    async counts() {
      const all = await read(() => redis.hgetall(keys.counts));
      return (field) => Number(all[field] ?? 0);
    },
    async days(dates, zone) {
      if (dates.length === 0) return [];
      const values = await read(() => redis.hmget(daysKey(zone), ...dates));
      return values.map((value) => Number(value ?? 0));
    },
    audienceReach: (addresses) => readAudienceReach(store, addresses),
  };
}
