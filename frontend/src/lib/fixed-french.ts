/**
 * Attributes for copy the spec fixes in French: screen readers pronounce it
 * in French, and on an Arabic page it still reads left to right.
 */
export const FIXED_FRENCH = { lang: 'fr', dir: 'ltr' } as const;
