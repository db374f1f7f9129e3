import fc from 'fast-check';
import {
  mimeNodeHead,
  recipientHeadWriter,
  type RecipientHeadFields,
} from './campaign-recipient-head';
import { MimeNode } from './nodemailer-internals';

/** The same headers as a node of a campaign's frame writes them: what every mail carried before. */
function nodemailers(fields: RecipientHeadFields) {
  const frame = new MimeNode('multipart/alternative', { baseBoundary: 'b' });
  return mimeNodeHead(new MimeNode(undefined, { rootNode: frame, baseBoundary: 'b' }), fields);
}

const LONG_LINK = `https://agency.tn/api/newsletter/unsubscribe/one-click?token=${'t'.repeat(160)}`;

const fieldsWith = (overrides: Partial<RecipientHeadFields>): RecipientHeadFields => ({
  to: 'amira@example.tn',
  subject: 'Spring offers for Amira',
  messageId: '<c1.r1.k1@agency.test>',
  listUnsubscribeUrl: LONG_LINK,
  date: new Date('2026-11-29T21:33:00Z'),
  ...overrides,
});

/**
 * The campaign writes each recipient's headers itself, with MimeNode's own
 * encoder, and leaves anything but a plain address to a MimeNode as before.
 * Both must give a recipient the same bytes: these tests fail when the
 * writer, or a Nodemailer upgrade, makes them differ.
 */
describe("a campaign mail's recipient headers", () => {
  const write = recipientHeadWriter();

  it.each([
    ['a short subject', {}],
    ['a French subject', { subject: 'Offre de printemps pour Élodie – « -20 % »' }],
    ['an Arabic subject', { subject: 'عروض الربيع لليلى' }],
    ['an emoji', { subject: 'Nouveautés 🎉 pour vous' }],
    ['a subject past 76 characters', { subject: `${'Our spring packs are here '.repeat(6)}!` }],
    ['a subject with a line break', { subject: 'Hello\r\nBcc: spy@evil.example' }],
    ['a subject that looks encoded', { subject: '=?UTF-8?Q?not_really?= yes' }],
    ['spaces around the subject', { subject: '  spaced  ' }],
    ['a blank subject', { subject: '   ' }],
    ['an empty subject', { subject: '' }],
    ['a plus address', { to: "o'neil+news@example.tn" }],
    ['every special a local part may hold', { to: "a!#$%&'*/=?^_`{|}~-z@mail.example.tn" }],
    ['a long address', { to: `${'x'.repeat(64)}@${'sub.'.repeat(10)}example.tn` }],
    ['a short unsubscribe link', { listUnsubscribeUrl: 'https://a.tn/u?t=1' }],
  ])('writes what MimeNode writes, with %s', (_what, overrides) => {
    const fields = fieldsWith(overrides);
    const written = write(fields);

    expect(written).toEqual(nodemailers(fields));
  });

  it.each([
    ['an upper-case domain', 'amira@EXAMPLE.tn'],
    ['an international domain', 'amira@bücher.de'],
    ['an international local part', 'élodie@example.fr'],
    ['a display name', 'Amira <amira@example.tn>'],
    ['two addresses', 'amira@example.tn, spy@evil.example'],
    ['a line break', 'amira@example.tn\r\nBcc: spy@evil.example'],
    ['a quoted local part', '"amira x"@example.tn'],
    ['a dot at the start', '.amira@example.tn'],
    ['a domain of digits', 'amira@0.0'],
    ['a domain ending in digits', 'amira@example.123'],
  ])('leaves an address with %s to MimeNode', (_what, to) => {
    expect(write(fieldsWith({ to }))).toBeUndefined();
  });

  it.each([
    ['a quote', 'Say "hello" to spring'],
    ['an encoded word that is not one', '=?x?Q?ab c?= offers'],
    ['an unfinished encoded word', 'Offers =?abc?='],
    ['a line of 76 characters with a space', `${'x'.repeat(60)} spring`],
  ])('writes what MimeNode writes for an ASCII subject with %s', (_what, subject) => {
    const fields = fieldsWith({ subject });

    expect(write(fields)).toEqual(nodemailers(fields));
  });

  it('writes what MimeNode writes for any ASCII subject', () => {
    const ascii = fc.string({
      unit: fc.oneof(
        fc.constantFrom('=', '?', '"', ' ', 'Q', 'q', 'B', '\t'),
        fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      ),
      maxLength: 120,
    });
    fc.assert(
      fc.property(ascii, (subject) => {
        const fields = fieldsWith({ subject });
        expect(write(fields)).toEqual(nodemailers(fields));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes what MimeNode writes for any Message-ID and any date, mail after mail', () => {
    const messageId = fc.oneof(
      fc.string({ maxLength: 90 }).map((id) => `<${id}>`),
      fc.string({
        unit: fc.constantFrom('a', '<', '>', ' ', '\r', '\n', '\t', '\x7f', 'é'),
        maxLength: 30,
      }),
      fc.string({ maxLength: 90 }),
    );
    // Dates a few milliseconds apart share their second, as mails of one campaign do.
    const date = fc
      .integer({ min: 0, max: 4_000_000_000_000 })
      .chain((start) =>
        fc
          .array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 4 })
          .map((steps) =>
            steps.map(
              (_, index) => new Date(start + steps.slice(0, index + 1).reduce((a, b) => a + b)),
            ),
          ),
      );
    fc.assert(
      fc.property(fc.array(messageId, { minLength: 4, maxLength: 4 }), date, (ids, dates) => {
        dates.forEach((sentAt, index) => {
          const fields = fieldsWith({ messageId: ids[index] ?? '', date: sentAt });
          expect(write(fields)).toEqual(nodemailers(fields));
        });
      }),
      { numRuns: 500 },
    );
  });

  it('writes what MimeNode writes for any subject and any address it takes', () => {
    const localPart = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_+-]{1,20}(\.[A-Za-z0-9_+-]{1,10}){0,2}$/),
      fc.stringMatching(/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,40}$/),
    );
    const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    const domain = fc
      .tuple(
        fc.array(label, { minLength: 1, maxLength: 3 }),
        // Top-level domains start with a letter; a few of digits test the parser's IPv4 reading.
        fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/) }, label),
      )
      .map(([labels, last]) => [...labels, last].join('.'));
    let compared = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          {
            weight: 3,
            arbitrary: fc.tuple(localPart, domain).map(([local, host]) => `${local}@${host}`),
          },
          fc.string({ maxLength: 60 }),
        ),
        fc.string({ unit: 'grapheme', maxLength: 120 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '=', '?', '-', '.', '_'), maxLength: 200 }),
        (to, subject, token) => {
          const fields = fieldsWith({
            to,
            subject,
            listUnsubscribeUrl: `https://agency.tn/u?t=${token}`,
          });
          const written = write(fields);
          if (!written) return;
          expect(written).toEqual(nodemailers(fields));
          compared += 1;
        },
      ),
      // HEAD_PROPERTY_RUNS=100000 for a longer search (about 10 s); 2,000 in the suite.
      { numRuns: Number(process.env.HEAD_PROPERTY_RUNS ?? 2000) },
    );
    // Most generated addresses are plain: the writer, not MimeNode, wrote them.
    expect(compared).toBeGreaterThan(800);
  });
});
