import { runCleanups } from './support/e2e-state';

/** Stops what the global setup started (nothing when E2E_BASE_URL was given). */
export default async function globalTeardown(): Promise<void> {
  await runCleanups();
}
