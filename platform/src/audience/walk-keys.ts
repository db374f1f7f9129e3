import type { CampaignRecipient } from '@agency/contracts';
import type { Redis } from '../redis-connection';

/**
 * The recipients a walk of an audience has met so far, by key: an address
 * found twice (a contact who also subscribed, a member of two lists) is
 * mailed and counted once. The walk asks a page of keys at a time.
 */
export interface WalkKeys {
  /** Notes `keys` as met; answers, for each in order, whether this is its first meeting. */
  firstMet(keys: readonly string[]): Promise<boolean[]>;
}

/** A walk's met keys held in the process: for the API's counts and previews. */
export function walkKeysInMemory(): WalkKeys {
  const met = new Set<string>();
  return {
    async firstMet(keys) {
      return keys.map((key) => {
        if (met.has(key)) return false;
        met.add(key);
        return true;
      });
    },
  };
}

/** Recipients asked about per exchange: the walk holds no more than this many at once. */
export const WALK_PAGE_SIZE = 1000;

const NOBODY: ReadonlySet<string> = new Set();

/**
 * The recipients met for the first time, but for the `excluded`, asked a
 * page at a time: a walk of any size holds one page, and whatever `met` keeps.
 */
export async function* firstMetOnly(
  recipients: AsyncIterable<CampaignRecipient>,
  met: WalkKeys,
  excluded: ReadonlySet<string> = NOBODY,
): AsyncGenerator<CampaignRecipient> {
  let page: CampaignRecipient[] = [];
  for await (const recipient of recipients) {
    if (excluded.has(recipient.key)) continue;
    page.push(recipient);
    if (page.length < WALK_PAGE_SIZE) continue;
    for (const first of await firstMetOf(page, met)) yield first;
    page = [];
  }
  for (const first of await firstMetOf(page, met)) yield first;
}

async function firstMetOf(
  page: readonly CampaignRecipient[],
  met: WalkKeys,
): Promise<CampaignRecipient[]> {
  if (page.length === 0) return [];
  const first = await met.firstMet(page.map(({ key }) => key));
  return page.filter((_, index) => first[index]);
}

/**
 * Adds a page of keys to the walk's set; answers a "1" (first met) or "0"
 * per key, and the set's size, which tells the caller whether the set was
 * lost meanwhile. KEYS: the set. ARGV: the keys, then the set's TTL.
 */
const FIRST_MET_SCRIPT = `
local flags = {}
for i = 1, #ARGV - 1 do
  flags[i] = tostring(redis.call('SADD', KEYS[1], ARGV[i]))
end
redis.call('EXPIRE', KEYS[1], ARGV[#ARGV])
return { table.concat(flags), redis.call('SCARD', KEYS[1]) }
`;

/** Thrown when the walk's set vanished from Redis: its keys can no longer tell a first meeting. */
export class WalkKeysLostError extends Error {}

export interface RedisWalkKeys extends WalkKeys {
  /** Drops the set: the walk ended, or gave up. */
  release(): Promise<void>;
}

/**
 * A walk's met keys held in a Redis set of its own, so that a walk over
 * hundreds of thousands of recipients costs the process one page, however
 * large the audience. The set lives `ttlSeconds` past its last page, should
 * its walk die before releasing it. Should Redis lose it mid-walk (a
 * failover, a restart), the next page throws rather than meeting everyone
 * again: a recipient met twice would be mailed twice.
 */
export function walkKeysInRedis(redis: Redis, key: string, ttlSeconds: number): RedisWalkKeys {
  let added = 0;
  return {
    async firstMet(keys) {
      if (keys.length === 0) return [];
      const [flags, size] = (await redis.eval(FIRST_MET_SCRIPT, 1, key, ...keys, ttlSeconds)) as [
        string,
        number,
      ];
      const first = Array.from(flags, (flag) => flag === '1');
      added += first.filter(Boolean).length;
      if (size !== added) {
        throw new WalkKeysLostError(
          `the walk's set ${key} holds ${size} keys where ${added} were added`,
        );
      }
      return first;
    },
    async release() {
      await redis.del(key);
    },
  };
}
