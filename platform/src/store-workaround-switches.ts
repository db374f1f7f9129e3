/*
 * The tests' switches of the store workarounds (embedded-store.ts names
 * them and reads these). Kept out of the platform's entry: only the tests
 * set them, through testing/store-workarounds.ts.
 */

/** The workarounds a test may turn on or off: those the code is right without. */
export const SWITCHABLE_STORE_WORKAROUNDS = [
  'contactsIndexInRedis',
  'oneWriterPerDocument',
  'campaignLock',
  'readsByIdOnly',
] as const;

export type SwitchableStoreWorkaround = (typeof SWITCHABLE_STORE_WORKAROUNDS)[number];

export type StoreWorkaroundSwitches = Partial<Record<SwitchableStoreWorkaround, boolean>>;

let switches: StoreWorkaroundSwitches = {};

/** Turns workarounds on or off whatever the store. */
export function setStoreWorkarounds(next: StoreWorkaroundSwitches): void {
  switches = { ...switches, ...next };
}

/** Every workaround back to where it applies by default. */
export function resetStoreWorkarounds(): void {
  switches = {};
}

/** What a test chose for this workaround, if anything. */
export function chosenSwitch(name: SwitchableStoreWorkaround): boolean | undefined {
  return switches[name];
}
