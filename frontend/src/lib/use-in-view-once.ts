import { useEffect, useRef, useState } from 'react';

export interface InViewOptions {
  /** How much of the element must show (0 to 1). */
  threshold?: number;
  /** Grows the viewport, e.g. '600px' to react before the element is reached. */
  rootMargin?: string;
}

/**
 * True from the moment the element first comes into view, and for good: a
 * reveal animation plays once, deferred content is built once.
 */
export function useInViewOnce<T extends Element>({
  threshold = 0,
  rootMargin,
}: InViewOptions = {}) {
  const ref = useRef<T>(null);
  // Without IntersectionObserver (old browsers) everything simply shows.
  const [inView, setInView] = useState(() => typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    const element = ref.current;
    if (inView || !element) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          setInView(true);
        }
      },
      { threshold, rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [inView, threshold, rootMargin]);

  return { ref, inView };
}
