import MailComposer from 'nodemailer/lib/mail-composer';
import { simpleParser } from 'mailparser';
import { startSmtpSink } from '../testing/smtp-sink';
import { InvalidRecipientError, MessageRoom, compileCampaignMime } from './campaign-mime';
import { SMTPConnection, parseConnectionUrl, takeOverConnection } from './nodemailer-internals';
import { DEFAULT_TEMPLATE } from '@agency/contracts';
import { compileCampaignMail as compileWith } from '@agency/platform';

/** A campaign written in French, in the built-in template. */
const compileCampaignMail = (campaign: { subject: string; content: string }) =>
  compileWith(
    { defaultLocale: 'fr', languages: { fr: campaign }, template: DEFAULT_TEMPLATE },
    { senderName: 'Agency' },
  );

const FROM = 'Agency <no-reply@agency.test>';
const LIST_UNSUBSCRIBE = 'https://agency.tn/api/newsletter/unsubscribe?token=t';
const UNSUBSCRIBE_PAGE = 'https://agency.tn/newsletter/unsubscribe?token=t';
const MANAGE_PAGE = 'https://agency.tn/fr/newsletter/preferences?token=m&lang=fr';

/** The campaign's own message, built into its frame as a send builds it. */
function ours(campaign: { subject: string; content: string }, firstName: string, to: string) {
  const mail = compileCampaignMail(campaign);
  const { envelope, pieces } = compileCampaignMime(mail, 'fr', FROM).build({
    to,
    values: { firstName, lastName: '', email: to },
    unsubscribePageUrl: UNSUBSCRIBE_PAGE,
    managePageUrl: MANAGE_PAGE,
    listUnsubscribeUrl: LIST_UNSUBSCRIBE,
    messageId: '<m1@agency.test>',
  });
  return { envelope, raw: new MessageRoom().layOut(pieces).toString() };
}

