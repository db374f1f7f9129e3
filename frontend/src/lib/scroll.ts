import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { prefersReducedMotion } from './motion';

/** Height of the fixed navigation bar: anchors land below it, not under it (spec: 80 px). */
export const ANCHOR_OFFSET_PX = 80;
/** Lets the target page render before scrolling to its anchor (spec: 100 ms). */
export const HASH_SCROLL_DELAY_MS = 100;
/** How long a hash target may take to appear (its section may still be loading). */
export const HASH_TARGET_TIMEOUT_MS = 5_000;

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
 * Scrolls to `id` as soon as it exists: sections below the fold are loaded
 * after the page, so the target may appear a moment later. Returns a cancel function.
 */
export function scrollToIdWhenPresent(id: string, timeoutMs = HASH_TARGET_TIMEOUT_MS): () => void {
  if (scrollToId(id)) return () => undefined;
  const observer = new MutationObserver(() => {
    if (scrollToId(id)) stop();
  });
  const timer = window.setTimeout(() => stop(), timeoutMs);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
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
      if (scrollToId(id)) return;
      void navigate({ pathname: '/', hash: `#${id}` });
    },
    [navigate],
  );
}
