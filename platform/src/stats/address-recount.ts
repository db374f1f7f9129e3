import { randomUUID } from 'node:crypto';
import type { Redis } from '../redis-connection';
import { normalizeEmail } from '../mail/email-address';

/*
 * The reconciliation's per-address figures (enquiries, consented enquiries
 * and subscription status per address), recounted in Redis rather than in
 * the worker: held in the process, 200,000 addresses took the worker past
 * its 150 MB (three maps of every address, and the kept hashes read whole
 * before and after the walk), and its capped heap spent most of the pass
 * collecting garbage. Nothing per address is held here beyond a chunk.
 *
 * When the pass starts, each kept hash is copied beside it (its "before").
 * While the store is walked, the counted values go to work hashes, and
 * every address met to a sorted set (all scores 0, so it reads in byte
 * order, a chunk at a time, each address once). After the settle:
 * - the audiences are counted from the addresses met, a chunk at a time;
 * - each kept hash is compared, field by field, as it was before, as it is
 *   now and as counted: first the addresses met, then the fields kept for
 *   an address no enquiry or subscriber holds any more (a scan of the
 *   before and the now, skipping addresses met).
 * The work keys expire, so a pass that dies leaves nothing for long.
 */

export type AddressHashName = 'enquiriesPerAddress' | 'consentedPerAddress' | 'subscriberStatus';

export const ADDRESS_HASHES: readonly AddressHashName[] = [
  'enquiriesPerAddress',
  'consentedPerAddress',
  'subscriberStatus',
];

/** Fields per Redis command and per chunk read: one huge command would stall Redis. */
const CHUNK = 1000;
/** A pass that died leaves its work keys for this long at most. */
const WORK_TTL_SECONDS = 3600;

export interface Audiences {
  contacts: number;
  all: number;
  consentedContacts: number;
  consentedAll: number;
}

/** One field of a kept hash as it was before the walk, as it is now, and as counted ('' for none). */
export interface FieldReading {
  field: string;
  was: string;
  is: string;
  want: string;
}

export interface AddressRecount {
  /** One stored enquiry's address (not '': an anonymised enquiry reaches nobody). */
  enquiry(email: string, consented: boolean): Promise<void>;
  subscriber(email: string, status: string): Promise<void>;
  /** After the walk: sends what is still buffered. */
  flush(): Promise<void>;
  audiences(): Promise<Audiences>;
  /** Every field of one kept hash worth a look, a chunk at a time (each field once, but see below). */
  readings(name: AddressHashName): AsyncGenerator<FieldReading[]>;
  /** Drops the work keys. */
  discard(): Promise<void>;
}

interface WorkKeys {
  /** Every address met, in a sorted set. */
  met: string;
  before: Record<AddressHashName, string>;
  counted: Record<AddressHashName, string>;
}

async function run(pipeline: ReturnType<Redis['pipeline']>): Promise<unknown[]> {
  const replies = (await pipeline.exec()) ?? [];
  const failed = replies.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
  return replies.map(([, reply]) => reply);
}

const text = (value: string | null | undefined) => value ?? '';

/** The addresses of a sorted set in byte order, a chunk at a time, each once. */
async function* chunksOf(redis: Redis, key: string): AsyncGenerator<string[]> {
  let from = '-';
  for (;;) {
    const chunk = await redis.zrange(key, from, '+', 'BYLEX', 'LIMIT', 0, CHUNK);
    if (chunk.length > 0) yield chunk;
    if (chunk.length < CHUNK) return;
    from = `(${chunk[chunk.length - 1]}`;
  }
}

/** A hash's fields a chunk at a time (HSCAN: a field may come twice if the hash is resized meanwhile). */
async function* scanFields(redis: Redis, key: string): AsyncGenerator<string[]> {
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(key, cursor, 'COUNT', CHUNK);
    cursor = next;
    const fields = flat.filter((_, index) => index % 2 === 0);
    if (fields.length > 0) yield fields;
  } while (cursor !== '0');
}

/**
 * Starts the per-address recount: copies the kept hashes (`kept`, by name)
 * as they are now. Call it before the store is walked.
 */
