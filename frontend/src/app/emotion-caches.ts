import createCache, { type EmotionCache } from '@emotion/cache';

/** Left-to-right pages use emotion's plain cache. */
export const LTR_CACHE = createCache({ key: 'mui' });

let rtlCache: Promise<EmotionCache> | undefined;

/**
 * A right-to-left cache flips left/right in every generated rule, so Arabic
 * mirrors the whole layout. Its stylis plugins are only fetched for Arabic.
 */
export async function createRtlCache(): Promise<EmotionCache> {
  const [{ prefixer }, { default: rtlPlugin }] = await Promise.all([
    import('stylis'),
    import('stylis-plugin-rtl'),
  ]);
  return createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });
}

/** The browser's one right-to-left cache. */
export function loadRtlCache(): Promise<EmotionCache> {
  rtlCache ??= createRtlCache();
  return rtlCache;
}
