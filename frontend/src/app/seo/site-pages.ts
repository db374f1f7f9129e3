/**
 * The public site's pages as search engines see them. Each exists in every
 * language (lib/site-locale.ts): `path` is its English address.
 */
export type PageKey =
  | 'home'
  | 'services'
  | 'portfolio'
  | 'contact'
  | 'thankYou'
  | 'privacy'
  | 'newsletter'
  | 'notFound';

export interface SitePage {
  key: PageKey;
  /** The English address the page is served at. */
  path: string;
  /**
   * The English address of the page whose content this is; pages that only
   * repeat another (`/services-dedicated`) point search engines there.
   * Absent for pages that are not to be indexed.
   */
  canonicalPath?: string;
  /** The navigation label (shell namespace) naming it in breadcrumbs; home has none. */
  breadcrumbKey?: string;
}

const HOME: SitePage = { key: 'home', path: '/', canonicalPath: '/' };
const SERVICES: SitePage = {
  key: 'services',
  path: '/services',
  canonicalPath: '/services',
  breadcrumbKey: 'nav.services',
};

/**
 * The pages built to HTML at build time, in every language. The sitemap
 * lists those that are their own canonical page.
 */
export const PRERENDERED_PAGES: readonly SitePage[] = [
  HOME,
  SERVICES,
  // The navigation's services link: the same page as /services.
  { ...SERVICES, path: '/services-dedicated' },
  {
    key: 'portfolio',
    path: '/portfolio',
    canonicalPath: '/portfolio',
    breadcrumbKey: 'nav.portfolio',
  },
  { key: 'contact', path: '/contact', canonicalPath: '/contact', breadcrumbKey: 'nav.contact' },
  // Reached after sending an enquiry: useful to the visitor, not to a search.
  { key: 'thankYou', path: '/thank-you' },
  // Linked from every page's footer, and what a search for the agency's policy should find.
  { key: 'privacy', path: '/privacy', canonicalPath: '/privacy', breadcrumbKey: 'footer.privacy' },
];

/** The page an address (English, below any language prefix) shows. */
export function sitePageOf(path: string): SitePage {
  const prerendered = PRERENDERED_PAGES.find((page) => page.path === path);
  if (prerendered) return prerendered;
  // Every service's address shows the services page (the slug is not used).
  if (path.startsWith('/services/')) return { ...SERVICES, path };
  if (path.startsWith('/newsletter/')) return { key: 'newsletter', path };
  return { key: 'notFound', path };
}

/** Whether search engines are asked to index the page (it is its own canonical page). */
export function isIndexable(page: SitePage): boolean {
  return page.canonicalPath === page.path;
}
