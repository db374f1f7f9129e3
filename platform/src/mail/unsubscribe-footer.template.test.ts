import type { Locale } from '@agency/contracts';
import { renderUnsubscribeFooter } from './unsubscribe-footer.template';

const UNSUBSCRIBE = 'https://agency.tn/newsletter/unsubscribe?token=u&lang=x';
const MANAGE = 'https://agency.tn/fr/newsletter/preferences?token=m&lang=x';

describe('the unsubscribe footer', () => {
  it.each<[Locale, string, string]>([
    ['en', 'Unsubscribe', 'Manage your subscription'],
    ['fr', 'Se désabonner', 'Gérer votre abonnement'],
    ['ar', 'إلغاء الاشتراك', 'إدارة اشتراكك'],
  ])(
    'in %s, puts the manage link beside the unsubscribe link, in its own words',
    (locale, leave, manage) => {
      const footer = renderUnsubscribeFooter(locale, UNSUBSCRIBE, MANAGE);
      const escaped = (url: string) => url.replace(/&/g, '&amp;');

      expect(footer.html).toContain(
        `<a href="${escaped(UNSUBSCRIBE)}">${leave}</a> · <a href="${escaped(MANAGE)}">${manage}</a>`,
      );
      expect(footer.text).toContain(`${leave}: ${UNSUBSCRIBE}\n${manage}: ${MANAGE}`);
    },
  );

  it('has no manage link when it is given none', () => {
    const footer = renderUnsubscribeFooter('fr', UNSUBSCRIBE);
    expect(footer.html).not.toContain('Gérer');
    expect(footer.text).not.toContain('Gérer');
    expect(footer.text).toContain(`Se désabonner: ${UNSUBSCRIBE}`);
  });
});
