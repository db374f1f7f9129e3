import { createLogger } from '@agency/platform';
import { sendingStateOf } from '../testing/campaign-send-state';
import { counterFolds } from './counter-folds';
import type { RoundProgress } from './round-tracker';

const campaign = (id: string) => sendingStateOf(id, { dispatchedRound: 0 });
const progress = (version: number): RoundProgress => ({
  sent: version,
  failed: 0,
  version,
  total: 100,
  dispatched: false,
});

/**
 * How often a round's counters reach the campaign document: at once for the
 * first change, then at most once per interval with the newest counters, and
 * once more after the last change. The writes are recorded here; the send
 * tests write them to the store.
 */
describe('the folds of a round’s counters into its campaign', () => {
  const INTERVAL = 500;
  let writes: { id: string; version: number }[];
  let answer: () => Promise<unknown>;
  const logger = createLogger('test', 'silent');
  const folds = () =>
    counterFolds(
      async (folded, counted) => {
        writes.push({ id: folded.id, version: counted.version });
        return answer();
      },
      INTERVAL,
      logger,
    );

  beforeEach(() => {
    jest.useFakeTimers();
    writes = [];
    answer = () => Promise.resolve(true);
  });
  afterEach(() => jest.useRealTimers());

  const tick = async (ms: number) => {
    await jest.advanceTimersByTimeAsync(ms);
  };

  it('writes the first change at once, then the newest at most once per interval', async () => {
    const folder = folds();
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    expect(writes).toEqual([{ id: 'c1', version: 1 }]);

    for (let version = 2; version <= 9; version++) folder.fold(campaign('c1'), progress(version));
    await tick(INTERVAL - 1);
    expect(writes).toHaveLength(1);
    expect(folder.busy()).toBe(true);

    await tick(1);
    expect(writes).toEqual([
      { id: 'c1', version: 1 },
      { id: 'c1', version: 9 },
    ]);
    await tick(5 * INTERVAL);
    expect(writes).toHaveLength(2);
    expect(folder.busy()).toBe(false);
    folder.close();
  });

  it('keeps each campaign to its own pace', async () => {
    const folder = folds();
    folder.fold(campaign('c1'), progress(1));
    folder.fold(campaign('c2'), progress(1));
    await tick(0);
    expect(writes.map(({ id }) => id).sort()).toEqual(['c1', 'c2']);
    folder.close();
  });

  it('never lets older counters replace newer ones waiting to be written', async () => {
    const folder = folds();
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    folder.fold(campaign('c1'), progress(7));
    folder.fold(campaign('c1'), progress(5));
    await tick(INTERVAL);
    expect(writes.at(-1)).toEqual({ id: 'c1', version: 7 });
    folder.close();
  });

  it('tries the newest counters again when the campaign was busy or the store failed', async () => {
    const folder = folds();
    answer = () => Promise.resolve(undefined);
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    answer = () => Promise.reject(new Error('store down'));
    await tick(INTERVAL);
    answer = () => Promise.resolve(true);
    folder.fold(campaign('c1'), progress(2));
    await tick(INTERVAL);
    expect(writes.map(({ version }) => version)).toEqual([1, 1, 2]);
    await tick(5 * INTERVAL);
    expect(writes).toHaveLength(3);
    folder.close();
  });

  it('tries the same counters again after a failed write, though nothing newer came', async () => {
    const folder = folds();
    answer = () => Promise.reject(new Error('store down'));
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    answer = () => Promise.resolve(true);
    await tick(INTERVAL);
    expect(writes.map(({ version }) => version)).toEqual([1, 1]);
    await tick(5 * INTERVAL);
    expect(writes).toHaveLength(2);
    expect(folder.busy()).toBe(false);
    folder.close();
  });

  it('never writes a campaign twice at once: a change during a write waits for its end', async () => {
    const folder = folds();
    let finish: (value: unknown) => void = () => undefined;
    answer = () => new Promise((resolve) => (finish = resolve));
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    folder.fold(campaign('c1'), progress(2));
    await tick(3 * INTERVAL);
    expect(writes).toEqual([{ id: 'c1', version: 1 }]);
    expect(folder.busy()).toBe(true);

    answer = () => Promise.resolve(true);
    finish(true);
    await tick(0);
    expect(writes.map(({ version }) => version)).toEqual([1, 2]);
    await tick(3 * INTERVAL);
    expect(folder.busy()).toBe(false);
    folder.close();
  });

  it('is busy while any campaign has counters waiting, not while all are written', async () => {
    const folder = folds();
    folder.fold(campaign('c1'), progress(1));
    folder.fold(campaign('c2'), progress(1));
    await tick(0);
    expect(folder.busy()).toBe(false);
    folder.fold(campaign('c2'), progress(2));
    expect(folder.busy()).toBe(true);
    folder.close();
  });

  it('writes nothing once closed, though counters were waiting', async () => {
    const folder = folds();
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    folder.fold(campaign('c1'), progress(2));
    folder.close();
    await tick(3 * INTERVAL);
    expect(writes).toEqual([{ id: 'c1', version: 1 }]);
    expect(folder.busy()).toBe(false);
  });

  it('writes nothing more for a round that ended during a write', async () => {
    const folder = folds();
    let finish: (value: unknown) => void = () => undefined;
    answer = () => new Promise((resolve) => (finish = resolve));
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    folder.fold(campaign('c1'), progress(2));
    folder.forget('c1');
    finish(true);
    await tick(5 * INTERVAL);
    expect(writes).toEqual([{ id: 'c1', version: 1 }]);
    expect(folder.busy()).toBe(false);
    folder.close();
  });

  it('forgets a campaign it never folded without a fuss', () => {
    const folder = folds();
    expect(() => folder.forget('never-folded')).not.toThrow();
    expect(folder.busy()).toBe(false);
  });

  it('never keeps the worker process alive for a fold it waits to write', async () => {
    const timers = jest.spyOn(global, 'setTimeout');
    const folder = folds();
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    folder.fold(campaign('c1'), progress(2));
    const waiting = timers.mock.results.map(({ value }) => value as NodeJS.Timeout);
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    for (const timer of waiting) expect(timer.hasRef()).toBe(false);
    timers.mockRestore();
    folder.close();
  });

  it('writes nothing more for a round that ended', async () => {
    const folder = folds();
    folder.fold(campaign('c1'), progress(1));
    await tick(0);
    folder.fold(campaign('c1'), progress(2));
    folder.forget('c1');
    await tick(5 * INTERVAL);
    expect(writes).toEqual([{ id: 'c1', version: 1 }]);
    expect(folder.busy()).toBe(false);
    folder.close();
  });
});
