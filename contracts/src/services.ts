/**
 * The six services a visitor can pick in the enquiry form. The slug is what is
 * stored and sent; each workspace shows its translated title.
 */
export const SERVICE_SLUGS = [
  'meta-ads',
  'social-media',
  'web-design',
  'branding',
  'content-creation',
  'analytics',
] as const;
export type ServiceSlug = (typeof SERVICE_SLUGS)[number];
