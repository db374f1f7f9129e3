import { once } from 'node:events';
import { connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { createTransport } from 'nodemailer';
import { createRawSmtpSink } from '../../bench/lib/raw-smtp-sink.mjs';

/**
 * bench:mail's sink counts the duplicates and the missing from what it
 * reads: it must see every recipient and the end of every message, whatever
 * the client pipelines and however the reads cut the message.
 */
describe("bench:mail's lean SMTP sink", () => {
  let server: Server;
  let port: number;
  let recipients: string[];
  let messages: number;

  beforeEach(async () => {
    recipients = [];
    messages = 0;
    server = createRawSmtpSink({
      onRecipient: (address) => recipients.push(address),
      onMessage: () => {
        messages += 1;
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.close();
  });

  /** A client that writes raw and reads each reply as it comes. */
  async function rawClient(): Promise<{
    socket: Socket;
    send: (text: string) => void;
    replies: (count: number) => Promise<string[]>;
  }> {
    const socket = connect(port, '127.0.0.1');
    let buffered = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
    });
    const replies = async (count: number) => {
      for (let tries = 0; tries < 200; tries += 1) {
        const lines = buffered.split('\r\n').filter((line) => /^\d{3} /.test(line));
        if (lines.length >= count) {
          buffered = '';
          return lines;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`expected ${count} replies, got: ${JSON.stringify(buffered)}`);
    };
    await once(socket, 'connect');
    return { socket, send: (text) => socket.write(text), replies };
  }

  it('reads every mail Nodemailer sends over one connection, a recipient each time', async () => {
    const transport = createTransport({ host: '127.0.0.1', port, pool: true, maxConnections: 1 });
    const lonelyDot = 'a line with a lone dot follows\n.\nand the message goes on';
    const long = 'x'.repeat(76).concat('\n').repeat(4000);
    try {
      for (const [index, text] of ['short', lonelyDot, long, 'after the long one'].entries()) {
        await transport.sendMail({
          from: 'bench@agency.test',
          to: [`r${index}@example.tn`, ...(index === 1 ? ['copy@example.tn'] : [])],
          subject: `mail ${index}`,
          text,
        });
      }
    } finally {
      transport.close();
    }

    expect(messages).toBe(4);
    expect(recipients).toEqual([
      'r0@example.tn',
      'r1@example.tn',
      'copy@example.tn',
      'r2@example.tn',
      'r3@example.tn',
    ]);
  });

  it('answers pipelined commands in order, and finds an end of message cut between two reads', async () => {
    const client = await rawClient();
    try {
      expect(await client.replies(1)).toEqual([expect.stringMatching(/^220 /)]);
      client.send('EHLO bench\r\nMAIL FROM:<a@agency.test>\r\nRCPT TO:<b@example.tn>\r\nDATA\r\n');
      const replies = await client.replies(4);
      expect(replies.map((line) => line.slice(0, 3))).toEqual(['250', '250', '250', '354']);

      client.send('Subject: cut\r\n\r\nbody\r\n.');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(messages).toBe(0);
      client.send('\r\n');
      expect(await client.replies(1)).toEqual([expect.stringMatching(/^250 /)]);
      expect(messages).toBe(1);

      // An empty message: its end is the first line after DATA.
      client.send('MAIL FROM:<a@agency.test>\r\nRCPT TO:<c@example.tn>\r\nDATA\r\n');
      await client.replies(3);
      client.send('.\r\nQUIT\r\n');
      expect((await client.replies(2)).map((line) => line.slice(0, 3))).toEqual(['250', '221']);
      expect(messages).toBe(2);
      expect(recipients).toEqual(['b@example.tn', 'c@example.tn']);
    } finally {
      client.socket.destroy();
    }
  });
});
