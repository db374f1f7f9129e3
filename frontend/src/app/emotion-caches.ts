import createCache, { type EmotionCache } from '@emotion/cache';

/** Left-to-right pages use emotion's plain cache. */
export const LTR_CACHE = createCache({ key: 'mui' });

let rtlCache: Promise<EmotionCache> | undefined;

/**
 * The right-to-left cache flips left/right in every generated rule, so Arabic
 * mirrors the whole layout. Its stylis plugins are only fetched for Arabic.
 */
export function loadRtlCache(): Promise<EmotionCache> {
  rtlCache ??= Promise.all([import('stylis'), import('stylis-plugin-rtl')]).then(
    ([{ prefixer }, { default: rtlPlugin }]) =>
      createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
  );
  return rtlCache;
}
