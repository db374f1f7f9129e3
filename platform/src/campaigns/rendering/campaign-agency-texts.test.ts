import { DEFAULT_TEMPLATE } from '@agency/contracts';
import { firstRunAgencySettings } from '../../settings/agency-settings.service';
import { compileCampaignMail, type AgencyMailTexts, type CampaignMail } from './campaign.template';

const AGENCY: AgencyMailTexts = {
  languages: {
    en: { agencyName: 'Atlas', header: 'News from Atlas', footer: 'You asked for our news.' },
    fr: { agencyName: 'Atlas France', header: '', footer: 'Vous avez demandé nos nouvelles.' },
    ar: { agencyName: 'وكالة أطلس', header: '', footer: 'لقد طلبت أخبارنا.' },
  },
  postalAddress: '12 Rue de Marseille, 1000 Tunis',
};

function mail(agency?: AgencyMailTexts): CampaignMail {
  return {
    defaultLocale: 'en',
    languages: {
      en: { subject: 'Hello from {{senderName}}', content: '<p>Dear {{firstName}}</p>' },
      ar: { subject: 'مرحبا', content: '<p>عزيزي {{firstName}}</p>' },
    },
    template: DEFAULT_TEMPLATE,
    ...(agency ? { agency } : {}),
  };
}

const ANNA = { firstName: 'Anna', lastName: '', email: 'anna@example.com' };
const render = (agency: AgencyMailTexts | undefined, locale: 'en' | 'ar') =>
  compileCampaignMail(mail(agency), { senderName: 'Fallback' }).render(locale, ANNA, {
    unsubscribeUrl: 'https://site.test/unsubscribe',
    manageUrl: 'https://site.test/manage',
  });

describe("the agency's texts in campaign mail", () => {
  it("names the agency, and writes its footer, in the recipient's language, with the postal address", () => {
    const english = render(AGENCY, 'en');
    expect(english.subject).toBe('Hello from Atlas');
    expect(english.html).toMatch(/<h1[^>]*>Atlas<\/h1>/);
    expect(english.html).toContain('News from Atlas');
    expect(english.html).toContain('You asked for our news.');
    expect(english.html).toContain('12 Rue de Marseille, 1000 Tunis');
    expect(english.text).toContain('You asked for our news.');
    expect(english.text).toContain('12 Rue de Marseille, 1000 Tunis');

    const arabic = render(AGENCY, 'ar');
    expect(arabic.html).toMatch(/<h1[^>]*>وكالة أطلس<\/h1>/);
    expect(arabic.html).toContain('لقد طلبت أخبارنا.');
    expect(arabic.html).not.toContain('You asked for our news.');
    expect(arabic.html).not.toContain('News from Atlas');
    expect(arabic.html).toContain('12 Rue de Marseille, 1000 Tunis');
    // The footer's texts come before the unsubscribe line, which closes the mail.
    expect(arabic.html.indexOf('12 Rue de Marseille')).toBeLessThan(
      arabic.html.indexOf('إلغاء الاشتراك'),
    );
  });

  it('keeps the texts as text: markup an admin types is shown, never run', () => {
    const html = render(
      {
        ...AGENCY,
        languages: {
          ...AGENCY.languages,
          en: {
            agencyName: 'A&B <i>',
            header: '<img src=x onerror=alert(1)>',
            footer: '<script>x</script>',
          },
        },
        postalAddress: '<a href="javascript:alert(1)">Tunis</a>',
      },
      'en',
    ).html;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<a href="javascript:');
    expect(html).toContain('&lt;a href=');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).toContain('A&amp;B &lt;i&gt;');
  });

  it('has the first-run footer in each language and no postal address', () => {
    const first = firstRunAgencySettings({
      mailFrom: 'Old Agency <no-reply@old.test>',
      timeZone: 'Africa/Tunis',
    });
    const english = render(first, 'en');
    expect(english.html).toMatch(/<h1[^>]*>Old Agency<\/h1>/);
    expect(english.html).toContain('You receive this mail because you contacted us');
    expect(render(first, 'ar').html).toContain('تصلك هذه الرسالة');
  });
});
