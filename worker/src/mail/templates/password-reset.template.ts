import { PASSWORD_RESET_TTL_MINUTES, type Locale } from '@agency/contracts';
import { htmlDocument, link, paragraph, type RenderedMail } from '@agency/platform';

interface ResetCopy {
  subject: string;
  greeting: (username: string) => string;
  intro: string;
  action: string;
  expiry: string;
  ignore: string;
  signature: string;
}

const minutes = PASSWORD_RESET_TTL_MINUTES;

const COPY: Record<Locale, ResetCopy> = {
  en: {
    subject: 'Reset your password',
    greeting: (username) => `Hello ${username},`,
    intro: 'Someone, hopefully you, asked to reset the password of your Digital Agency account.',
    action: 'Choose a new password',
    expiry: `This link works once, for ${minutes} minutes. Every device signed in to your account will be signed out.`,
    ignore: 'If you did not ask for it, ignore this e-mail: your password stays as it is.',
    signature: 'The Digital Agency team',
  },
  fr: {
    subject: 'Réinitialisez votre mot de passe',
    greeting: (username) => `Bonjour ${username},`,
    intro:
      "Quelqu'un, sans doute vous, a demandé à réinitialiser le mot de passe de votre compte Agence Digitale.",
    action: 'Choisir un nouveau mot de passe',
    expiry: `Ce lien ne sert qu'une fois, pendant ${minutes} minutes. Tous les appareils connectés à votre compte seront déconnectés.`,
    ignore:
      "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe ne change pas.",
    signature: "L'équipe Agence Digitale",
  },
  ar: {
    subject: 'إعادة تعيين كلمة المرور',
    greeting: (username) => `مرحبًا ${username}،`,
    intro: 'طلب شخص ما، نأمل أن تكون أنت، إعادة تعيين كلمة مرور حسابك في الوكالة الرقمية.',
    action: 'اختيار كلمة مرور جديدة',
    expiry: `يعمل هذا الرابط مرة واحدة لمدة ${minutes} دقيقة. سيتم تسجيل خروج كل الأجهزة المتصلة بحسابك.`,
    ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.',
    signature: 'فريق الوكالة الرقمية',
  },
};

/** The reset mail: one link, what it does, and what to do when it was not you. */
export function renderPasswordReset(
  locale: Locale,
  { username, resetUrl }: { username: string; resetUrl: string },
): RenderedMail {
  const copy = COPY[locale];
  const text = [
    copy.greeting(username),
    copy.intro,
    `${copy.action}: ${resetUrl}`,
    copy.expiry,
    copy.ignore,
    copy.signature,
  ].join('\n\n');
  const bodyHtml = [
    paragraph(copy.greeting(username)),
    paragraph(copy.intro),
    `<p>${link(resetUrl, copy.action)}</p>`,
    paragraph(copy.expiry),
    paragraph(copy.ignore),
    paragraph(copy.signature),
  ].join('\n');
  return {
    subject: copy.subject,
    text,
    html: htmlDocument({ locale, title: copy.subject, bodyHtml }),
  };
}
