import type { Locale } from '@agency/contracts';
import { htmlDocument, paragraph, type RenderedMail } from '@agency/platform';

interface ErasureCopy {
  subject: string;
  greeting: string;
  done: string;
  kept: string;
  again: string;
  signature: string;
}

const COPY: Record<Locale, ErasureCopy> = {
  en: {
    subject: 'Your data has been erased',
    greeting: 'Hello,',
    done: 'As asked, we have erased what Digital Agency held about this address: your enquiries, your newsletter subscription, your list memberships and the record of the mails we sent you.',
    kept: 'We keep only an unreadable fingerprint of the address, so that it is never added to our lists again, and the campaign totals, which no longer name you.',
    again:
      'This is the last mail you receive from us unless you subscribe again yourself. You do not need to reply.',
    signature: 'The Digital Agency team',
  },
  fr: {
    subject: 'Vos données ont été effacées',
    greeting: 'Bonjour,',
    done: "Comme demandé, nous avons effacé ce que l'Agence Digitale détenait sur cette adresse : vos demandes, votre abonnement à la newsletter, vos inscriptions aux listes et la trace des e-mails que nous vous avons envoyés.",
    kept: "Nous ne gardons qu'une empreinte illisible de l'adresse, pour qu'elle ne soit plus jamais ajoutée à nos listes, et les totaux des campagnes, qui ne vous nomment plus.",
    again:
      "C'est le dernier e-mail que vous recevez de notre part, sauf si vous vous abonnez de nouveau vous-même. Inutile de répondre.",
    signature: "L'équipe Agence Digitale",
  },
  ar: {
    subject: 'تم محو بياناتك',
    greeting: 'مرحبًا،',
    done: 'كما طلبت، محونا ما كانت تحتفظ به الوكالة الرقمية عن هذا العنوان: طلباتك واشتراكك في النشرة الإخبارية وعضويتك في القوائم وسجل الرسائل التي أرسلناها إليك.',
    kept: 'لا نحتفظ إلا ببصمة غير مقروءة للعنوان حتى لا يُضاف إلى قوائمنا مرة أخرى، وبمجاميع الحملات التي لم تعد تذكرك.',
    again: 'هذه آخر رسالة تصلك منا ما لم تشترك من جديد بنفسك. لا حاجة إلى الرد.',
    signature: 'فريق الوكالة الرقمية',
  },
};

/** The confirmation that an erasure is done: what went, what is kept and why. */
export function renderPersonErasure(locale: Locale): RenderedMail {
  const copy = COPY[locale];
  const parts = [copy.greeting, copy.done, copy.kept, copy.again, copy.signature];
  return {
    subject: copy.subject,
    text: parts.join('\n\n'),
    html: htmlDocument({ locale, title: copy.subject, bodyHtml: parts.map(paragraph).join('\n') }),
  };
}
