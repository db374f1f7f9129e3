import type { ContactDto, Locale } from '@agency/contracts';
import { htmlDocument, paragraph, type RenderedMail } from '@agency/platform';
import { SERVICE_TITLES } from './service-titles';

interface AcknowledgementCopy {
  subject: string;
  greeting: string;
  thanks: string;
  /** The thank-you page's promise, word for word, so the mail keeps what the page said. */
  promise: string;
  service: string;
  signature: string;
}

const COPY: Record<Locale, AcknowledgementCopy> = {
  en: {
    subject: 'We received your enquiry',
    greeting: 'Hello,',
    thanks: 'Thank you for contacting Digital Agency.',
    promise:
      'Excited to help transform your digital presence! We will send you a detailed response within 24 hours, with a customised strategy overview.',
    service: 'Service you asked about',
    signature: 'The Digital Agency team',
  },
  fr: {
    subject: 'Nous avons bien reçu votre demande',
    greeting: 'Bonjour,',
    thanks: "Merci d'avoir contacté Agence Digitale.",
    promise:
      'Ravis de vous aider à transformer votre présence digitale ! Vous recevrez une réponse détaillée sous 24 heures, avec un aperçu de stratégie personnalisée.',
    service: 'Service demandé',
    signature: "L'équipe Agence Digitale",
  },
  ar: {
    subject: 'لقد تلقينا طلبك',
    greeting: 'مرحبًا،',
    thanks: 'شكرًا لتواصلك مع الوكالة الرقمية.',
    promise:
      'يسعدنا أن نساعدك في تطوير حضورك الرقمي! سنرسل إليك ردًا مفصلًا خلال 24 ساعة مع لمحة عن استراتيجية مخصصة.',
    service: 'الخدمة المطلوبة',
    signature: 'فريق الوكالة الرقمية',
  },
};

/**
 * The acknowledgement a visitor receives after an enquiry, in their language.
 * It carries nothing the visitor typed: the form takes any address, so free
 * text echoed back would let anyone send their words to a stranger through us.
 */
export function renderContactAcknowledgement(contact: ContactDto): RenderedMail {
  const copy = COPY[contact.locale];
  const serviceLine = `${copy.service}: ${SERVICE_TITLES[contact.locale][contact.service]}`;
  const lines = [copy.greeting, copy.thanks, copy.promise, serviceLine, copy.signature];
  return {
    subject: copy.subject,
    text: lines.join('\n\n'),
    html: htmlDocument({
      locale: contact.locale,
      title: copy.subject,
      bodyHtml: lines.map(paragraph).join('\n'),
    }),
  };
}
