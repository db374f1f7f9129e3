/**
 * The three packs. Their words are in the `home-sections` catalogues
 * under `packages.items.<id>`, feature by feature; prices are always a custom
 * quote (`packages.price`), so there is no price field.
 */
export interface Package {
  id: 'croissance' | 'performance' | 'excellence';
  features: readonly string[];
  popular: boolean;
}

export const PACKAGES: readonly Package[] = [
  { id: 'croissance', features: ['networks', 'content', 'ads', 'seo', 'report'], popular: false },
  {
    id: 'performance',
    features: ['networks', 'content', 'ads', 'landing', 'seo', 'report'],
    popular: true,
  },
  {
    id: 'excellence',
    features: ['networks', 'content', 'ecommerce', 'ads', 'seo', 'report', 'support'],
    popular: false,
  },
];
