// @ts-check
/**
 * How the scenarios look at the cluster from the client host: the SMTP
 * sink's record, the admin API through the load balancer, the store, and
 * Redis through the Sentinels (to find the primary, empty it, or count
 * jobs). The product's packages are loaded from the worker's workspace,
 * as the benches do.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  ADMIN,
  API_PORT,
  MONGO_PORT,
  REDIS_PORT,
  SENTINEL_NAME,
  SENTINEL_PORT,
  SINK_HTTP_PORT,
} from './cluster.mjs';
import { API_ROUTES, apiPath } from '@agency/contracts';
import { HOSTS, host, hostsOf } from './network.mjs';

/** @param {string} rootDir */
export function productPackages(rootDir) {
  const require = createRequire(join(rootDir, 'worker', 'package.json'));
  return {
    /** @type {typeof import('mongoose')} */
    mongoose: require('mongoose'),
    /** @type {typeof import('ioredis')} */
    ioredis: require('ioredis'),
    /** @type {typeof import('bullmq')} */
    bullmq: require('bullmq'),
  };
}

/** @param {() => Promise<boolean>} check @param {number} timeoutMs @param {string} what */
export async function until(check, timeoutMs, what, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${what}: not so after ${Math.round(timeoutMs / 1000)} s`);
}

/**
 * @typedef {[at: number, messageId: string, recipients: string[]]} SunkMessage
 * @typedef {{ accepted: number, messages: SunkMessage[] }} SinkReport
 */

export const sink = {
  url: `http://${host('smtp').address}:${SINK_HTTP_PORT}`,
  /** Messages accepted, or those whose Message-ID starts with `prefix`. @returns {Promise<number>} */
  async count(prefix = '') {
    const response = await fetch(`${sink.url}/count?prefix=${encodeURIComponent(prefix)}`);
    return /** @type {{ accepted: number }} */ (await response.json()).accepted;
  },
  /** @returns {Promise<SinkReport>} */
  async report() {
    return /** @type {SinkReport} */ (await (await fetch(`${sink.url}/report`)).json());
  },
  async reset() {
    await fetch(`${sink.url}/reset`, { method: 'POST' });
  },
};

/**
 * How many times each recipient got a message whose Message-ID matches.
 * @param {SinkReport} report
 * @param {(messageId: string) => boolean} [matches]
 */
export function deliveriesByRecipient(report, matches = () => true) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const [, messageId, recipients] of report.messages) {
    if (!matches(messageId)) continue;
    for (const recipient of recipients) counts.set(recipient, (counts.get(recipient) ?? 0) + 1);
  }
  return counts;
}

/**
 * The admin API and the public form, through the load balancer.
 */
export function apiClient() {
  const base = `http://${host('lb').address}`;
  /** @type {string | undefined} */
  let token;
  /**
   * @param {string} method @param {string} path @param {unknown} [body]
   * @returns {Promise<any>}
   */
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    base,
    async signIn() {
      const answer = await call('POST', API_ROUTES.login, {
        username: ADMIN.username,
        password: ADMIN.password,
      });
      token = answer.token;
    },
    /** Creates a campaign to every contact and sends it; answers its id. @returns {Promise<string>} */
    async sendCampaign(/** @type {string} */ name) {
      const draft = await call('POST', API_ROUTES.campaigns, {
        name,
        subject: 'Spring packages for {{firstName}}',
        content: '<p>Dear {{firstName}},</p><p>Our spring packages are here.</p>',
        recipientType: 'contacts',
      });
      await call('POST', apiPath(API_ROUTES.campaignSend, { id: draft.id }));
      return draft.id;
    },
    /**
     * @param {string} id
     * @returns {Promise<{ status: string, total: number, sentCount: number, failedCount: number, pendingCount: number }>}
     */
    progress: (id) => call('GET', apiPath(API_ROUTES.campaignProgress, { id })),
  };
}

/** The API hosts' direct addresses, to tell which of them answer. */
export const apiAddresses = hostsOf('api').map((api) => `http://${api.address}:${API_PORT}`);

/**
 * The scenario's database: seeds recipients and reads what the product stored.
 * @param {ReturnType<typeof productPackages>} packages
 * @param {string} database
 */
export async function openStore(packages, database) {
  const connection = await packages.mongoose
    .createConnection(`mongodb://${host('mongo').address}:${MONGO_PORT}/${database}`)
    .asPromise();
  const db = connection.db;
  if (!db) throw new Error('no database handle');
  return {
    db,
    /**
     * Stores `count` contacts (the campaign's recipients) as the enquiry
     * form would have with its news box ticked, in bulk; their own mails
     * are not owed.
     * @param {number} count @param {(index: number) => string} emailOf
     */
    async seedContacts(count, emailOf) {
      const contacts = db.collection('contacts');
      for (let from = 0; from < count; from += 5000) {
        const now = new Date();
        await contacts.insertMany(
          Array.from({ length: Math.min(5000, count - from) }, (_, offset) => ({
            firstName: `Recipient ${from + offset}`,
            lastName: 'Cluster',
            email: emailOf(from + offset),
            service: 'web-design',
            message: 'A recipient of the cluster campaign',
            locale: 'en',
            status: 'new',
            // Ticked "send me news": a campaign to enquiry contacts mails only those.
            consent: {
              requestedAt: now,
              locale: 'en',
              source: 'contact-form',
              wordingVersion: 'contact-news-consent-v1',
            },
            createdAt: now,
            updatedAt: now,
          })),
        );
      }
    },
    /** The enquiries stored, by their visitor's address. @returns {Promise<Map<string, string>>} */
    async contactIdsByEmail() {
      const found = await db
        .collection('contacts')
        .find({}, { projection: { email: 1 } })
        .toArray();
      return new Map(found.map((contact) => [String(contact.email), String(contact._id)]));
    },
    close: () => connection.close(),
  };
}

/**
 * Redis as the product sees it: through the Sentinels.
 * @param {ReturnType<typeof productPackages>} packages
 */
export function redisProbe(packages) {
  const sentinels = hostsOf('sentinel').map((sentinel) => ({
    host: sentinel.address,
    port: SENTINEL_PORT,
  }));
  const { Redis } = packages.ioredis;
  const primary = new Redis({
    sentinels,
    name: SENTINEL_NAME,
    maxRetriesPerRequest: null,
    failoverDetector: true,
  });
  primary.on('error', () => undefined);
  return {
    connection: primary,
    /** The host the Sentinels name as the primary now. */
    async primaryHost() {
      for (const sentinel of sentinels) {
        const asker = new Redis({ ...sentinel, lazyConnect: true, retryStrategy: () => null });
        asker.on('error', () => undefined);
        try {
          const reply = /** @type {[string, string] | null} */ (
            await asker.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME)
          );
          const found = HOSTS.find((candidate) => candidate.address === reply?.[0]);
          if (found && Number(reply?.[1]) === REDIS_PORT) return found;
        } catch {
          // Ask the next one.
        } finally {
          asker.disconnect();
        }
      }
      throw new Error('no Sentinel names a primary');
    },
    /** @param {import('./network.mjs').Host} target */
    async roleOf(target) {
      const direct = new Redis({ host: target.address, port: REDIS_PORT, lazyConnect: true });
      direct.on('error', () => undefined);
      try {
        const [role] = /** @type {[string]} */ (await direct.call('ROLE'));
        return role;
      } finally {
        direct.disconnect();
      }
    },
    close: () => primary.disconnect(),
  };
}
