import { REDUCED_MOTION_QUERY } from '../lib/motion';

/**
 * jsdom has no matchMedia. Installs one that answers the reduced-motion query
 * as asked (every other query does not match); returns a function that removes it.
 */
export function mockReducedMotion(reduce: boolean): () => void {
  const matchMedia = (query: string): MediaQueryList =>
    ({
      matches: reduce && query.includes(REDUCED_MOTION_QUERY.slice(1, -1)),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
  Object.defineProperty(window, 'matchMedia', {
    value: matchMedia,
    configurable: true,
    writable: true,
  });
  return () => {
    Reflect.deleteProperty(window, 'matchMedia');
  };
}
