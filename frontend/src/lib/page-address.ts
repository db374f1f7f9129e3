/**
 * Opens another address as a new page load. Changing the public site's
 * language does this: each language is prerendered at its own address, and
 * the page loaded there is what a search engine or a shared link shows.
 * (A module of its own, so tests can stand in for the browser's navigation.)
 */
export function openAddress(url: string): void {
  window.location.assign(url);
}
