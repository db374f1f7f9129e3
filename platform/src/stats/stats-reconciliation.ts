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
import { normalizeEmail } from '../mail/email-address';
import { forEachSubscriber } from '../newsletter/stored-subscribers';
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
type HashName =
  'counts' | 'days' | 'enquiriesPerAddress' | 'consentedPerAddress' | 'subscriberStatus';
const HASHES: readonly HashName[] = [
  'counts',
  'days',
  'enquiriesPerAddress',
  'consentedPerAddress',
  'subscriberStatus',
];

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
  readonly enquiries = new Map<string, number>();
  readonly consented = new Map<string, number>();
  readonly statuses = new Map<string, string>();
  contacts = 0;
  subscribers = 0;

  constructor(private readonly timeZone: string) {}

  private add(map: Map<string, number>, key: string, by = 1) {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  contact(contact: ContactFacts) {
    this.contacts += 1;
    this.add(this.counts, COUNT_FIELDS.contacts);
    this.add(this.counts, COUNT_FIELDS.contactsByStatus(contact.status));
    this.add(this.counts, COUNT_FIELDS.contactsByService(contact.service));
    this.add(this.counts, COUNT_FIELDS.contactsByStatusAndService(contact.status, contact.service));
    this.add(this.days, localDay(contact.createdAt, this.timeZone));
    // An anonymised enquiry (no address) is counted, but reaches nobody.
    if (contact.email !== '') {
      this.add(this.enquiries, normalizeEmail(contact.email));
      if (contact.consented) this.add(this.consented, normalizeEmail(contact.email));
    }
  }

  subscriber({ email, status }: { email: string; status: string }) {
    this.subscribers += 1;
    this.add(this.counts, COUNT_FIELDS.subscribers(status));
    this.statuses.set(normalizeEmail(email), status);
  }

  campaigns(count: number) {
    this.counts.set(COUNT_FIELDS.campaigns, count);
  }

  /** The audiences, once every enquiry and subscriber was read. */
  audiences() {
    const audiences = { contacts: 0, all: 0, consentedContacts: 0, consentedAll: 0 };
    for (const address of new Set([...this.enquiries.keys(), ...this.statuses.keys()])) {
      const status = this.statuses.get(address) ?? '';
      if (status === 'unsubscribed') continue;
      const enquired = (this.enquiries.get(address) ?? 0) > 0;
      const agreed = (this.consented.get(address) ?? 0) > 0;
      const confirmed = status === 'confirmed';
      if (enquired) audiences.contacts += 1;
      if (enquired || confirmed) audiences.all += 1;
      if (agreed) audiences.consentedContacts += 1;
      if (agreed || confirmed) audiences.consentedAll += 1;
    }
    this.counts.set(COUNT_FIELDS.audienceContacts, audiences.contacts);
    this.counts.set(COUNT_FIELDS.audienceAll, audiences.all);
    this.counts.set(COUNT_FIELDS.audienceContactsConsented, audiences.consentedContacts);
    this.counts.set(COUNT_FIELDS.audienceAllConsented, audiences.consentedAll);
  }

  hash(name: HashName): Map<string, string> {
    if (name === 'subscriberStatus') return this.statuses;
    const numbers = {
      counts: this.counts,
      days: this.days,
      enquiriesPerAddress: this.enquiries,
      consentedPerAddress: this.consented,
    }[name];
    return new Map([...numbers].map(([field, count]) => [field, count === 0 ? '' : String(count)]));
  }
}

async function snapshot(redis: Redis, keys: StatsKeys): Promise<Record<HashName, Hash>> {
  const pipeline = redis.pipeline();
  for (const name of HASHES) pipeline.hgetall(keys[name]);
  const replies = (await pipeline.exec()) ?? [];
  return Object.fromEntries(
    HASHES.map((name, index) => {
      const [error, hash] = replies[index] ?? [];
      if (error) throw error;
      return [name, (hash ?? {}) as Hash];
    }),
  ) as Record<HashName, Hash>;
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
  indexRepair: ContactIndexRepair | undefined,
  addressRepair: ContactAddressRepair,
): Promise<StoreRecount> {
  const recount = new Recount(timeZone);
  const { keysAdded } = await forEachStoredContact(async (contact) => {
    recount.contact(contact);
    await indexRepair?.expect(contact);
    await addressRepair.expect(contact);
  });
  const contactAddresses = await addressRepair.finish();
  await forEachSubscriber((subscriber) => recount.subscriber(subscriber));
  // A small collection (one document per campaign): counting it reads little.
  recount.campaigns(await countCampaigns());
  recount.audiences();
  return { recount, keysAdded, contactAddresses };
}

/** One kept hash as it was before and after the store was read, and as the store counts it. */
interface HashReadings {
  before: Hash;
  after: Hash;
  counted: Map<string, string>;
}

interface HashComparison {
  /** Field, value read, value counted: the arguments of REPAIR_LUA. */
  repairs: string[];
  drift: FigureDrift[];
  /** Fields that moved while the store was read. */
  busy: number;
}

function compareHash(name: HashName, { before, after, counted }: HashReadings): HashComparison {
  const fields = new Set([...Object.keys(before), ...Object.keys(after), ...counted.keys()]);
  const comparison: HashComparison = { repairs: [], drift: [], busy: 0 };
  for (const field of fields) {
    const was = before[field] ?? '';
    const is = after[field] ?? '';
    const want = counted.get(field) ?? '';
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

/** Repairs one kept hash and adds what it did to the report. */
async function repairHash(
  redis: Redis,
  key: string,
  name: HashName,
  readings: HashReadings,
  report: ReconcileReport,
): Promise<void> {
  const { repairs, drift, busy } = compareHash(name, readings);
  const repaired = await writeRepairs(redis, key, repairs);
  // A field that moved between the comparison and its repair was left as it is.
  report.busy += busy + drift.length - repaired;
  if (name === 'counts') report.repaired.counts = drift;
  else if (name === 'days') {
    report.repaired.days = drift.length;
    report.repaired.dayExamples = drift.slice(0, DAY_EXAMPLES);
  } else report.repaired.addresses += repaired;
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
  const [before, indexRepair, addressRepair] = await Promise.all([
    snapshot(redis, keys),
    beginContactIndexRepair(redis, index),
    beginContactAddressRepair(),
  ]);
  try {
    const { recount, keysAdded, contactAddresses } = await recountStore(
      timeZone,
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
    for (const name of HASHES) {
      const readings = { before: before[name], after: after[name], counted: recount.hash(name) };
      await repairHash(redis, keys[name], name, readings, report);
    }
    if (indexRepair) report.index = await indexRepair.finish();
    report.durationMs = Math.round(performance.now() - started);
    await redis.hset(keys.meta, {
      reconciledAt: new Date().toISOString(),
      timeZone,
      durationMs: report.durationMs,
    });
    return report;
  } finally {
    await indexRepair?.discard();
  }
}
