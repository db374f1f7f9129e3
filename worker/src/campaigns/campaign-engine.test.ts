import { campaignSettings } from '../testing/campaign-context';
import { limiterOf, sendJobOptions, deadWorkerLockOptions, waveSizeOf } from './campaign-engine';

/**
 * How the engine turns the worker's campaign settings into its BullMQ
 * options: the batches' retries, the waves' size, the global mail rate and
 * the take-over of a dead worker's batches. The campaign tests run the
 * engine these options build.
 */
describe("the campaign engine's options", () => {
  it('retries a batch with doubling pauses, and keeps few finished jobs', () => {
    expect(sendJobOptions(campaignSettings({ retryAttempts: 6, retryDelayMs: 2000 }))).toEqual({
      attempts: 6,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  });

  it("sends each wave with half the worker's mails in flight, two batches sending at once", () => {
    const wave = (concurrency: number, batchesInFlight: number) =>
      waveSizeOf(campaignSettings({ concurrency, batchesInFlight }));
    expect(wave(20, 4)).toBe(10);
    expect(wave(21, 2)).toBe(11);
    // A single batch in flight has every mail.
    expect(wave(20, 1)).toBe(20);
    // Never a wave of nobody.
    expect(wave(1, 4)).toBe(1);
    expect(wave(0, 4)).toBe(1);
  });

  it('holds the global mail rate in whole batches per second, or one batch per longer span', () => {
    const limiter = (ratePerSecond: number, batchSize: number) =>
      limiterOf(campaignSettings({ ratePerSecond, batchSize }));
    expect(limiter(0, 100)).toBeUndefined();
    expect(limiter(-1, 100)).toBeUndefined();
    expect(limiter(1000, 100)).toEqual({ max: 10, duration: 1000 });
    expect(limiter(250, 100)).toEqual({ max: 2, duration: 1000 });
    expect(limiter(100, 100)).toEqual({ max: 1, duration: 1000 });
    expect(limiter(30, 100)).toEqual({ max: 1, duration: 3334 });
  });

  it("lets another worker take over a dead worker's batch after the lock duration, again and again", () => {
    expect(deadWorkerLockOptions(campaignSettings({ lockDurationMs: 45_000 }))).toEqual({
      lockDuration: 45_000,
      stalledInterval: 45_000,
      maxStalledCount: 10,
    });
  });
});
