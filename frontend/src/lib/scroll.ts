import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

/** Height of the fixed navigation bar: anchors land below it, not under it (spec: 80 px). */
export const ANCHOR_OFFSET_PX = 80;
/** Lets the target page render before scrolling to its anchor (spec: 100 ms). */
export const HASH_SCROLL_DELAY_MS = 100;

/** Smoothly scrolls to an element by id, leaving room for the navigation bar. */
export function scrollToId(id: string): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  const top = element.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET_PX;
  window.scrollTo({ top, behavior: 'smooth' });
  return true;
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
