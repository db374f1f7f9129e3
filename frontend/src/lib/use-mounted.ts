import { useEffect, useState } from 'react';

/**
 * False during the server prerender and the hydration render, true right
 * after: content behind it is left out of the prerendered HTML and rendered
 * by the browser alone (below-the-fold sections, decorations).
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    // One extra render after hydration is the point: it cannot come from render itself.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setMounted(true);
  }, []);
  return mounted;
}
