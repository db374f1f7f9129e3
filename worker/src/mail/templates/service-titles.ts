import type { Locale, ServiceSlug } from '@agency/contracts';

/** The six services' names in each language, as the site shows them. */
export const SERVICE_TITLES: Record<Locale, Record<ServiceSlug, string>> = {
  en: {
    'meta-ads': 'Meta Ads',
    'social-media': 'Social Media Marketing',
    'web-design': 'Web Design & Development',
    branding: 'Branding & Identity',
    'content-creation': 'Content Creation',
    analytics: 'Analytics & Optimization',
  },
  fr: {
    'meta-ads': 'Publicité Meta',
    'social-media': 'Marketing des réseaux sociaux',
    'web-design': 'Conception et développement web',
    branding: 'Image de marque et identité',
    'content-creation': 'Création de contenu',
    analytics: 'Analyse et optimisation',
  },
  ar: {
    'meta-ads': 'إعلانات ميتا',
    'social-media': 'التسويق عبر وسائل التواصل الاجتماعي',
    'web-design': 'تصميم وتطوير المواقع',
    branding: 'العلامة التجارية والهوية',
    'content-creation': 'إنشاء المحتوى',
    analytics: 'التحليلات والتحسين',
  },
};
