/**
 * The services page's five offers. Their words are in the services
 * catalogues under `servicesPage.offers.<id>`: title, problem, the three
 * steps of the approach (`approach.1` to `approach.3`) and the results.
 */
export const SERVICE_OFFERS = [
  'meta-ads',
  'google-ads',
  'seo',
  'web-development',
  'branding',
] as const;

export const APPROACH_STEPS = ['1', '2', '3'] as const;
