/**
 * The figures and fixed data of the translated home sections; their words
 * live in the `home` namespace under the same ids.
 */

/** Stats banner: 500%, 150+, 10M+, 98%. */
export const BANNER_STATS = [
  { id: 'roi', value: '500%' },
  { id: 'clients', value: '150+' },
  { id: 'impressions', value: '10M+' },
  { id: 'satisfaction', value: '98%' },
] as const;

/** The four process steps, in order. */
export const PROCESS_STEPS = ['discovery', 'strategy', 'execution', 'optimization'] as const;

export interface CaseStudy {
  id: 'technology' | 'ecommerce' | 'lifestyle';
  metrics: readonly { id: string; value: string }[];
}

/** The translated case-study block: three industries, three metrics each. */
export const CASE_STUDIES: readonly CaseStudy[] = [
  {
    id: 'technology',
    metrics: [
      { id: 'leads', value: '+180%' },
      { id: 'cost', value: '-45%' },
      { id: 'demos', value: '120' },
    ],
  },
  {
    id: 'ecommerce',
    metrics: [
      { id: 'revenue', value: '+250%' },
      { id: 'roas', value: '6.2x' },
      { id: 'cart', value: '-35%' },
    ],
  },
  {
    id: 'lifestyle',
    metrics: [
      { id: 'followers', value: '25K' },
      { id: 'engagement', value: '8.5%' },
      { id: 'reach', value: '+400%' },
    ],
  },
];

/**
 * Testimonial portraits come from a stock-photo host. They load lazily,
 * below the fold, and fall back to a local image when the host cannot be reached.
 */
export const STOCK_PHOTO_HOST = 'https://images.unsplash.com';
const portrait = (photo: string) =>
  `${STOCK_PHOTO_HOST}/${photo}?w=160&h=160&fit=crop&crop=faces&auto=format&q=70`;
export const TESTIMONIAL_PHOTO_FALLBACK = '/images/avatar-fallback.svg';
export const TESTIMONIAL_STARS = 5;

export const TESTIMONIALS = [
  { id: 'sarah', photo: portrait('photo-1494790108377-be9c29b29330') },
  { id: 'karim', photo: portrait('photo-1507003211169-0a1dd7228f2d') },
  { id: 'emma', photo: portrait('photo-1438761681033-6461ffad8d80') },
] as const;

export const CLIENT_SECTORS = [
  'technology',
  'retail',
  'hospitality',
  'health',
  'realEstate',
  'education',
] as const;

/** Spec 9: five FAQ items. */
export const FAQ_ITEMS = ['q1', 'q2', 'q3', 'q4', 'q5'] as const;
