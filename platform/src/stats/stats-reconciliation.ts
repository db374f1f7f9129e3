import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger';
import type { Redis } from '../redis-connection';
import { countCampaigns } from '../campaigns/campaign-queries';
import {
  beginContactAddressRepair,
  type AddressRepairReport,
  type ContactAddressRepair,
} from '../contact/contact-addresses';
import {
  beginContactIndexRepair,
  type ContactIndexRepair,
  type IndexRepairReport,
} from '../contact/contact-index-repair';
import type { ContactFacts } from '../contact/contact-changes';
import { createContactIndexSets } from '../contact/contact-index-sets';
import { forEachStoredContact } from '../contact/stored-contacts';
import { forEachSubscriber } from '../newsletter/stored-subscribers';
import {
  ADDRESS_HASHES,
  beginAddressRecount,
  type AddressHashName,
  type AddressRecount,
  type FieldReading,
} from './address-recount';
import {
  COUNT_FIELDS,
  localDay,
  statsKeys,
  zoneOf,
  type StatsKeys,
  type TimeZoneSource,
} from './kept-counts';

/*
 * The reconciliation: recount every kept figure from the store, compare,
 * repair what drifted, and say what it repaired. It runs while the API keeps
 * writing, so a figure is only repaired when it did not move while the
 * store was read (the same before and after the count, `settleMs` after the
 * read ended so that increments in flight have landed), and only if it
 * still holds that value when the repair is written (one script checks and
 * writes). A figure that moved is left for the next run; a quiet figure is
 * exact after one run.
 */

/** Checks each field still holds what was read, then writes the counted value. */
const REPAIR_LUA = `
local repaired = 0
for i = 1, #ARGV, 3 do
  local current = redis.call('HGET', KEYS[1], ARGV[i]) or ''
  if current == ARGV[i + 1] then
    if ARGV[i + 2] == '' then redis.call('HDEL', KEYS[1], ARGV[i])
    else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
    repaired = repaired + 1
  end
end
return repaired
`;

type Hash = Record<string, string>;
/** A log line names this many repaired days at most (a recount after an import can fix hundreds). */
const DAY_EXAMPLES = 20;
/** The kept hashes of a few fields each, recounted in the process (the per-address ones in Redis). */
type SmallHashName = 'counts' | 'days';
const SMALL_HASHES: readonly SmallHashName[] = ['counts', 'days'];
type HashName = SmallHashName | AddressHashName;

export interface FigureDrift {
  field: string;
  kept: number;
  counted: number;
}

export interface ReconcileReport {
  /** Figures that differed from the store and were set to its count. */
  repaired: {
    /** Every total (all, per status, service, audience...) repaired. */
    counts: FigureDrift[];
    /** How many days were repaired; the first DAY_EXAMPLES of them in `dayExamples`. */
    days: number;
    dayExamples: FigureDrift[];
    /** Per-address entries (addresses are not logged). */
    addresses: number;
  };
  /** Figures written while the store was read: left for the next run. */
  busy: number;
  /** The contacts list's index on the embedded store (absent on MongoDB). */
  index?: IndexRepairReport;
  /** The campaign audience's copy of the enquiries' addresses. */
  contactAddresses: AddressRepairReport;
  /** Enquiries stored before they carried search keys, given them now. */
  searchKeysAdded: number;
  counted: { contacts: number; subscribers: number; campaigns: number };
  durationMs: number;
}

export interface ReconcileOptions {
  redis: Redis;
  prefix: string;
  /** Read once per pass: the days are recounted in the zone the agency has now. */
  timeZone: TimeZoneSource;
  /** How long after reading the store to wait for increments in flight. */
  settleMs: number;
  logger: Logger;
}

/** What the store holds, as the kept hashes would hold it ('' for nothing). */
class Recount {
  readonly counts = new Map<string, number>();
  readonly days = new Map<string, number>();
  contacts = 0;
  subscribers = 0;

  constructor(
    private readonly timeZone: string,
    private readonly addresses: AddressRecount,
  ) {}

