import { simpleParser } from 'mailparser';
import { DEFAULT_TEMPLATE, type Locale } from '@agency/contracts';
import { compileCampaignMail, type CampaignMail, type Personalisation } from '@agency/platform';
import { MessageRoom, compileCampaignMime, type RawCampaignMessage } from './campaign-mime';

/** The message's text as it goes on the wire. */
const rawOf = (message: RawCampaignMessage) => new MessageRoom().layOut(message.pieces).toString();

const FROM = 'Agency <no-reply@agency.test>';
const LONG_LINE = `<p>${'Ten visuals, two videos and two Meta Ads campaigns a month. '.repeat(6)}</p>`;

/** A newsletter with placeholders at its edges, side by side, in long lines and in Arabic. */
const campaign = {
  subject: 'Hello {{firstName}} – "spring" <offers>',
  content:
    '{{firstName}}<h1>Our spring packages</h1>\n' +
    `<p>Dear {{ firstName }}, we write to {{email}}{{firstName}} today.</p>\n${LONG_LINE}\n` +
    '<p>عروض الربيع لـ {{firstName}}: عشرة تصاميم وفيديوهان كل شهر.</p>\n' +
    '.<p>A line that starts with a dot, and ends with spaces   </p>\n' +
    '<p><a href="https://agency.tn/packs?a=1&b=2">See the packs</a></p>{{email}}' +
    '<p><a href="{{firstName}}">Your page</a></p>',
};

/** The campaign written alike in the three languages: each has its own frame. */
const written: CampaignMail = {
  defaultLocale: 'en',
  languages: { en: campaign, fr: campaign, ar: campaign },
  template: DEFAULT_TEMPLATE,
};

const recipients: (Omit<Personalisation, 'lastName'> & { locale: Locale })[] = [
  { firstName: 'Amira', email: 'amira@example.tn', locale: 'fr' },
  { firstName: '<b>"Sami" & co\'s</b>', email: 'sami@example.tn', locale: 'en' },
  { firstName: 'ليلى ', email: 'layla@example.tn', locale: 'ar' },
  { firstName: 'Jean-Baptiste '.repeat(12), email: 'jb@example.fr', locale: 'fr' },
  { firstName: '', email: 'nobody@example.tn', locale: 'en' },
  { firstName: 'javascript:alert(document.domain)', email: 'mallory@example.tn', locale: 'en' },
  { firstName: 'https://amira.example/shop', email: 'shop@example.tn', locale: 'fr' },
];

const unsubscribeUrl = (email: string) =>
  `https://agency.tn/newsletter/unsubscribe?token=${'t'.repeat(90)}&for=${encodeURIComponent(email)}`;
const manageUrl = (email: string) =>
  `https://agency.tn/fr/newsletter/preferences?token=${'m'.repeat(120)}&for=${encodeURIComponent(email)}`;

/** CRLF as sent, LF as rendered. */
const lf = (value: string) => value.replace(/\r\n/g, '\n');

