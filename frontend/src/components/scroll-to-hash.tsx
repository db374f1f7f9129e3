import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { HASH_SCROLL_DELAY_MS, scrollToIdWhenPresent } from '../lib/scroll';

/**
 * On navigation: with a hash, scroll to that element once the page has had
 * time to render; without one, start at the top like a full
 * page load would.
 */
export function ScrollToHash() {
  const { pathname, hash } = useLocation();

  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0 });
      return undefined;
    }
    let cancelScroll: () => void = () => undefined;
    const timer = window.setTimeout(() => {
      cancelScroll = scrollToIdWhenPresent(decodeURIComponent(hash.slice(1)));
    }, HASH_SCROLL_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      cancelScroll();
    };
  }, [pathname, hash]);

  return null;
}
