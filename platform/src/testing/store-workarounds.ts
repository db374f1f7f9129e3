import {
  resetStoreWorkarounds,
  setStoreWorkarounds,
  type StoreWorkaroundSwitches,
} from '../store-workaround-switches';

export { resetStoreWorkarounds, setStoreWorkarounds, type StoreWorkaroundSwitches };

/**
 * Runs each test of the enclosing block with these workarounds on or off,
 * whatever the test store is, and puts them back to their defaults after it.
 */
export function withStoreWorkarounds(chosen: StoreWorkaroundSwitches): void {
  beforeEach(() => setStoreWorkarounds(chosen));
  afterEach(() => resetStoreWorkarounds());
}

/** A workaround's two runs, for `describe.each`: `describe.each(ON_AND_OFF)('... %s', (_, on) => ...)`. */
export const ON_AND_OFF = [
  ['on', true],
  ['off', false],
] as const;
