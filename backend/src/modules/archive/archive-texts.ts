import type { Locale } from '@agency/contracts';

/** The archive pages' and feed's own words, per language (the campaigns bring theirs). */
export interface ArchiveTexts {
  title: string;
  description: string;
  empty: string;
  notFound: string;
  sentOn: string;
  back: string;
  home: string;
  /** The site's privacy policy, linked from every archive page as from the site's footer. */
  privacy: string;
  languages: string;
  feed: string;
  /** Each language's name, written in that language. */
  languageName: string;
}

export const ARCHIVE_TEXTS: Readonly<Record<Locale, ArchiveTexts>> = {
  en: {
    title: 'Newsletter archive',
    description: 'Every newsletter the agency has sent, to read online.',
    empty: 'No newsletter has been published yet.',
    notFound: 'This newsletter is not in the archive.',
    sentOn: 'Sent on',
    back: 'All newsletters',
    home: 'Home page',
    privacy: 'Privacy Policy',
    languages: 'Read in another language',
    feed: 'Atom feed of the newsletters',
    languageName: 'English',
  },
  fr: {
    title: 'Archives de la newsletter',
    description: "Toutes les newsletters envoyées par l'agence, à lire en ligne.",
    empty: "Aucune newsletter n'a encore été publiée.",
    notFound: "Cette newsletter n'est pas dans les archives.",
    sentOn: 'Envoyée le',
    back: 'Toutes les newsletters',
    home: "Page d'accueil",
    privacy: 'Politique de confidentialité',
    languages: 'Lire dans une autre langue',
    feed: 'Flux Atom des newsletters',
    languageName: 'Français',
  },
  ar: {
    title: 'أرشيف النشرة الإخبارية',
    description: 'كل النشرات الإخبارية التي أرسلتها الوكالة، للقراءة على الإنترنت.',
    empty: 'لم تُنشر أي نشرة إخبارية بعد.',
    notFound: 'هذه النشرة الإخبارية ليست في الأرشيف.',
    sentOn: 'أُرسلت في',
    back: 'كل النشرات الإخبارية',
    home: 'الصفحة الرئيسية',
    privacy: 'سياسة الخصوصية',
    languages: 'اقرأ بلغة أخرى',
    feed: 'موجز Atom للنشرات الإخبارية',
    languageName: 'العربية',
  },
};
