/**
 * What the public tracking routes answer besides a redirect: the open pixel,
 * the page behind the hidden trap link, and the page of a link that is not
 * ours. Plain pages with no script, style or outside resource (the API's
 * Content-Security-Policy allows none), never indexed.
 */

/**
 * A 1x1 GIF89a whose one pixel is palette entry 0, which its graphic control
 * extension marks transparent: 43 bytes, the size mail clients expect of a pixel.
 */
export const TRANSPARENT_PIXEL_GIF = Buffer.from(
  'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==',
  'base64',
);

/**
 * Only machines reach the trap link (it is hidden, aria-hidden and not
 * focusable), so the page says nothing and links nowhere; a person who
 * somehow lands here loses nothing.
 */
export const TRAP_PAGE_HTML = [
  '<!doctype html>',
  '<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">',
  '<title>Thank you</title></head>',
  '<body><p>Thank you. There is nothing more on this page.</p></body></html>',
].join('');

/** A tracking link that is not (or no longer) one of ours: no redirect, nothing recorded. */
export const LINK_NOT_FOUND_HTML = [
  '<!doctype html>',
  '<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">',
  '<title>Link not found</title></head>',
  '<body><h1>Link not found</h1>',
  '<p>This link is not valid or has expired.</p></body></html>',
].join('');

/** The store could not be read for the campaign's links: the reader may try again. */
export const LINK_UNAVAILABLE_HTML = [
  '<!doctype html>',
  '<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">',
  '<title>Try again</title></head>',
  '<body><h1>Please try again in a moment</h1>',
  '<p>This link cannot be followed right now.</p></body></html>',
].join('');
