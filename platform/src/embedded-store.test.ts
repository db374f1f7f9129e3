import { existsSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';
import {
  campaignLockApplies,
  contactsIndexInRedisApplies,
  findSubscriberByEmail,
  isEmbeddedStore,
  markUnsubscribed,
  oneWriterPerDocument,
  requestSubscription,
  STORE_WORKAROUNDS,
  type SubscriberChanges,
} from './index';
import { useFileDatabase } from './testing/file-database';
import { ON_AND_OFF, withStoreWorkarounds } from './testing/store-workarounds';
import { SWITCHABLE_STORE_WORKAROUNDS } from './store-workaround-switches';

useFileDatabase('embedded-store');

/** A promise the test settles itself. */
function deferred<T = void>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function storeIsFerretDb(): Promise<boolean> {
  const info = await mongoose.connection.db?.admin().command({ buildInfo: 1 });
  return typeof info?.ferretdbVersion === 'string';
}

describe('the store workarounds', () => {
  it('each names FerretDB 1.x, its reason, where it applies and its files', () => {
    for (const workaround of Object.values(STORE_WORKAROUNDS)) {
      expect(workaround.store).toBe('FerretDB 1.x');
      expect(workaround.why.length).toBeGreaterThan(80);
      expect(['the embedded store', 'every store']).toContain(workaround.appliesOn);
      expect(workaround.where.length).toBeGreaterThan(0);
    }
  });

  it('names files that exist, so the registry follows the code when it moves', () => {
    const root = join(__dirname, '..', '..');
    const missing = Object.values(STORE_WORKAROUNDS)
      .flatMap(({ where }) => where)
      .filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });

  it('lets the tests switch exactly those the registry calls switchable', () => {
    const switchable = Object.entries(STORE_WORKAROUNDS)
      .filter(([, workaround]) => workaround.switchable)
      .map(([name]) => name);
    expect(switchable).toEqual([...SWITCHABLE_STORE_WORKAROUNDS]);
    expect(STORE_WORKAROUNDS.readsWithoutFullDecode.switchable).toBe(false);
  });

  describe('by default, from the store behind the tests', () => {
    it('tells FerretDB from MongoDB by its build info', async () => {
      expect(await isEmbeddedStore()).toBe(await storeIsFerretDb());
    });

    it('keeps the contacts index in Redis on FerretDB only', async () => {
      expect(await contactsIndexInRedisApplies()).toBe(await storeIsFerretDb());
    });

    it('takes the campaign lock on every store', () => {
      expect(campaignLockApplies()).toBe(true);
    });
  });

  describe.each(ON_AND_OFF)('chosen %s by a test', (_, on) => {
    withStoreWorkarounds({ contactsIndexInRedis: on, campaignLock: on });

    it('is what the test chose, whatever the store', async () => {
      expect(await contactsIndexInRedisApplies()).toBe(on);
      expect(campaignLockApplies()).toBe(on);
    });
  });
});

describe('one writer per document', () => {
  /** Two writes of one document: the first holds until released; the order they ran in. */
  async function twoWritesOfOneDocument(release: (secondStarted: Promise<void>) => Promise<void>) {
    const events: string[] = [];
    const secondStarted = deferred();
    const first = oneWriterPerDocument('subscriber:amira@example.tn', async () => {
      events.push('first starts');
      await release(secondStarted.promise);
      events.push('first ends');
      return 1;
    });
    const second = oneWriterPerDocument('subscriber:amira@example.tn', () => {
      events.push('second starts');
      secondStarted.resolve();
      return Promise.resolve(2);
    });
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    return events;
  }

  describe('on (the default)', () => {
    it('runs the second write of a document once the first has ended', async () => {
      // The first gives the second every chance to start beside it.
      const events = await twoWritesOfOneDocument((secondStarted) =>
        Promise.race([secondStarted, pause(200)]).then(() => undefined),
      );
      expect(events).toEqual(['first starts', 'first ends', 'second starts']);
    });

    it('lets writes of other documents run beside each other', async () => {
      const otherStarted = deferred();
      const first = oneWriterPerDocument('contact:1', () => otherStarted.promise);
      const other = oneWriterPerDocument('contact:2', () => {
        otherStarted.resolve();
        return Promise.resolve();
      });
      await expect(Promise.all([first, other])).resolves.toEqual([undefined, undefined]);
    });
  });

  describe('off', () => {
    withStoreWorkarounds({ oneWriterPerDocument: false });

    it('runs each write at once: the second starts while the first is still running', async () => {
      const events = await twoWritesOfOneDocument((secondStarted) => secondStarted);
      expect(events).toEqual(['first starts', 'second starts', 'first ends']);
    });

    it('passes a failed write on', async () => {
      await expect(
        oneWriterPerDocument('contact:3', () => Promise.reject(new Error('store down'))),
      ).rejects.toThrow('store down');
    });
  });

  describe.each(ON_AND_OFF)('%s, as a subscriber joins and leaves at once', (_, on) => {
    withStoreWorkarounds({ oneWriterPerDocument: on });

    /**
     * The request's change is told to the kept figures while the unsubscribe
     * of the same address comes in; answers the moves in the order told, and
     * whether the unsubscribe had to wait for the request's turn to end.
     */
    async function joinWhileLeaving(email: string) {
      const moves: string[] = [];
      const requestTold = deferred();
      const unsubscribeTold = deferred();
      let requestTurnOver = false;
      let unsubscribeWaited = false;
      const changes: SubscriberChanges = {
        statusChanged: async (_email, from, to) => {
          moves.push(`${from ?? 'none'} -> ${to}`);
          if (to === 'pending') {
            requestTold.resolve();
            // Held until the unsubscribe has told its own move (off), or had every chance to (on).
            await (on
              ? Promise.race([unsubscribeTold.promise, pause(300)])
              : unsubscribeTold.promise);
            requestTurnOver = true;
          } else {
            unsubscribeWaited = requestTurnOver;
            unsubscribeTold.resolve();
          }
        },
      };
      const asking = requestSubscription(
        { email, locale: 'fr', source: 'newsletter-banner', ip: '198.51.100.7' },
        changes,
      );
      await requestTold.promise;
      const leaving = markUnsubscribed(email, 'page', changes);
      await Promise.all([asking, leaving]);
      return { moves, unsubscribeWaited };
    }

    it(
      on
        ? 'tells the figures each move from the true before, the second write in its turn'
        : 'writes the second at once, while the first is still telling its move',
      async () => {
        const email = `amira.${on ? 'on' : 'off'}@example.tn`;
        const { moves, unsubscribeWaited } = await joinWhileLeaving(email);

        expect(unsubscribeWaited).toBe(on);
        // One process, one write after the other reached the store: both read the true before.
        expect(moves).toEqual(['none -> pending', 'pending -> unsubscribed']);
        expect((await findSubscriberByEmail(email))?.status).toBe('unsubscribed');
      },
    );
  });
});
