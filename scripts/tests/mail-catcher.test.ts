import { createTransport } from 'nodemailer';
import { type CaughtMessage, type MailCatcher, startMailCatcher } from '../lib/mail-catcher.mjs';

describe('mail catcher', () => {
  let catcher: MailCatcher;

  const get = (path: string) => fetch(new URL(path, catcher.httpUrl));
  const send = async (message: Parameters<ReturnType<typeof createTransport>['sendMail']>[0]) => {
    const transport = createTransport({ url: catcher.smtpUrl });
    try {
      await transport.sendMail(message);
    } finally {
      transport.close();
    }
  };

  beforeAll(async () => {
    catcher = await startMailCatcher();
  });

  afterAll(async () => {
    await catcher.stop();
  });

  beforeEach(async () => {
    await fetch(new URL('/api/messages', catcher.httpUrl), { method: 'DELETE' });
  });

  it('listens on loopback ports of its own', () => {
    expect(catcher.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(catcher.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('keeps each message parsed, newest first', async () => {
    await send({
      from: 'Agency <no-reply@agency.local>',
      to: 'hello@agency.local',
      bcc: 'archive@agency.local',
      replyTo: 'ada@example.com',
      subject: 'First',
      text: 'Plain body',
      html: '<p>HTML body</p>',
    });
    await send({
      from: 'a@example.com',
      to: 'b@example.com',
      subject: 'Second',
      html: '<p>Only HTML</p>',
    });

    const response = await get('/api/messages');
    const messages = (await response.json()) as CaughtMessage[];

    expect(messages.map((message) => message.subject)).toEqual(['Second', 'First']);
    expect(messages[1]).toMatchObject({
      from: '"Agency" <no-reply@agency.local>',
      to: ['hello@agency.local'],
      envelope: {
        from: 'no-reply@agency.local',
        to: ['hello@agency.local', 'archive@agency.local'],
      },
      text: 'Plain body',
      html: '<p>HTML body</p>',
      headers: expect.objectContaining({ 'reply-to': 'ada@example.com' }),
    });
    // A message with an HTML part only still has a text body to search.
    expect(messages[0]?.text).toContain('Only HTML');
  });

  it('serves one message by id and 404 for an unknown one', async () => {
    await send({ from: 'a@example.com', to: 'b@example.com', subject: 'One', text: 'x' });
    const [message] = (await (await get('/api/messages')).json()) as CaughtMessage[];

    const found = await get(`/api/messages/${message?.id}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ subject: 'One' });
    expect((await get('/api/messages/does-not-exist')).status).toBe(404);
  });

  it('shows messages on a page with their text escaped', async () => {
    await send({
      from: 'a@example.com',
      to: 'b@example.com',
      subject: 'Hello <b>',
      text: 'Hi <script>alert(1)</script>',
    });

    const page = await (await get('/')).text();

    expect(page).toContain('Hello &lt;b&gt;');
    expect(page).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)</script>');
  });

  it('forgets everything on DELETE /api/messages', async () => {
    await send({ from: 'a@example.com', to: 'b@example.com', subject: 'Gone', text: 'x' });

    const deleted = await fetch(new URL('/api/messages', catcher.httpUrl), { method: 'DELETE' });

    expect(deleted.status).toBe(204);
    expect(await (await get('/api/messages')).json()).toEqual([]);
  });
});
