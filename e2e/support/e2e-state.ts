/**
 * Hands the stop functions of what the global setup started to the global
 * teardown (both run in Playwright's runner process).
 */

type Cleanup = () => Promise<void> | void;

const STATE_KEY = Symbol.for('agency.e2e.cleanups');
const globalState = globalThis as unknown as Record<symbol, Cleanup[] | undefined>;

export function rememberCleanup(cleanup: Cleanup): void {
  (globalState[STATE_KEY] ??= []).push(cleanup);
}

/** Runs every remembered cleanup, last first, even if one fails. */
export async function runCleanups(): Promise<void> {
  const cleanups = globalState[STATE_KEY] ?? [];
  globalState[STATE_KEY] = undefined;
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error('e2e teardown:', error);
    }
  }
}
