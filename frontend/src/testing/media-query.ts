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

/**
 * jsdom has no viewport width. Installs a matchMedia that answers width
 * queries (`(max-width:767.95px)`, `(min-width:600px)`) for a window this
 * wide, and asks for reduced motion (the admin tests wait for no animation);
 * returns a function that removes it.
 */
export function mockViewportWidth(width: number): () => void {
  const matches = (query: string): boolean => {
    if (query.includes(REDUCED_MOTION_QUERY.slice(1, -1))) return true;
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    if (max?.[1] && width > Number(max[1])) return false;
    if (min?.[1] && width < Number(min[1])) return false;
    return Boolean(max ?? min);
  };
  const matchMedia = (query: string): MediaQueryList =>
    ({
      matches: matches(query),
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
