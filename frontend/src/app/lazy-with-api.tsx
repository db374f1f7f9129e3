import type { ComponentType, ReactNode } from 'react';
import { preloadableLazy } from '../lib/preloadable-lazy';

/**
 * A lazily loaded component that uses the API: its chunk and the API
 * client (RTK Query) load together, and the component renders once the
 * store is ready for it.
 */
export function lazyWithApi<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  /** Shown for the moment the store takes to connect (the same as the Suspense fallback). */
  fallback: ReactNode = null,
) {
  return preloadableLazy(async () => {
    const [{ ApiBoundary }, Component] = await Promise.all([import('./api-boundary'), load()]);
    function WithApi(props: Props) {
      return (
        <ApiBoundary fallback={fallback}>
          <Component {...props} />
        </ApiBoundary>
      );
    }
    return WithApi;
  });
}