export async function beginAddressRecount(
  redis: Redis,
  base: string,
  kept: Record<AddressHashName, string>,
): Promise<AddressRecount> {
  const work = `${base}:recount:${randomUUID()}`;
  const keys: WorkKeys = {
    met: `${work}:met`,
    before: {
      enquiriesPerAddress: `${work}:before:enquiries`,
      consentedPerAddress: `${work}:before:consented`,
      subscriberStatus: `${work}:before:status`,
    },
    counted: {
      enquiriesPerAddress: `${work}:counted:enquiries`,
      consentedPerAddress: `${work}:counted:consented`,
      subscriberStatus: `${work}:counted:status`,
    },
  };
  const workKeys = [keys.met, ...Object.values(keys.before), ...Object.values(keys.counted)];
  const copies = redis.pipeline();
  for (const name of ADDRESS_HASHES) {
    copies.copy(kept[name], keys.before[name]).expire(keys.before[name], WORK_TTL_SECONDS);
  }
  await run(copies);

  let pipeline = redis.pipeline();
  let pending = 0;
  const flush = async () => {
    if (pending === 0) return;
    for (const key of workKeys) pipeline.expire(key, WORK_TTL_SECONDS);
    const sent = pipeline;
    pipeline = redis.pipeline();
    pending = 0;
    await run(sent);
  };
  const met = async (address: string, write: (address: string) => void) => {
    pipeline.zadd(keys.met, 0, address);
    write(address);
    pending += 1;
    if (pending >= CHUNK) await flush();
  };

  return {
    enquiry: (email, consented) =>
      met(normalizeEmail(email), (address) => {
        pipeline.hincrby(keys.counted.enquiriesPerAddress, address, 1);
        if (consented) pipeline.hincrby(keys.counted.consentedPerAddress, address, 1);
      }),
    subscriber: (email, status) =>
      met(normalizeEmail(email), (address) => {
        pipeline.hset(keys.counted.subscriberStatus, address, status);
      }),
    flush,
    async audiences() {
      const audiences: Audiences = { contacts: 0, all: 0, consentedContacts: 0, consentedAll: 0 };
      for await (const addresses of chunksOf(redis, keys.met)) {
        const [enquiries, consented, statuses] = (await run(
          redis
            .pipeline()
            .hmget(keys.counted.enquiriesPerAddress, ...addresses)
            .hmget(keys.counted.consentedPerAddress, ...addresses)
            .hmget(keys.counted.subscriberStatus, ...addresses),
        )) as (string | null)[][];
        addresses.forEach((_, index) => {
          const status = text(statuses?.[index]);
          if (status === 'unsubscribed') return;
          const enquired = Number(enquiries?.[index] ?? 0) > 0;
          const agreed = Number(consented?.[index] ?? 0) > 0;
          const confirmed = status === 'confirmed';
          if (enquired) audiences.contacts += 1;
          if (enquired || confirmed) audiences.all += 1;
          if (agreed) audiences.consentedContacts += 1;
          if (agreed || confirmed) audiences.consentedAll += 1;
        });
      }
      return audiences;
    },
    async *readings(name) {
      const read = async (fields: string[]) =>
        (await run(
          redis
            .pipeline()
            .hmget(keys.before[name], ...fields)
            .hmget(kept[name], ...fields)
            .hmget(keys.counted[name], ...fields),
        )) as (string | null)[][];
      const readingsOf = (fields: string[], [was, is, want]: (string | null)[][]) =>
        fields.map((field, index) => ({
          field,
          was: text(was?.[index]),
          is: text(is?.[index]),
          want: text(want?.[index]),
        }));
      // The addresses the walk met: each once, in byte order.
      for await (const addresses of chunksOf(redis, keys.met)) {
        yield readingsOf(addresses, await read(addresses)).filter(
          (reading) => reading.was !== '' || reading.is !== '' || reading.want !== '',
        );
      }
      // Fields kept for an address the walk did not meet, before the walk or now.
      const unmet = async (fields: string[]) => {
        const scores = await redis.zmscore(keys.met, ...fields);
        return fields.filter((_, index) => scores[index] === null);
      };
      for await (const fields of scanFields(redis, keys.before[name])) {
        const left = await unmet(fields);
        if (left.length > 0) yield readingsOf(left, await read(left));
      }
      for await (const fields of scanFields(redis, kept[name])) {
        const left = await unmet(fields);
        if (left.length === 0) continue;
        // Those kept before the walk were read in the scan above.
        const readings = readingsOf(left, await read(left));
        yield readings.filter((reading) => reading.was === '');
      }
    },
    async discard() {
      await redis.del(...workKeys);
    },
  };
}
