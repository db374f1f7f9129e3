export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** For event handlers: whether the visitor asked the system for less motion. */
export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION_QUERY).matches;
}
