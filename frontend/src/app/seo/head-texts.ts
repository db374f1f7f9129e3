import type { Locale } from '@agency/contracts';
import type { i18n as I18n } from 'i18next';
import { FAQ_ITEMS } from '../../features/home/home-content';
import { HOME_SECTIONS_NAMESPACE } from '../../features/home/home-sections-namespace';
import type { HeadTexts } from './page-head';
import { SEO_NAMESPACE } from './seo-namespace';
import type { SitePage } from './site-pages';

/**
 * The words of a page's head in `locale`, from the catalogues the page itself
 * uses (the brand and navigation labels of the shell, the FAQ of the home
 * sections) and the `seo` namespace. `locale` must be the instance's language.
 */
export async function loadHeadTexts(
  i18n: I18n,
  page: SitePage,
  locale: Locale,
): Promise<HeadTexts> {
  await i18n.loadNamespaces([SEO_NAMESPACE.name, HOME_SECTIONS_NAMESPACE.name]);
  const shell = i18n.getFixedT(locale);
  const seo = i18n.getFixedT(locale, SEO_NAMESPACE.name);
  const sections = i18n.getFixedT(locale, HOME_SECTIONS_NAMESPACE.name);
  return {
    siteName: shell('brand.name'),
    title: seo(`pages.${page.key}.title`),
    description: seo(`pages.${page.key}.description`),
    organizationDescription: seo('organizationDescription'),
    shareImageAlt: seo('shareImageAlt'),
    homeName: shell('nav.home'),
    breadcrumbName: page.breadcrumbKey === undefined ? undefined : shell(page.breadcrumbKey),
    faq: FAQ_ITEMS.map((item) => ({
      question: sections(`faq.items.${item}.question`),
      answer: sections(`faq.items.${item}.answer`),
    })),
  };
}