/** The same mail as Nodemailer's own composer builds it through `sendMail`'s options. */
function nodemailers(
  campaign: { subject: string; content: string },
  firstName: string,
  to: string,
): Promise<string> {
  const rendered = compileCampaignMail(campaign).render(
    'fr',
    { firstName, lastName: '', email: to },
    { unsubscribeUrl: UNSUBSCRIBE_PAGE, manageUrl: MANAGE_PAGE },
  );
  return new Promise((resolve, reject) =>
    new MailComposer({
      from: FROM,
      to,
      subject: rendered.subject,
      messageId: '<m1@agency.test>',
      headers: {
        'List-Unsubscribe': `<${LIST_UNSUBSCRIBE}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      text: rendered.text,
      html: rendered.html,
      textEncoding: 'quoted-printable',
    })
      .compile()
      .build((error, message) => (error ? reject(error) : resolve(message.toString()))),
  );
}

/** A header block's fields, unfolded, sorted, without Date and with the boundary named alike. */
function headerFields(block: string): string[] {
  return block
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')
    .filter((line) => line !== '' && !line.startsWith('Date:'))
    .map((line) => line.replace(/boundary="[^"]+"/, 'boundary="B"'))
    .sort();
}

/** The top-level header block, then each part's header block, in order. */
function headerBlocks(raw: string): string[][] {
  const [top = '', ...rest] = raw.split(/\r\n--[^\r\n]+\r\n/);
  return [
    headerFields(top.split('\r\n\r\n')[0] ?? ''),
    ...rest.map((part) => headerFields(part.split('\r\n\r\n')[0] ?? '')),
  ];
}

const campaign = {
  subject: 'Offre de printemps pour {{firstName}} – « -20 % »',
  content:
    '<h1>Nos packs</h1><p>Bonjour {{firstName}}, voici nos offres pour {{email}}.</p>' +
    `<p>${'Dix visuels et deux vidéos par mois, deux campagnes Meta Ads. '.repeat(4)}</p>`,
};

/**
 * The campaign's MIME and SMTP path reaches into Nodemailer below its
 * documented API (`nodemailer-internals.ts`). These tests hold what it relies
 * on against Nodemailer's own composer: an upgrade that changes how headers
 * are encoded, how parts are framed or how quoted-printable is written fails
 * here before it reaches a recipient.
 */
describe("the campaign's message against Nodemailer's own composer", () => {
  it.each([
    ['Amira', 'amira@example.tn'],
    ['Jean-Baptiste Élodie ', 'jb@example.fr'],
    ['ليلى', 'layla@example.tn'],
    ['', 'nobody@example.tn'],
  ])('has the same headers and parts, and decodes to the same mail (%j)', async (firstName, to) => {
    const raw = ours(campaign, firstName, to).raw;
    const reference = await nodemailers(campaign, firstName, to);

    expect(headerBlocks(raw)).toEqual(headerBlocks(reference));
    const [mine, theirs] = await Promise.all([simpleParser(raw), simpleParser(reference)]);
    for (const field of ['subject', 'messageId', 'text', 'html'] as const) {
      expect({ field, value: mine[field] }).toEqual({ field, value: theirs[field] });
    }
    expect(mine.from?.text).toBe(theirs.from?.text);
    expect(JSON.stringify(mine.to)).toBe(JSON.stringify(theirs.to));
    // Both keep every line within 76 characters, as quoted-printable requires.
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);
    for (const line of raw.split('\r\n\r\n').slice(1).join('\r\n').split('\r\n')) {
      expect(line.length).toBeLessThanOrEqual(76);
    }
  });

  it.each([
    ['a name', 'Amira\r\nBcc: spy@evil.example'],
    ['a name with a bare LF', 'Amira\nX-Injected: 1'],
  ])('never lets CR or LF in %s reach a header of its own', async (_what, firstName) => {
    const { raw, envelope } = ours(
      { subject: 'Hello {{firstName}}', content: '<p>Hi {{firstName}}</p>' },
      firstName,
      'amira@example.tn',
    );
    const head = raw.split('\r\n\r\n')[0] ?? '';
    const names = head
      .split('\r\n')
      .filter((line) => !/^[ \t]/.test(line))
      .map((line) => line.slice(0, line.indexOf(':')));
    expect(names.sort()).toEqual(
      [
        'Content-Type',
        'Date',
        'From',
        'List-Unsubscribe',
        'List-Unsubscribe-Post',
        'MIME-Version',
        'Message-ID',
        'Subject',
        'To',
      ].sort(),
    );
    expect(head).not.toMatch(/\r\n(Bcc|X-Injected):/i);
    expect(envelope.to).toEqual(['amira@example.tn']);
  });

  it.each([
    'amira@example.tn\r\nBcc: spy@evil.example',
    'amira@example.tn\nspy@evil.example',
    'amira@example.tn, spy@evil.example',
  ])('refuses to build a mail for an address that is not one mailbox (%j)', (to) => {
    expect(() => ours({ subject: 'Hello', content: '<p>Hi</p>' }, 'Amira', to)).toThrow(
      InvalidRecipientError,
    );
  });
});

describe("the SMTP connection Nodemailer sets up, handed to the campaign's session", () => {
  it("gives its socket and the server's extensions, and stops reading the replies", async () => {
    const smtp = await startSmtpSink();
    const connection = new SMTPConnection(parseConnectionUrl(smtp.url) as SMTPConnection.Options);
    try {
      await new Promise<void>((resolve, reject) =>
        connection.connect((error) => (error ? reject(error) : resolve())),
      );

      const { socket, extensions } = takeOverConnection(connection);
      const reply = new Promise<string>((resolve) =>
        socket.once('data', (chunk: Buffer) => resolve(chunk.toString())),
      );
      // Nodemailer, still reading, would take this reply as unexpected and close.
      socket.write('NOOP\r\n');

      expect(extensions).toEqual(expect.arrayContaining(['PIPELINING', 'SMTPUTF8']));
      expect(await reply).toMatch(/^250/);
      expect(socket.destroyed).toBe(false);
    } finally {
      connection.close();
      await smtp.close();
    }
  });
});