  private add(map: Map<string, number>, key: string, by = 1) {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  async contact(contact: ContactFacts) {
    this.contacts += 1;
    this.add(this.counts, COUNT_FIELDS.contacts);
    this.add(this.counts, COUNT_FIELDS.contactsByStatus(contact.status));
    this.add(this.counts, COUNT_FIELDS.contactsByService(contact.service));
    this.add(this.counts, COUNT_FIELDS.contactsByStatusAndService(contact.status, contact.service));
    this.add(this.days, localDay(contact.createdAt, this.timeZone));
    // An anonymised enquiry (no address) is counted, but reaches nobody.
    if (contact.email !== '') await this.addresses.enquiry(contact.email, contact.consented);
  }

  async subscriber({ email, status }: { email: string; status: string }) {
    this.subscribers += 1;
    this.add(this.counts, COUNT_FIELDS.subscribers(status));
    await this.addresses.subscriber(email, status);
  }

  campaigns(count: number) {
    this.counts.set(COUNT_FIELDS.campaigns, count);
  }

  /** The audiences, once every enquiry and subscriber was read. */
  async audiences() {
    await this.addresses.flush();
    const audiences = await this.addresses.audiences();
    this.counts.set(COUNT_FIELDS.audienceContacts, audiences.contacts);
    this.counts.set(COUNT_FIELDS.audienceAll, audiences.all);
    this.counts.set(COUNT_FIELDS.audienceContactsConsented, audiences.consentedContacts);
    this.counts.set(COUNT_FIELDS.audienceAllConsented, audiences.consentedAll);
  }

  hash(name: SmallHashName): Map<string, string> {
    const numbers = { counts: this.counts, days: this.days }[name];
    return new Map([...numbers].map(([field, count]) => [field, count === 0 ? '' : String(count)]));
  }
}

async function snapshot(redis: Redis, keys: StatsKeys): Promise<Record<SmallHashName, Hash>> {
  const pipeline = redis.pipeline();
  for (const name of SMALL_HASHES) pipeline.hgetall(keys[name]);
  const replies = (await pipeline.exec()) ?? [];
  return Object.fromEntries(
    SMALL_HASHES.map((name, index) => {
      const [error, hash] = replies[index] ?? [];
      if (error) throw error;
      return [name, (hash ?? {}) as Hash];
    }),
  ) as Record<SmallHashName, Hash>;
}

/** Numbers compare as numbers (absent is 0); statuses as text. */
function same(name: HashName, a: string, b: string): boolean {
  return name === 'subscriberStatus' ? a === b : Number(a || 0) === Number(b || 0);
}

interface StoreRecount {
  recount: Recount;
  /** Enquiries stored before they carried search keys, given them while read. */
  keysAdded: number;
  contactAddresses: AddressRepairReport;
}

/** Reads the store once: the index's and the addresses' repairs see each enquiry as it is counted. */
async function recountStore(
  timeZone: string,
  addresses: AddressRecount,
  indexRepair: ContactIndexRepair | undefined,
  addressRepair: ContactAddressRepair,
): Promise<StoreRecount> {
  const recount = new Recount(timeZone, addresses);
  const { keysAdded } = await forEachStoredContact(async (contact) => {
    await recount.contact(contact);
    await indexRepair?.expect(contact);
    await addressRepair.expect(contact);
  });
  const contactAddresses = await addressRepair.finish();
  await forEachSubscriber((subscriber) => recount.subscriber(subscriber));
  // A small collection (one document per campaign): counting it reads little.
  recount.campaigns(await countCampaigns());
  await recount.audiences();
  return { recount, keysAdded, contactAddresses };
}

/** One small kept hash as it was before and after the store was read, and as the store counts it. */
interface HashReadings {
  before: Hash;
  after: Hash;
  counted: Map<string, string>;
}

/** Each field of a small hash, read side by side. */
function fieldReadings({ before, after, counted }: HashReadings): FieldReading[] {
  const fields = new Set([...Object.keys(before), ...Object.keys(after), ...counted.keys()]);
  return [...fields].map((field) => ({
    field,
    was: before[field] ?? '',
    is: after[field] ?? '',
    want: counted.get(field) ?? '',
  }));
}

interface HashComparison {
  /** Field, value read, value counted: the arguments of REPAIR_LUA. */
  repairs: string[];
  drift: FigureDrift[];
  /** Fields that moved while the store was read. */
  busy: number;
}

function compareFields(name: HashName, readings: readonly FieldReading[]): HashComparison {
  const comparison: HashComparison = { repairs: [], drift: [], busy: 0 };
  for (const { field, was, is, want } of readings) {
    if (!same(name, was, is)) {
      comparison.busy += 1;
    } else if (!same(name, is, want)) {
      comparison.repairs.push(field, is, want);
      comparison.drift.push({ field, kept: Number(is || 0), counted: Number(want || 0) });
    }
  }
  return comparison;
}

/** Writes the repairs a chunk at a time; returns how many fields still held what was read. */
async function writeRepairs(
  redis: Redis,
  key: string,
  repairs: readonly string[],
): Promise<number> {
  let repaired = 0;
  for (let start = 0; start < repairs.length; start += 900) {
    const chunk = repairs.slice(start, start + 900);
    repaired += Number(await redis.eval(REPAIR_LUA, 1, key, ...chunk));
  }
  return repaired;
}

/** Repairs what these readings of one kept hash found and adds it to the report; returns the drift. */
async function repairFields(
  redis: Redis,
  key: string,
  name: HashName,
  readings: readonly FieldReading[],
  report: ReconcileReport,
): Promise<FigureDrift[]> {
  const { repairs, drift, busy } = compareFields(name, readings);
  const repaired = await writeRepairs(redis, key, repairs);
  // A field that moved between the comparison and its repair was left as it is.
  report.busy += busy + drift.length - repaired;
  if (ADDRESS_HASHES.includes(name as AddressHashName)) report.repaired.addresses += repaired;
  return drift;
}

/** Repairs the small hashes, whose every field the report names (days up to DAY_EXAMPLES). */
async function repairSmallHashes(
  redis: Redis,
  keys: StatsKeys,
  readings: Record<SmallHashName, HashReadings>,
  report: ReconcileReport,
): Promise<void> {
  report.repaired.counts = await repairFields(
    redis,
    keys.counts,
    'counts',
    fieldReadings(readings.counts),
    report,
  );
  const days = await repairFields(redis, keys.days, 'days', fieldReadings(readings.days), report);
  report.repaired.days = days.length;
  report.repaired.dayExamples = days.slice(0, DAY_EXAMPLES);
}

/** Repairs the per-address hashes a chunk at a time (addresses are not logged). */
async function repairAddressHashes(
  redis: Redis,
  keys: StatsKeys,
  addresses: AddressRecount,
  report: ReconcileReport,
): Promise<void> {
  for (const name of ADDRESS_HASHES) {
    for await (const chunk of addresses.readings(name)) {
      await repairFields(redis, keys[name], name, chunk, report);
    }
  }
}

export async function reconcileStats({
  redis,
  prefix,
  timeZone: zoneSource,
  settleMs,
  logger,
}: ReconcileOptions): Promise<ReconcileReport> {
  const started = performance.now();
  const timeZone = await zoneOf(zoneSource);
  const keys = statsKeys(prefix, timeZone);
  const index = createContactIndexSets(redis, { prefix, logger });
  const [before, addresses, indexRepair, addressRepair] = await Promise.all([
    snapshot(redis, keys),
    beginAddressRecount(redis, `${prefix}:stats`, keys),
    beginContactIndexRepair(redis, index),
    beginContactAddressRepair(redis, `${prefix}:stats:recount:${randomUUID()}:held-addresses`),
  ]);
  try {
    const { recount, keysAdded, contactAddresses } = await recountStore(
      timeZone,
      addresses,
      indexRepair,
      addressRepair,
    );
    // Unreferenced: a pass a stopping worker abandoned must not keep the process alive.
    await sleep(settleMs, undefined, { ref: false });
    const after = await snapshot(redis, keys);

    const report: ReconcileReport = {
      repaired: { counts: [], days: 0, dayExamples: [], addresses: 0 },
      busy: 0,
      contactAddresses,
      searchKeysAdded: keysAdded,
      counted: {
        contacts: recount.contacts,
        subscribers: recount.subscribers,
        campaigns: recount.counts.get(COUNT_FIELDS.campaigns) ?? 0,
      },
      durationMs: 0,
    };
    const small = (name: SmallHashName) => ({
      before: before[name],
      after: after[name],
      counted: recount.hash(name),
    });
    await repairSmallHashes(redis, keys, { counts: small('counts'), days: small('days') }, report);
    await repairAddressHashes(redis, keys, addresses, report);
    if (indexRepair) report.index = await indexRepair.finish();
    report.durationMs = Math.round(performance.now() - started);
    await redis.hset(keys.meta, {
      reconciledAt: new Date().toISOString(),
      timeZone,
      durationMs: report.durationMs,
    });
    return report;
  } finally {
    await Promise.all([indexRepair?.discard(), addresses.discard(), addressRepair.discard()]);
  }
}
