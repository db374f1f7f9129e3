import type { ContactDto, Locale } from '@agency/contracts';
import { renderContactAcknowledgement } from './templates/contact-acknowledgement.template';
import { renderContactNotification } from './templates/contact-notification.template';
import { renderNewsletterConfirmation } from './templates/newsletter-confirmation.template';
import { renderPrivacyLink } from './templates/privacy-link.template';
import {
  confirmationPageUrl,
  listUnsubscribeHeaders,
  unsubscribePageUrl,
} from './newsletter-links';
import { isPermanentSmtpFailure, smtpFailureReason } from './smtp-failure';

const contact: ContactDto = {
  id: '64b7f0000000000000000001',
  firstName: 'Ali <script>',
  lastName: 'Ben "Ali"',
  email: 'ali@example.tn',
  service: 'web-design',
  message: 'Visit https://spam.example for <b>cheap</b> deals',
  locale: 'en',
  status: 'new',
  mailState: 'pending',
  acknowledgementState: 'pending',
  createdAt: '2024-05-01T10:00:00.000Z',
};

describe('the acknowledgement mailed to the visitor', () => {
  it.each([
    [
      'en',
      'We received your enquiry',
      'Excited to help transform your digital presence! We will send you a detailed response within 24 hours, with a customised strategy overview.',
      'Web Design & Development',
      'ltr',
    ],
    [
      'fr',
      'Nous avons bien reçu votre demande',
      'Ravis de vous aider à transformer votre présence digitale ! Vous recevrez une réponse détaillée sous 24 heures, avec un aperçu de stratégie personnalisée.',
      'Conception et développement web',
      'ltr',
    ],
    [
      'ar',
      'لقد تلقينا طلبك',
      'يسعدنا أن نساعدك في تطوير حضورك الرقمي! سنرسل إليك ردًا مفصلًا خلال 24 ساعة مع لمحة عن استراتيجية مخصصة.',
      'تصميم وتطوير المواقع',
      'rtl',
    ],
  ] as const)(
    'speaks %s with the thank-you page wording',
    (locale, subject, promise, service, dir) => {
      const mail = renderContactAcknowledgement({ ...contact, locale });

      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(promise);
      expect(mail.text).toContain(service);
      expect(mail.html).toContain(`<html lang="${locale}" dir="${dir}">`);
      expect(mail.html).toContain(promise.slice(0, 20));
    },
  );

  it.each([
    ['en', 'Amira', 'Hello Amira,'],
    ['fr', 'Jean-Luc', 'Bonjour Jean-Luc,'],
    ['ar', 'أميرة', 'مرحبًا أميرة،'],
    ['en', "  D'Arcy O’Neil ", "Hello D'Arcy O’Neil,"],
    ['fr', 'Zoé', 'Bonjour Zoé,'],
  ] as const)('in %s, greets %p by first name', (locale, firstName, greeting) => {
    const mail = renderContactAcknowledgement({ ...contact, locale, firstName });

    expect(mail.text.split('\n\n')[0]).toBe(greeting);
    expect(mail.html).toContain(`<p>${greeting.replace("'", '&#39;')}</p>`);
  });

  it.each([
    'Ali <script>',
    'Visit spam.example',
    'Win 1000 dollars',
    'Call now for a free offer today',
    'https://spam.example',
    'A'.repeat(31),
    '-',
  ])('greets %p without a name: it does not read as one', (firstName) => {
    const mail = renderContactAcknowledgement({ ...contact, firstName });

    expect(mail.text.split('\n\n')[0]).toBe('Hello,');
  });

  it('echoes nothing else the visitor typed', () => {
    const mail = renderContactAcknowledgement(contact);

    for (const typed of ['Ali', 'spam.example', 'cheap', contact.email]) {
      expect(mail.text).not.toContain(typed);
      expect(mail.html).not.toContain(typed);
    }
  });
});

