import fc from 'fast-check';
import { DEFAULT_PLACEHOLDER_FALLBACKS, DEFAULT_TEMPLATE, type Locale } from '@agency/contracts';
import { compileCampaignMail, type CampaignMail, type Personalisation } from './campaign.template';

const UNSUBSCRIBE = 'https://agency.tn/newsletter/unsubscribe?token=t';
const MANAGE = 'https://agency.tn/newsletter/preferences?token=m';
const LINKS = { unsubscribeUrl: UNSUBSCRIBE, manageUrl: MANAGE };
const NAMELESS: Personalisation = { firstName: '', lastName: '', email: 'x@example.tn' };

function mailOf(
  subject: string,
  content: string,
  placeholderFallbacks?: CampaignMail['placeholderFallbacks'],
): CampaignMail {
  return {
    defaultLocale: 'en',
    languages: {
      en: { subject, content },
      fr: { subject, content },
      ar: { subject, content },
    },
    template: { ...DEFAULT_TEMPLATE, header: '', footer: '' },
    placeholderFallbacks,
  };
}

function render(mail: CampaignMail, values: Personalisation, locale: Locale = 'en') {
  return compileCampaignMail(mail, { senderName: 'Agency' }).render(locale, values, LINKS);
}

describe('a placeholder whose recipient has no value', () => {
  it('says its own fallback in the subject, the HTML and the text', () => {
    const mail = mailOf(
      'Quick update for {{firstName|our friend}}',
      '<p>Dear {{firstName|there}},</p>',
    );
    const rendered = render(mail, NAMELESS);
    expect(rendered.subject).toBe('Quick update for our friend');
    expect(rendered.html).toContain('Dear there,');
    expect(rendered.text).toContain('Dear there,');
  });

  it("says the recipient's own value when there is one", () => {
    const rendered = render(mailOf('For {{firstName|you}}', '<p>Dear {{firstName|there}},</p>'), {
      ...NAMELESS,
      firstName: 'Amira',
    });
    expect(rendered.subject).toBe('For Amira');
    expect(rendered.html).toContain('Dear Amira,');
    expect(rendered.html).not.toContain('there');
  });

  it("says the campaign's default fallback of the mail's language when it has none of its own", () => {
    const mail = mailOf('Hi {{firstName}}', '<p>Dear {{ firstName }},</p>', { fr: 'cher lecteur' });
    expect(render(mail, NAMELESS, 'en').html).toContain(
      `Dear ${DEFAULT_PLACEHOLDER_FALLBACKS.en},`,
    );
    expect(render(mail, NAMELESS, 'fr').subject).toBe('Hi cher lecteur');
    expect(render(mail, NAMELESS, 'ar').text).toContain(
      `Dear ${DEFAULT_PLACEHOLDER_FALLBACKS.ar},`,
    );
  });

  it('never leaves a hole, whatever fallback the campaign sets', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Locale>('en', 'fr', 'ar'),
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
          .filter((text) => text.trim() !== ''),
        (locale, fallback) => {
          const rendered = render(
            mailOf('Hi {{firstName}}', '<p>Hi {{firstName}},</p>', { [locale]: fallback }),
            NAMELESS,
            locale,
          );
          expect(rendered.subject).toBe(`Hi ${fallback.trim()}`);
          // A hole is nothing between "Hi " and the comma (a fallback may itself be ", ").
          expect(rendered.html).not.toMatch(/>Hi ,<\/p>/);
          expect(rendered.html).not.toContain('{{');
          expect(rendered.text).not.toContain('{{');
        },
      ),
    );
  });

  it('escapes a fallback in the HTML as it escapes values, and keeps entities as text', () => {
    const rendered = render(mailOf('S', '<p>Hi {{lastName|Tom &amp; "Jerry"}}</p>'), NAMELESS);
    expect(rendered.html).toContain('Hi Tom &amp; &quot;Jerry&quot;');
    expect(rendered.text).toContain('Hi Tom & "Jerry"');
  });

  it('keeps a long fallback whole in the wrapped text version', () => {
    const long = 'dear reader of our monthly news';
    const content = `<p>${'word '.repeat(14)}{{firstName|${long}}}, and more words follow here.</p>`;
    expect(render(mailOf('S', content), NAMELESS).text.replace(/\s+/g, ' ')).toContain(
      `word ${long}, and more`,
    );
  });

  it('gives a last name right after a first name no default: the pair reads as one name', () => {
    const content = '<p>Dear {{firstName}} {{lastName}},</p><p>Team {{lastName}}</p>';
    const rendered = render(mailOf('S', content), { ...NAMELESS, firstName: 'Ada' });
    expect(rendered.text).toContain('Dear Ada ,');
    expect(rendered.text).toContain('Team there');
  });
});
