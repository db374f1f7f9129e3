// @ts-check
/**
 * Hands what the global setup started to the global teardown. Both run in
 * jest's main process but may be loaded as separate module instances, so the
 * state lives on globalThis under a registered symbol.
 */

/** @typedef {{ stop: () => Promise<void>, dataDir: string }} JestServices */

const STATE_KEY = Symbol.for('agency.jest.services');
const globalState = /** @type {Record<symbol, JestServices | undefined>} */ (
  /** @type {unknown} */ (globalThis)
);

/** @param {JestServices} services */
export function setJestServices(services) {
  globalState[STATE_KEY] = services;
}

/** @returns {JestServices | undefined} */
export function takeJestServices() {
  const services = globalState[STATE_KEY];
  globalState[STATE_KEY] = undefined;
  return services;
}
