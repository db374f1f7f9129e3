import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { createMailTransport, type MailTransport } from './transport';

describe('the enquiry mail transport', () => {
  let sink: SmtpSink;
  let transport: MailTransport | undefined;

  beforeEach(async () => {
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    transport?.close();
    transport = undefined;
    await sink.close();
  });

  async function sendTwoMails(to: MailTransport): Promise<void> {
    for (const visitor of ['amira', 'sami']) {
      await to.sendMail({
        from: 'no-reply@agency.local',
        to: `${visitor}@example.tn`,
        subject: `Thank you, ${visitor}`,
        text: 'We received your enquiry.',
      });
    }
    await sink.waitForCount(2);
  }

  it('keeps one connection for successive mails when SMTP_URL says nothing of pooling', async () => {
    transport = createMailTransport(sink.url);

    await sendTwoMails(transport);

    expect(sink.connectionsOpened()).toBe(1);
  });

  it('opens a connection per mail when SMTP_URL turns pooling off', async () => {
    const url = new URL(sink.url);
    url.searchParams.set('pool', 'false');
    transport = createMailTransport(url.toString());

    await sendTwoMails(transport);

    expect(sink.connectionsOpened()).toBe(2);
  });
});
