// @ts-check
/** Jest global teardown: stops what global-setup.mjs started and removes its folder. */
export default async function globalTeardown() {
  const stop = /** @type {Record<symbol, (() => Promise<void>) | undefined>} */ (globalThis)[
    Symbol.for('agency.jest.stop')
  ];
  await stop?.();
}
