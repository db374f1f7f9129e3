import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { prefersReducedMotion } from './motion';

/** Height of the fixed navigation bar: anchors land below it, not under it. */
export const ANCHOR_OFFSET_PX = 80;
/** Lets the target page render before scrolling to its anchor. */
export const HASH_SCROLL_DELAY_MS = 100;
/** How long a hash target may take to appear (its section may still be loading). */
export const HASH_TARGET_TIMEOUT_MS = 15_000;
/** The page counts as settled once nothing has moved for this long after the scroll. */
const SETTLE_MS = 1_500;
const VISITOR_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth';
}

/** Scrolls to an element by id, leaving room for the navigation bar; false when it is absent. */
export function scrollToId(id: string): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  const top = element.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET_PX;
  window.scrollTo({ top, behavior: scrollBehavior() });
  return true;
}

export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: scrollBehavior() });
}

/**
 * Scrolls to `id` as soon as it exists, and keeps it in place while the page
 * is still being built: sections below the fold load after the page, so the
 * target may appear late, and the page may still grow (more sections, fonts)
 * after the first scroll. Stops as soon as the visitor scrolls or types,
 * once the page has settled, or after a timeout. Returns a cancel function.
 */
export function scrollToIdWhenPresent(id: string, timeoutMs = HASH_TARGET_TIMEOUT_MS): () => void {
  let settleTimer: number | undefined;
  const keepInPlace = () => {
    const element = document.getElementById(id);
    if (!element) return;
    if (Math.abs(element.getBoundingClientRect().top - ANCHOR_OFFSET_PX) > 1) scrollToId(id);
    window.clearTimeout(settleTimer);
    settleTimer = window.setTimeout(stop, SETTLE_MS);
  };
  const mutations = new MutationObserver(keepInPlace);
  const resizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(keepInPlace);
  const timer = window.setTimeout(stop, timeoutMs);
  function stop() {
    mutations.disconnect();
    resizes?.disconnect();
    window.clearTimeout(timer);
    window.clearTimeout(settleTimer);
    for (const type of VISITOR_INPUT) window.removeEventListener(type, stop);
  }
  for (const type of VISITOR_INPUT) window.addEventListener(type, stop, { passive: true });
  mutations.observe(document.body, { childList: true, subtree: true });
  resizes?.observe(document.body);
  keepInPlace();
  return stop;
}

/**
 * Goes to an in-page anchor: scrolls when it is on the current page, otherwise
 * opens the home page with the hash and lets the hash scroll take over.
 */
export function useAnchorNavigation(): (id: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (id: string) => {
      // Sections on the way may still change height as they are laid out: keep the target in place.
      if (document.getElementById(id)) scrollToIdWhenPresent(id);
      else void navigate({ pathname: '/', hash: `#${id}` });
    },
    [navigate],
  );
}
