import { useEffect, useRef, useState } from 'react';

/**
 * True from the moment the element first enters the viewport, and for good:
 * a reveal animation plays once, not every time the visitor scrolls past.
 */
export function useRevealOnce<T extends Element>(threshold = 0.2) {
  const ref = useRef<T>(null);
  // Without IntersectionObserver (old browsers) the content simply shows.
  const [revealed, setRevealed] = useState(() => typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    const element = ref.current;
    if (revealed || !element) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          setRevealed(true);
        }
      },
      { threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [revealed, threshold]);

  return { ref, revealed };
}
