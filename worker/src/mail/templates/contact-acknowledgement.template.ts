import type { ContactDto, Locale } from '@agency/contracts';
import { htmlDocument, paragraph, type RenderedMail } from '@agency/platform';
import { SERVICE_TITLES } from './service-titles';

interface AcknowledgementCopy {
  subject: string;
  greeting: string;
  greetingByName: (firstName: string) => string;
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
    greetingByName: (firstName) => `Hello ${firstName},`,
    thanks: 'Thank you for contacting Digital Agency.',
    promise:
      'Excited to help transform your digital presence! We will send you a detailed response within 24 hours, with a customised strategy overview.',
    service: 'Service you asked about',
    signature: 'The Digital Agency team',
  },
  fr: {
    subject: 'Nous avons bien reçu votre demande',
    greeting: 'Bonjour,',
    greetingByName: (firstName) => `Bonjour ${firstName},`,
    thanks: "Merci d'avoir contacté Agence Digitale.",
    promise:
      'Ravis de vous aider à transformer votre présence digitale ! Vous recevrez une réponse détaillée sous 24 heures, avec un aperçu de stratégie personnalisée.',
    service: 'Service demandé',
    signature: "L'équipe Agence Digitale",
  },
  ar: {
    subject: 'لقد تلقينا طلبك',
    greeting: 'مرحبًا،',
    greetingByName: (firstName) => `مرحبًا ${firstName}،`,
    thanks: 'شكرًا لتواصلك مع الوكالة الرقمية.',
    promise:
      'يسعدنا أن نساعدك في تطوير حضورك الرقمي! سنرسل إليك ردًا مفصلًا خلال 24 ساعة مع لمحة عن استراتيجية مخصصة.',
    service: 'الخدمة المطلوبة',
    signature: 'فريق الوكالة الرقمية',
  },
};

/**
 * A first name as people write theirs, in any script: letters and the marks
 * of their accents, at most four parts joined by spaces, hyphens or
 * apostrophes, and short. Anything else (digits, dots of a link, sentences)
 * is not greeted.
 */
const NAME_LIKE = /^\p{L}[\p{L}\p{M}]*(?:[ '’-]\p{L}[\p{L}\p{M}]*){0,3}$/u;
const NAME_MAX = 30;

/** The first name to greet the visitor by, or null when it does not read as one. */
export function greetableFirstName(firstName: string): string | null {
  const name = firstName.trim().normalize('NFC');
  return name.length <= NAME_MAX && NAME_LIKE.test(name) ? name : null;
}

/**
 * The acknowledgement a visitor receives after an enquiry, in their language.
 * It greets the visitor by first name and echoes nothing else they typed:
 * the form takes any address, so free text echoed back would let anyone send
 * their words to a stranger through us. A first name is greeted only when it
 * reads as a name (greetableFirstName), which leaves no room for a message.
 */
export function renderContactAcknowledgement(contact: ContactDto): RenderedMail {
  const copy = COPY[contact.locale];
  const firstName = greetableFirstName(contact.firstName);
  const greeting = firstName ? copy.greetingByName(firstName) : copy.greeting;
  const serviceLine = `${copy.service}: ${SERVICE_TITLES[contact.locale][contact.service]}`;
  const lines = [greeting, copy.thanks, copy.promise, serviceLine, copy.signature];
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
