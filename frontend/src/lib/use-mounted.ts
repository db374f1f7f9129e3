import { useSyncExternalStore } from 'react';

let mounted = false;
const waiting = new Set<() => void>();

function markMounted(): void {
  if (mounted) return;
  mounted = true;
  for (const onChange of waiting) onChange();
  waiting.clear();
}

function subscribe(onChange: () => void): () => void {
  if (!mounted) {
    waiting.add(onChange);
    // Subscriptions are made once the first render is committed (hydrated, for
    // a prerendered page): the render after this is the first the prerendered
    // HTML no longer has to match.
    setTimeout(markMounted, 0);
  }
  return () => waiting.delete(onChange);
}

/**
 * False during the server prerender and the page's first render (its
 * hydration), true from the render after: content behind it is left out of
 * the prerendered HTML and rendered by the browser alone (below-the-fold
 * sections, decorations). Once the page is live, what mounts later is
 * rendered at once.
 */
export function useMounted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => mounted,
    () => false,
  );
}
