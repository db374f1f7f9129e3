import { PRIVACY_LINK_TTL_HOURS, type Locale, type PrivacyLinkPurpose } from '@agency/contracts';
import { htmlDocument, link, paragraph, type RenderedMail } from '@agency/platform';

interface PurposeCopy {
  subject: string;
  intro: string;
  action: string;
}

interface PrivacyLinkCopy {
  greeting: string;
  purposes: Record<PrivacyLinkPurpose, PurposeCopy>;
  expiry: string;
  ignore: string;
  signature: string;
}

const hours = PRIVACY_LINK_TTL_HOURS;

const COPY: Record<Locale, PrivacyLinkCopy> = {
  en: {
    greeting: 'Hello,',
    purposes: {
      download: {
        subject: 'Download your data',
        intro:
          'You asked, on your subscription preferences page, for a copy of the data Digital Agency holds about this address.',
        action: 'Download my data',
      },
      erasure: {
        subject: 'Confirm the erasure of your data',
        intro:
          'You asked, on your subscription preferences page, that Digital Agency erase the data it holds about this address. The link opens a page where you confirm it.',
        action: 'Erase my data',
      },
    },
    expiry: `This link works once, for ${hours} hours.`,
    ignore: 'If you did not ask for it, ignore this e-mail: nothing changes.',
    signature: 'The Digital Agency team',
  },
  fr: {
    greeting: 'Bonjour,',
    purposes: {
      download: {
        subject: 'Téléchargez vos données',
        intro:
          "Vous avez demandé, sur la page de vos préférences d'abonnement, une copie des données que l'Agence Digitale détient sur cette adresse.",
        action: 'Télécharger mes données',
      },
      erasure: {
        subject: "Confirmez l'effacement de vos données",
        intro:
          "Vous avez demandé, sur la page de vos préférences d'abonnement, que l'Agence Digitale efface les données qu'elle détient sur cette adresse. Le lien ouvre une page où vous le confirmez.",
        action: 'Effacer mes données',
      },
    },
    expiry: `Ce lien ne sert qu'une fois, pendant ${hours} heures.`,
    ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : rien ne change.",
    signature: "L'équipe Agence Digitale",
  },
  ar: {
    greeting: 'مرحبًا،',
    purposes: {
      download: {
        subject: 'نزّل بياناتك',
        intro:
          'طلبت من صفحة تفضيلات اشتراكك نسخة من البيانات التي تحتفظ بها الوكالة الرقمية عن هذا العنوان.',
        action: 'تنزيل بياناتي',
      },
      erasure: {
        subject: 'أكّد محو بياناتك',
        intro:
          'طلبت من صفحة تفضيلات اشتراكك أن تمحو الوكالة الرقمية البيانات التي تحتفظ بها عن هذا العنوان. يفتح الرابط صفحة تؤكد فيها ذلك.',
        action: 'محو بياناتي',
      },
    },
    expiry: `يعمل هذا الرابط مرة واحدة لمدة ${hours} ساعة.`,
    ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: لن يتغير شيء.',
    signature: 'فريق الوكالة الرقمية',
  },
};

/** A person's own download or erasure link: what it does, how long it works, and what if it was not them. */
export function renderPrivacyLink(
  locale: Locale,
  { purpose, url }: { purpose: PrivacyLinkPurpose; url: string },
): RenderedMail {
  const copy = COPY[locale];
  const { subject, intro, action } = copy.purposes[purpose];
  const text = [
    copy.greeting,
    intro,
    `${action}: ${url}`,
    copy.expiry,
    copy.ignore,
    copy.signature,
  ];
  const bodyHtml = [
    paragraph(copy.greeting),
    paragraph(intro),
    `<p>${link(url, action)}</p>`,
    paragraph(copy.expiry),
    paragraph(copy.ignore),
    paragraph(copy.signature),
  ].join('\n');
  return {
    subject,
    text: text.join('\n\n'),
    html: htmlDocument({ locale, title: subject, bodyHtml }),
  };
}