describe('the notification mailed to the agency', () => {
  it('escapes every typed value in the HTML part and keeps the text part verbatim', () => {
    const mail = renderContactNotification(contact, 'Africa/Tunis');

    expect(mail.html).toContain('Ali &lt;script&gt;');
    expect(mail.html).toContain('Ben &quot;Ali&quot;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('First name: Ali <script>');
    expect(mail.text).toContain('Phone: -');
  });
});

describe('the newsletter confirmation', () => {
  const links = {
    confirmUrl: 'https://agency.tn/newsletter/confirm?token=abc&lang=fr',
    unsubscribeUrl: 'https://agency.tn/newsletter/unsubscribe?token=xyz&lang=fr',
    manageUrl: 'https://agency.tn/newsletter/preferences?token=mng&lang=fr',
  };

  it.each([
    [
      'en',
      'Confirm your newsletter subscription',
      'This link works for 7 days.',
      'Unsubscribe',
      'Manage your subscription',
    ],
    [
      'fr',
      'Confirmez votre inscription à la newsletter',
      'Ce lien est valable 7 jours.',
      'Se désabonner',
      'Gérer votre abonnement',
    ],
    [
      'ar',
      'أكّد اشتراكك في النشرة الإخبارية',
      'هذا الرابط صالح لمدة 7 أيام.',
      'إلغاء الاشتراك',
      'إدارة اشتراكك',
    ],
  ] as const)(
    'in %s, links to the confirmation, the way out and the preference page',
    (locale, subject, expiry, leave, manage) => {
      const mail = renderNewsletterConfirmation(locale, links);

      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(expiry);
      expect(mail.text).toContain(links.confirmUrl);
      expect(mail.text).toContain(`${leave}: ${links.unsubscribeUrl}`);
      expect(mail.html).toContain(`href="${links.confirmUrl.replace('&', '&amp;')}"`);
      expect(mail.html).toContain(`>${leave}</a>`);
      expect(mail.text).toContain(`${manage}: ${links.manageUrl}`);
      expect(mail.html).toContain(`href="${links.manageUrl.replace('&', '&amp;')}">${manage}</a>`);
    },
  );
});

describe("a person's own download and erasure links", () => {
  const url = 'https://agency.tn/newsletter/privacy/erase?token=t.o.k&lang=ar';

  it.each([
    ['en', 'download', 'Download your data', 'Download my data', 'for 24 hours'],
    ['en', 'erasure', 'Confirm the erasure of your data', 'Erase my data', 'for 24 hours'],
    ['fr', 'download', 'Téléchargez vos données', 'Télécharger mes données', '24 heures'],
    ['fr', 'erasure', "Confirmez l'effacement de vos données", 'Effacer mes données', '24 heures'],
    ['ar', 'download', 'نزّل بياناتك', 'تنزيل بياناتي', '24 ساعة'],
    ['ar', 'erasure', 'أكّد محو بياناتك', 'محو بياناتي', '24 ساعة'],
  ] as const)(
    'in %s, the %s link, what it does and how long it works',
    (locale, purpose, subject, action, expiry) => {
      const mail = renderPrivacyLink(locale, { purpose, url });

      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(`${action}: ${url}`);
      expect(mail.text).toContain(expiry);
      expect(mail.html).toContain(`href="${url.replace('&', '&amp;')}">${action}</a>`);
      expect(mail.html).toContain(locale === 'ar' ? 'dir="rtl"' : 'dir="ltr"');
    },
  );
});

describe('newsletter links', () => {
  const site = 'https://www.agency.tn';

  it.each(['en', 'fr', 'ar'] as Locale[])(
    'open the site pages in the visitor language (%s)',
    (locale) => {
      const confirm = new URL(confirmationPageUrl(site, 'to/ken+=', locale));
      const leave = new URL(unsubscribePageUrl(site, 'to/ken+=', locale));

      expect(`${confirm.origin}${confirm.pathname}`).toBe(`${site}/newsletter/confirm`);
      expect(`${leave.origin}${leave.pathname}`).toBe(`${site}/newsletter/unsubscribe`);
      for (const url of [confirm, leave]) {
        expect(url.searchParams.get('token')).toBe('to/ken+=');
        expect(url.searchParams.get('lang')).toBe(locale);
      }
    },
  );

  it('give mailbox providers the one-click address of RFC 8058', () => {
    const { list, headers } = listUnsubscribeHeaders(site, 'abc');

    expect(list).toEqual({ unsubscribe: `${site}/api/newsletter/unsubscribe?token=abc` });
    expect(headers).toEqual({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});

describe('SMTP failures', () => {
  const smtpError = (fields: Record<string, unknown>) =>
    Object.assign(new Error('Message failed'), fields);

  it.each([
    ['a 550 refusal', smtpError({ responseCode: 550, code: 'EENVELOPE' }), true],
    ['a 554 refusal of the content', smtpError({ responseCode: 554, code: 'EMESSAGE' }), true],
    ['a 451 try-again', smtpError({ responseCode: 451, code: 'EENVELOPE' }), false],
    ['a 421 shutdown', smtpError({ responseCode: 421 }), false],
    ['a refused login (535)', smtpError({ responseCode: 535, code: 'EAUTH' }), false],
    ['no connection', smtpError({ code: 'ECONNECTION' }), false],
    ['a reply out of range', smtpError({ responseCode: 600 }), false],
    ['something that is not an error', 'boom', false],
  ])('%s is permanent: %s', (_label, error, permanent) => {
    expect(isPermanentSmtpFailure(error)).toBe(permanent);
  });

  it("keeps the server's own reply, else the error's message", () => {
    expect(smtpFailureReason(smtpError({ response: '550 5.1.1 No such user' }))).toBe(
      '550 5.1.1 No such user',
    );
    expect(smtpFailureReason(new Error('connect ECONNREFUSED'))).toBe('connect ECONNREFUSED');
    expect(smtpFailureReason('boom')).toBe('boom');
  });
});
