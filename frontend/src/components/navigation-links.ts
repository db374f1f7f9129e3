/** A navigation entry is either a route or an in-page anchor of the home page. */
export type NavigationLink =
  | { kind: 'route'; to: string; labelKey: string }
  | { kind: 'anchor'; anchorId: string; labelKey: string };

/** Shared by the navigation bar, its side menu and the footer so they never drift apart. */
export const PRIMARY_LINKS: readonly NavigationLink[] = [
  { kind: 'route', to: '/', labelKey: 'nav.home' },
  // The spec sends every services link to /services-dedicated.
  { kind: 'route', to: '/services-dedicated', labelKey: 'nav.services' },
  { kind: 'route', to: '/portfolio', labelKey: 'nav.portfolio' },
  { kind: 'anchor', anchorId: 'about', labelKey: 'nav.about' },
  { kind: 'route', to: '/contact', labelKey: 'nav.contact' },
];

/** The side menu's id, named by the menu button's aria-controls. */
export const SIDE_MENU_ID = 'navigation-menu';

/** Whether a link points at the page (or home anchor) the visitor is on. */
export function isActiveLink(link: NavigationLink, pathname: string, hash: string): boolean {
  if (link.kind === 'anchor') return pathname === '/' && hash === `#${link.anchorId}`;
  if (link.to === '/') return pathname === '/' && !hash;
  // Every services address shows the same page, so the services link is active on all of them.
  if (link.to === '/services-dedicated') return pathname.startsWith('/services');
  return pathname.startsWith(link.to);
}
