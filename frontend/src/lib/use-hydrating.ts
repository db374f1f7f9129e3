import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * True while a component renders on the server (the prerender) or is hydrated
 * from that HTML in the browser; false when the browser renders it itself.
 * Read it once (in a state initializer): it turns false right after hydration.
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
}
