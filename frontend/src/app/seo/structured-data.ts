import { CONTACT_DETAILS } from '../../lib/contact-details';

/**
 * The schema.org objects the pages carry as JSON-LD: the agency on every
 * indexed page, its FAQ on the home page, the trail to an inner page.
 */
export type JsonLd = { '@context'?: string; '@type': string } & Record<string, unknown>;

const SCHEMA_ORG = 'https://schema.org';

export interface AgencyFacts {
  name: string;
  description: string;
  /** The site's home page in the page's language. */
  url: string;
  /** The address of the site itself (its root), which names the agency as `@id`. */
  siteUrl: string;
  image: string;
  languages: readonly string[];
}

/** The agency as a ProfessionalService (a LocalBusiness): name, address and ways to reach it. */
export function agencyData({
  name,
  description,
  url,
  siteUrl,
  image,
  languages,
}: AgencyFacts): JsonLd {
  return {
    '@context': SCHEMA_ORG,
    '@type': 'ProfessionalService',
    '@id': `${siteUrl}/#agency`,
    name,
    description,
    url,
    image,
    logo: image,
    email: CONTACT_DETAILS.email,
    telephone: CONTACT_DETAILS.phoneHref.replace(/^tel:/, ''),
    address: {
      '@type': 'PostalAddress',
      addressLocality: CONTACT_DETAILS.office.locality,
      addressCountry: CONTACT_DETAILS.office.countryCode,
    },
    openingHoursSpecification: CONTACT_DETAILS.openingHours.map(({ days, opens, closes }) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: [...days],
      opens,
      closes,
    })),
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer service',
      email: CONTACT_DETAILS.email,
      telephone: CONTACT_DETAILS.phoneHref.replace(/^tel:/, ''),
      availableLanguage: [...languages],
    },
  };
}

export interface FaqEntry {
  question: string;
  answer: string;
}

/** The FAQ section's questions and answers as a FAQPage. */
export function faqData(entries: readonly FaqEntry[], inLanguage: string): JsonLd {
  return {
    '@context': SCHEMA_ORG,
    '@type': 'FAQPage',
    inLanguage,
    mainEntity: entries.map(({ question, answer }) => ({
      '@type': 'Question',
      name: question,
      acceptedAnswer: { '@type': 'Answer', text: answer },
    })),
  };
}

export interface Crumb {
  name: string;
  url: string;
}

/** Home, then the page: the trail search results show for an inner page. */
export function breadcrumbData(crumbs: readonly Crumb[]): JsonLd {
  return {
    '@context': SCHEMA_ORG,
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map(({ name, url }, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name,
      item: url,
    })),
  };
}
