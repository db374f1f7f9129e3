import { useEffect } from 'react';
import { useHref, useLocation } from 'react-router-dom';
import { useLocale } from '../../lib/locale';

/** Set on `<html>` to the address whose head the document holds (prerender.mjs sets it too). */
export const HEAD_ADDRESS_ATTRIBUTE = 'data-head-address';

/**
 * Keeps `<head>` (title, description, canonical, alternates, share card,
 * structured data) in step with the page as the visitor moves around. A
 * prerendered page arrives with its own, so its first render loads nothing:
 * the code and texts of the head load with the first page that needs them.
 */
export function PageHeadSync() {
  const { pathname } = useLocation();
  // The full address, language prefix included: what prerender.mjs marks the document with.
  const address = useHref(pathname);
  const locale = useLocale();

  useEffect(() => {
    const root = document.documentElement;
    if (root.getAttribute(HEAD_ADDRESS_ATTRIBUTE) === address) return undefined;
    let current = true;
    void import('./document-head').then(async ({ applyPageHead, loadPageHead }) => {
      const head = await loadPageHead(pathname, locale);
      // A later navigation has its own head coming.
      if (!current) return;
      applyPageHead(head);
      root.setAttribute(HEAD_ADDRESS_ATTRIBUTE, address);
    });
    return () => {
      current = false;
    };
  }, [pathname, address, locale]);

  return null;
}
