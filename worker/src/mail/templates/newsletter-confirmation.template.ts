import { NEWSLETTER_CONFIRMATION_TTL_DAYS, type Locale } from '@agency/contracts';
import { htmlDocument, link, paragraph, type RenderedMail } from '@agency/platform';
import { renderUnsubscribeFooter } from '@agency/platform';

interface ConfirmationCopy {
  subject: string;
  intro: string;
  action: string;
  expiry: string;
  ignore: string;
  signature: string;
}

const days = NEWSLETTER_CONFIRMATION_TTL_DAYS;

const COPY: Record<Locale, ConfirmationCopy> = {
  en: {
    subject: 'Confirm your newsletter subscription',
    intro:
      'Someone, hopefully you, asked to receive the Digital Agency newsletter at this address.',
    action: 'Confirm my subscription',
    expiry: `This link works for ${days} days.`,
    ignore: 'If you did not ask for it, ignore this e-mail: you will not be subscribed.',
    signature: 'The Digital Agency team',
  },
  fr: {
    subject: 'Confirmez votre inscription à la newsletter',
    intro:
      "Quelqu'un, sans doute vous, a demandé à recevoir la newsletter d'Agence Digitale à cette adresse.",
    action: 'Confirmer mon inscription',
    expiry: `Ce lien est valable ${days} jours.`,
    ignore:
      "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : vous ne serez pas inscrit.",
    signature: "L'équipe Agence Digitale",
  },
  ar: {
    subject: 'أكّد اشتراكك في النشرة الإخبارية',
    intro: 'طلب شخص ما، نأمل أن تكون أنت، تلقي النشرة الإخبارية للوكالة الرقمية على هذا العنوان.',
    action: 'تأكيد اشتراكي',
    expiry: `هذا الرابط صالح لمدة ${days} أيام.`,
    ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: لن يتم اشتراكك.',
    signature: 'فريق الوكالة الرقمية',
  },
};

export interface ConfirmationLinks {
  confirmUrl: string;
  unsubscribeUrl: string;
  /** The preference page (its token expires with its key). */
  manageUrl: string;
}

/** The double opt-in mail: one link to confirm, and the way out for whoever did not ask. */
export function renderNewsletterConfirmation(
  locale: Locale,
  { confirmUrl, unsubscribeUrl, manageUrl }: ConfirmationLinks,
): RenderedMail {
  const copy = COPY[locale];
  const footer = renderUnsubscribeFooter(locale, unsubscribeUrl, manageUrl);
  const text = [
    copy.intro,
    `${copy.action}: ${confirmUrl}`,
    copy.expiry,
    copy.ignore,
    copy.signature,
    footer.text,
  ].join('\n\n');
  const bodyHtml = [
    paragraph(copy.intro),
    `<p>${link(confirmUrl, copy.action)}</p>`,
    paragraph(copy.expiry),
    paragraph(copy.ignore),
    paragraph(copy.signature),
    footer.html,
  ].join('\n');
  return {
    subject: copy.subject,
    text,
    html: htmlDocument({ locale, title: copy.subject, bodyHtml }),
  };
}
