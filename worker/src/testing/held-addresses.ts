import mongoose from 'mongoose';
import type { Redis } from '@agency/platform';

/*
 * Where an address is still held, searched without knowing where to look:
 * every collection of the test's database and every key of Redis. A new
 * collection or key that holds addresses and that erasure does not reach
 * shows up here without anyone having listed it.
 */

/** Binary values (GridFS chunks: uploaded files) are read as text, the rest as JSON. */
function textOf(value: unknown): string {
  // The replacer sees values after their toJSON (a Binary's is base64): `this[key]` is the original.
  return JSON.stringify(value, function binaryAsText(this: Record<string, unknown>, key, item) {
    const original = this[key];
    if (original instanceof mongoose.mongo.Binary) {
      return Buffer.from(original.buffer).toString('utf8');
    }
    return item as unknown;
  });
}

/** `collection: <document>` for every document of the database that contains `address`. */
export async function documentsHolding(address: string): Promise<string[]> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('no database connection');
  const needle = address.toLowerCase();
  const found: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for await (const document of db.collection(name).find({})) {
      const text = textOf(document);
      if (text.toLowerCase().includes(needle)) found.push(`${name}: ${text.slice(0, 300)}`);
    }
  }
  return found;
}

async function valueOf(redis: Redis, key: string): Promise<string> {
  const type = await redis.type(key);
  switch (type) {
    case 'string':
      return (await redis.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'set':
      return JSON.stringify(await redis.smembers(key));
    case 'zset':
      return JSON.stringify(await redis.zrange(key, 0, -1));
    case 'list':
      return JSON.stringify(await redis.lrange(key, 0, -1));
    case 'stream':
      return JSON.stringify(await redis.xrange(key, '-', '+'));
    default:
      return '';
  }
}

/** Every Redis key (SCAN over the whole server) whose name or value contains `address`. */
export async function redisKeysHolding(redis: Redis, address: string): Promise<string[]> {
  const needle = address.toLowerCase();
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const text = `${key} ${await valueOf(redis, key)}`;
      if (text.toLowerCase().includes(needle)) found.push(`${key}: ${text.slice(0, 300)}`);
    }
  } while (cursor !== '0');
  return found;
}
