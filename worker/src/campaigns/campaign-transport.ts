import { Pool } from 'tarn';
import { MessageRoom, type RawCampaignMessage } from './campaign-mime';
import {
  SMTPConnection,
  parseConnectionUrl,
  type ConnectionUrlOptions,
} from './nodemailer-internals';

/** What a campaign send needs of SMTP: one whole message out, the server's answer back. */
export interface CampaignTransport {
  /** Resolves once the server accepted the message; rejects with Nodemailer's SMTP error otherwise. */
  send(message: RawCampaignMessage): Promise<SMTPConnection.SentMessageInfo>;
  /** Ends every connection once the sends in hand are answered. */
  close(): Promise<void>;
}

export interface CampaignTransportTuning {
  /** Messages over one connection before it is replaced (some servers cap them). */
  maxMessages?: number;
  /** An unused connection is closed after this long, before the server drops it. */
  idleTimeoutMs?: number;
}

interface Lease {
  connection: SMTPConnection;
  sent: number;
  /** False once the connection failed, closed or must not carry another message. */
  usable: boolean;
  /** The bytes of the message the connection carries, reused for the next one. */
  room: MessageRoom;
}

const DEFAULT_MAX_MESSAGES = 10_000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/**
 * Connects, greets and, when the URL names a user and the server offers AUTH,
 * signs in, as Nodemailer's pool does.
 */
function openLease(options: ConnectionUrlOptions): Promise<Lease> {
  return new Promise((resolve, reject) => {
    // The URL's settings (host, port, TLS, timeouts) are SMTPConnection's own options.
    const connection = new SMTPConnection(options as SMTPConnection.Options);
    const lease: Lease = { connection, sent: 0, usable: true, room: new MessageRoom() };
    // The first failure is the one told (closing emits 'end' at once); once
    // the lease is handed out, a late one only retires it.
    const fail = (error: Error) => {
      reject(error);
      lease.usable = false;
      connection.close();
    };
    // Kept for the connection's life: an unheard 'error' would end the process.
    connection.on('error', fail);
    // Stryker disable next-line StringLiteral: before the lease is handed out, a close is told by 'error' or connect's callback first; 'end' then only retires the lease
    connection.on('end', () => fail(new Error('the SMTP server closed the connection')));
    connection.connect((error) => {
      if (error) return fail(error);
      const { auth } = options;
      if (!auth || !connection.allowsAuth) return resolve(lease);
      connection.login(auth, (loginError) => (loginError ? fail(loginError) : resolve(lease)));
    });
  });
}

function sendOver(lease: Lease, message: RawCampaignMessage) {
  return new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) => {
    lease.connection.send(message.envelope, lease.room.layOut(message.pieces), (error, info) =>
      error ? reject(error) : resolve(info),
    );
  });
}

/**
 * After a refused message (4xx, 5xx) the session is reset for the next one;
 * a connection that cannot be (it failed, the server hung up) is retired.
 */
function resetSession(lease: Lease): Promise<void> {
  return new Promise((resolve) => {
    lease.connection.reset((error) => {
      if (error) lease.usable = false;
      resolve();
    });
  });
}

/**
 * The campaign sends' own SMTP connections (`SMTP_URL`, apart from the
 * enquiry mail's pool): each message, already whole (`campaign-mime.ts`),
 * goes over a leased, reused `SMTPConnection`, Nodemailer's documented SMTP
 * client. Nodemailer's Mailer and pool compose, stream and log every message
 * first; for messages already built, that cost about a third of the workers'
 * CPU per message (README, bench:mail). tarn keeps the leases: at most
 * `connections` open, idle ones closed, broken ones replaced on the next
 * lease. A refused message (4xx, 5xx) rejects with the server's reply, as
 * `smtp-failure.ts` expects; an unreachable server rejects with the
 * connection error, which a batch retries later.
 */
export function createCampaignTransport(
  smtpUrl: string,
  connections: number,
  tuning: CampaignTransportTuning = {},
): CampaignTransport {
  const options = parseConnectionUrl(smtpUrl);
  // SMTP_URL may set the pool's size and messages per connection, as for Nodemailer's pool.
  const { searchParams } = new URL(smtpUrl);
  const fromUrl = (name: string) => Number(searchParams.get(name)) || undefined;
  const messagesPerConnection =
    tuning.maxMessages ?? fromUrl('maxMessages') ?? DEFAULT_MAX_MESSAGES;
  const pool = new Pool<Lease>({
    create: () => openLease(options),
    destroy: (lease) => (lease.usable ? lease.connection.quit() : lease.connection.close()),
    validate: (lease) => lease.usable,
    min: 0,
    max: fromUrl('maxConnections') ?? connections,
    idleTimeoutMillis: tuning.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    // The connection's own error (refused, timed out) reaches the send, not a retry loop.
    propagateCreateError: true,
  });

  return {
    async send(message) {
      const lease = await pool.acquire().promise;
      try {
        return await sendOver(lease, message);
      } catch (error) {
        lease.room.clear();
        await resetSession(lease);
        throw error;
      } finally {
        lease.sent += 1;
        if (lease.sent >= messagesPerConnection) lease.usable = false;
        pool.release(lease);
      }
    },
    async close() {
      await pool.destroy();
    },
  };
}
