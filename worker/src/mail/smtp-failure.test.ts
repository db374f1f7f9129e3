import net from 'node:net';
import { startSmtpSink, type SmtpRefusal, type SmtpSink } from '../testing/smtp-sink';
import { createMailTransport, type MailTransport } from './transport';
import {
  connectionFailureCode,
  isConnectionFailure,
  isPermanentSmtpFailure,
  smtpFailureReason,
} from './smtp-failure';

/** How real SMTP servers refuse a mail, and whether the worker gives it up for good. */
describe('an SMTP refusal', () => {
  let sink: SmtpSink | undefined;
  let transport: MailTransport | undefined;

  afterEach(async () => {
    transport?.close();
    transport = undefined;
    await sink?.close();
    sink = undefined;
  });

  /** The error Nodemailer gives when the server answers the recipient with `refusal`. */
  async function refusedWith(refusal: SmtpRefusal): Promise<unknown> {
    sink = await startSmtpSink({ refuseRecipient: () => refusal });
    return errorOfOneMail(sink.url);
  }

  async function errorOfOneMail(url: string): Promise<unknown> {
    transport = createMailTransport(url);
    try {
      await transport.sendMail({
        from: 'no-reply@agency.local',
        to: 'visitor@example.tn',
        subject: 'Thank you',
        text: 'We received your enquiry.',
      });
    } catch (error: unknown) {
      return error;
    }
    throw new Error('the server accepted the mail');
  }

  it.each([500, 550, 599])('is for good when the server answers %i', async (code) => {
    const error = await refusedWith({ code, message: `${code} 5.1.1 No such user` });

    expect(isPermanentSmtpFailure(error)).toBe(true);
    expect(smtpFailureReason(error)).toContain(`${code} 5.1.1 No such user`);
  });

  it.each([421, 451, 499])('is worth retrying when the server answers %i', async (code) => {
    const error = await refusedWith({ code, message: `${code} 4.7.1 Try again later` });

    expect(isPermanentSmtpFailure(error)).toBe(false);
    expect(smtpFailureReason(error)).toContain(`${code} 4.7.1 Try again later`);
  });

  it('is worth retrying when the server refuses the login, which the operator fixes once', async () => {
    sink = await startSmtpSink({ auth: { user: 'agency', pass: 'right' } });
    const url = new URL(sink.url);
    url.username = 'agency';
    url.password = 'wrong';

    const error = await errorOfOneMail(url.toString());

    expect(error).toMatchObject({ code: 'EAUTH', responseCode: 535 });
    expect(isPermanentSmtpFailure(error)).toBe(false);
  });

  it('is worth retrying when no server answers, and says why', async () => {
    sink = await startSmtpSink();
    const { url } = sink;
    await sink.close();
    sink = undefined;

    const error = await errorOfOneMail(url);

    expect(isPermanentSmtpFailure(error)).toBe(false);
    expect(smtpFailureReason(error)).toMatch(/ECONNREFUSED/);
    expect(isConnectionFailure(error)).toBe(true);
    expect(connectionFailureCode(error)).toBe('ECONNREFUSED');
  });

  it('is a connection failure when the server never greets, and not when it replies', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const error = await errorOfOneMail(`smtp://127.0.0.1:${port}?greetingTimeout=200`);
      expect(isConnectionFailure(error)).toBe(true);
      expect(connectionFailureCode(error)).toBe('ETIMEDOUT');
    } finally {
      transport?.close();
      transport = undefined;
      await new Promise((resolve) => silent.close(resolve));
    }

    const refused = await refusedWith({ code: 421, message: '421 4.3.2 Shutting down' });
    expect(isConnectionFailure(refused)).toBe(false);
  });
});
