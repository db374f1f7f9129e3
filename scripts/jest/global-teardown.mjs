// @ts-check
/** Jest global teardown: stops what global-setup.mjs started and removes its folder. */
import { rmSync } from 'node:fs';
import { takeJestServices } from './jest-services-state.mjs';

export default async function globalTeardown() {
  const started = takeJestServices();
  if (!started) return;
  await started.stop();
  rmSync(started.dataDir, { recursive: true, force: true });
}