describe('a campaign mail built into its frame', () => {
  // Compiled inside each test, so each test is the one that covers the frame's code.
  const compiled = () => {
    const mail = compileCampaignMail(written, { senderName: 'Agency' });
    return { mail, frameOf: (locale: Locale) => compileCampaignMime(mail, locale, FROM) };
  };

  it.each(recipients)(
    'decodes to exactly the rendered mail of its recipient ($email, $locale)',
    async ({ locale, ...given }) => {
      const values = { ...given, lastName: 'Ben Ali' };
      const { mail, frameOf } = compiled();
      const built = frameOf(locale).build({
        to: values.email,
        values,
        unsubscribePageUrl: unsubscribeUrl(values.email),
        managePageUrl: manageUrl(values.email),
        listUnsubscribeUrl: 'https://agency.tn/api/newsletter/unsubscribe?token=t',
        messageId: '<m1@agency.test>',
      });
      const message = { envelope: built.envelope, raw: rawOf(built) };
      const parsed = await simpleParser(message.raw);
      const rendered = mail.render(locale, values, {
        unsubscribeUrl: unsubscribeUrl(values.email),
        manageUrl: manageUrl(values.email),
      });

      expect(parsed.subject).toBe(rendered.subject);
      expect(lf(String(parsed.html))).toBe(rendered.html);
      // A name that would make the link run script leaves it pointing nowhere.
      expect(String(parsed.html)).not.toMatch(/href="\s*javascript:/i);
      expect(lf(parsed.text ?? '').trimEnd()).toBe(rendered.text.trimEnd());
      expect(message.envelope).toEqual({ from: 'no-reply@agency.test', to: [values.email] });
      expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
      for (const type of ['text/plain', 'text/html']) {
        expect(message.raw).toContain(
          `\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n`,
        );
      }
      expect(message.raw).toMatch(/\r\n----_campaign-[0-9a-f]{24}--\r\n$/);
      // SMTP wants CRLF line ends: no bare LF, in the headers or in the bodies.
      expect(message.raw).not.toMatch(/(^|[^\r])\n/);
      // Quoted-printable keeps every line within 76 characters (RFC 2045), soft breaks included.
      const [, ...bodyLines] = message.raw.split('\r\n\r\n');
      for (const line of bodyLines.join('\r\n\r\n').split('\r\n')) {
        expect(line.length).toBeLessThanOrEqual(76);
      }
    },
  );

  it('encodes the literal parts once: two recipients share them, only their own values differ', () => {
    const frame = compiled().frameOf('en');
    const build = (firstName: string) =>
      frame.build({
        to: 'same@example.tn',
        values: { firstName, lastName: '', email: 'same@example.tn' },
        unsubscribePageUrl: unsubscribeUrl('same@example.tn'),
        managePageUrl: manageUrl('same@example.tn'),
        listUnsubscribeUrl: 'https://agency.tn/api/newsletter/unsubscribe?token=t',
        messageId: '<m2@agency.test>',
      });
    const bodyOf = (raw: string) => raw.slice(raw.indexOf('\r\n\r\n'));
    const amira = bodyOf(rawOf(build('Amira')));
    const sami = bodyOf(rawOf(build('Sami')));

    expect(amira.replaceAll('Amira', 'Sami')).toBe(sami);
  });

  it('puts each header on a line of its own, and breaks a body only where a value goes in', () => {
    const mail = compileCampaignMail(
      {
        defaultLocale: 'en',
        languages: { en: { subject: 'Hi', content: '<p>Hello {{firstName}}, welcome</p>' } },
        template: DEFAULT_TEMPLATE,
      },
      { senderName: 'Agency' },
    );
    const raw = rawOf(
      compileCampaignMime(mail, 'en', FROM).build({
        to: 'amira@example.tn',
        values: { firstName: 'Amira', lastName: '', email: 'amira@example.tn' },
        unsubscribePageUrl: unsubscribeUrl('amira@example.tn'),
        managePageUrl: manageUrl('amira@example.tn'),
        listUnsubscribeUrl: 'https://agency.tn/api/newsletter/unsubscribe?token=t',
        messageId: '<m3@agency.test>',
      }),
    );
    // The mail's own headers, then those every mail shares, each on a line of its own.
    expect(raw).toMatch(
      /\r\nDate: \w{3}, \d{1,2} \w{3} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}\r\nFrom: Agency <no-reply@agency\.test>\r\n/,
    );
    // Each alternative's body: after its headers' blank line, up to the next boundary.
    const bodies = raw
      .split(/\r\n--[^\r\n]+\r\n/)
      .slice(1, -1)
      .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4));
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body).toContain('Hello=20=\r\nAmira=\r\n, welcome');
      expect(body.startsWith('=\r\n')).toBe(false);
      // No soft break on a line of its own, after the unsubscribe address that ends the text included.
      expect(body.split('\r\n')).not.toContain('=');
    }
  });

  it('refuses a sender without an address before anything is sent', () => {
    const frame = compileCampaignMime(
      compileCampaignMail(written, { senderName: 'Agency' }),
      'en',
      'Agency',
    );
    expect(() =>
      frame.build({
        to: 'amira@example.tn',
        values: { firstName: 'Amira', lastName: '', email: 'amira@example.tn' },
        unsubscribePageUrl: unsubscribeUrl('amira@example.tn'),
        managePageUrl: manageUrl('amira@example.tn'),
        listUnsubscribeUrl: 'https://agency.tn/api/newsletter/unsubscribe?token=t',
        messageId: '<m3@agency.test>',
      }),
    ).toThrow('MAIL_FROM has no address: Agency');
  });
});

describe('the room a connection lays its messages out in', () => {
  it('lays out shared Buffers and multi-byte strings byte for byte', () => {
    const shared = Buffer.from('=\r\nliteral part=\r\n');
    const bytes = new MessageRoom().layOut(['Subject: ليلى\r\n', shared, 'é', shared]);
    expect(bytes.toString()).toBe(`Subject: ليلى\r\n${shared}é${shared}`);
    expect(bytes.length).toBe(Buffer.byteLength(bytes.toString()));
  });

  it('reuses its bytes for the next, shorter message, with nothing of the longer one left', () => {
    const room = new MessageRoom();
    const long = room.layOut(['a'.repeat(1000), Buffer.from('-end')]);
    const short = room.layOut(['b'.repeat(10)]);
    expect(short.toString()).toBe('b'.repeat(10));
    expect(short.buffer).toBe(long.buffer);
  });

  it('grows for a longer message, then keeps the larger room', () => {
    const room = new MessageRoom();
    const small = room.layOut(['x'.repeat(100)]);
    const large = room.layOut(['y'.repeat(5000)]);
    expect(large.toString()).toBe('y'.repeat(5000));
    expect(large.buffer).not.toBe(small.buffer);
    // A few bytes longer still fits the room it grew to.
    expect(room.layOut(['z'.repeat(5010)]).buffer).toBe(large.buffer);
  });

  it('lets its bytes go once cleared: a refused message may still sit in a queue', () => {
    const room = new MessageRoom();
    const refused = room.layOut(['refused message']);
    room.clear();
    const next = room.layOut(['next message']);
    expect(next.buffer).not.toBe(refused.buffer);
    expect(refused.toString()).toBe('refused message');
  });
});
