import { Pool } from 'tarn';
import { MessageRoom, type RawCampaignMessage } from './campaign-mime';
import {
  CampaignSmtpSession,
  MessageNotSentError,
  type AcceptedMessage,
} from './campaign-smtp-session';
import {
  SMTPConnection,
  parseConnectionUrl,
  takeOverConnection,
  type ConnectionUrlOptions,
} from './nodemailer-internals';

/** What a campaign send needs of SMTP: one whole message out, the server's answer back. */
export interface CampaignTransport {
  /** Resolves once the server accepted the message; rejects with the SMTP error otherwise (as Nodemailer's). */
  send(message: RawCampaignMessage): Promise<AcceptedMessage>;
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
  /** Nodemailer's: it opened, secured and signed in the connection, and still ends it. */
  connection: SMTPConnection;
  /** The connection's mail transactions, once it is set up. */
  session?: CampaignSmtpSession;
  sent: number;
  /** False once the connection failed, closed or must not carry another message. */
  usable: boolean;
}

/** A connection being opened or open, and how many of the pool's slots it carries. */
interface SharedConnection {
  lease: Promise<Lease>;
  slots: number;
}

/**
 * What the pool hands out: room for one message at a time on a connection
 * that carries two, so the session can write one message's body and the
 * next one's envelope together (`campaign-smtp-session.ts`).
 */
interface Slot {
  shared: SharedConnection;
  lease: Lease;
  /** The bytes of the message the slot carries, reused for the next one. */
  room: MessageRoom;
}

/** Messages one connection carries at once: one answered while the next one's envelope goes. */
const SLOTS_PER_CONNECTION = 2;
/** A message the session never began goes over another connection, this many times in all at most. */
const NOT_SENT_ATTEMPTS = 3;

const DEFAULT_MAX_MESSAGES = 10_000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/**
 * Connects, greets and, when the URL names a user and the server offers AUTH,
 * signs in, as Nodemailer's pool does; then its session carries the messages.
 */
function openLease(options: ConnectionUrlOptions): Promise<Lease> {
  return new Promise((resolve, reject) => {
    // The URL's settings (host, port, TLS, timeouts) are SMTPConnection's own options.
    const connection = new SMTPConnection(options as SMTPConnection.Options);
    const lease: Lease = { connection, sent: 0, usable: true };
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
    const ready = () => {
      const { socket, extensions } = takeOverConnection(connection);
      lease.session = new CampaignSmtpSession(socket, extensions);
      resolve(lease);
    };
    connection.connect((error) => {
      if (error) return fail(error);
      const { auth } = options;
      if (!auth || !connection.allowsAuth) return ready();
      connection.login(auth, (loginError) => (loginError ? fail(loginError) : ready()));
    });
  });
}

/** A lease is handed out only once its session is set up. */
function sessionOf(lease: Lease): CampaignSmtpSession {
  if (!lease.session) throw new Error('the SMTP connection is not set up');
  return lease.session;
}

/** QUIT when the connection is still good, else just closed. */
function endLease(lease: Lease): void {
  if (lease.usable && lease.session?.usable) lease.session.quit();
  else lease.connection.close();
}

/**
 * The pool's slots, two to a connection: a new slot joins a connection with
 * one slot (opened or still opening) before another connection is opened,
 * and a connection ends with its last slot.
 */
function sharedConnections(options: ConnectionUrlOptions) {
  const connections = new Set<SharedConnection>();
  return {
    async create(): Promise<Slot> {
      let shared = [...connections].find(({ slots }) => slots < SLOTS_PER_CONNECTION);
      if (!shared) {
        shared = { lease: openLease(options), slots: 0 };
        connections.add(shared);
      }
      shared.slots += 1;
      try {
        return { shared, lease: await shared.lease, room: new MessageRoom() };
      } catch (error) {
        connections.delete(shared);
        throw error;
      }
    },
    /** A connection that failed or carried its maximum takes no new slot. */
    retire(slot: Slot): void {
      connections.delete(slot.shared);
    },
    destroy(slot: Slot): void {
      connections.delete(slot.shared);
      slot.shared.slots -= 1;
      if (slot.shared.slots === 0) endLease(slot.lease);
    },
  };
}

const isUsable = ({ lease }: Slot) => lease.usable && (lease.session?.usable ?? false);

/** How long a slot no send took again stays out of the pool, at most. */
const KEPT_SLOT_MS = 1000;

/**
 * Slots a send gave back while no other waited, kept for the next send
 * rather than put back in the pool: a batch sends its next wave within
 * milliseconds, and tarn's acquire makes a timer and half a dozen promises
 * per message. Whatever is kept goes back to the pool within `keptMs`, so
 * its idle timeout still closes connections nobody uses.
 */
function keptSlots(pool: Pool<Slot>, keptMs: number) {
  const kept: Slot[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closing = false;
  const handBack = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const slot of kept.splice(0)) pool.release(slot);
  };
  return {
    /** A kept slot still usable, if any; the others go back to the pool, which replaces them. */
    take(): Slot | undefined {
      for (let slot = kept.pop(); slot; slot = kept.pop()) {
        if (isUsable(slot)) return slot;
        pool.release(slot);
      }
      return undefined;
    },
    give(slot: Slot): void {
      // A send waiting in the pool takes it there; a closing pool waits for it.
      if (closing || pool.numPendingAcquires() > 0) {
        pool.release(slot);
        return;
      }
      kept.push(slot);
      timer ??= setTimeout(handBack, keptMs).unref();
    },
    /** Every slot back in the pool, and those given later straight to it. */
    close(): void {
      closing = true;
      handBack();
    },
  };
}

/**
 * The campaign sends' own SMTP connections (`SMTP_URL`, apart from the
 * enquiry mail's pool): each connection is opened, secured and signed in by
 * Nodemailer's SMTP client (`SMTPConnection`), then carries whole messages
 * (`campaign-mime.ts`) one at a time in its `CampaignSmtpSession`.
 * Nodemailer's Mailer and pool compose, stream and log every message first;
 * for messages already built, that cost about a third of the workers' CPU
 * per message (README, bench:mail), and its transaction a quarter of what
 * was left (campaign-smtp-session.ts). tarn keeps the leases: at most
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
  const slots = sharedConnections(options);
  const idleTimeoutMs = tuning.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const pool = new Pool<Slot>({
    create: () => slots.create(),
    destroy: (slot) => slots.destroy(slot),
    validate: isUsable,
    min: 0,
    max: (fromUrl('maxConnections') ?? connections) * SLOTS_PER_CONNECTION,
    idleTimeoutMillis: idleTimeoutMs,
    // The connection's own error (refused, timed out) reaches the send, not a retry loop.
    propagateCreateError: true,
  });
  const kept = keptSlots(pool, Math.min(KEPT_SLOT_MS, idleTimeoutMs / 2));

  const sendOver = async (slot: Slot, message: RawCampaignMessage) => {
    const { lease, room } = slot;
    lease.sent += 1;
    if (lease.sent >= messagesPerConnection) {
      lease.usable = false;
      slots.retire(slot);
    }
    try {
      return await sessionOf(lease).send(message.envelope, room.layOut(message.pieces));
    } catch (error) {
      room.clear();
      throw error;
    } finally {
      if (!isUsable(slot)) slots.retire(slot);
      kept.give(slot);
    }
  };

  return {
    async send(message) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await sendOver(kept.take() ?? (await pool.acquire().promise), message);
        } catch (error) {
          // Never begun on a connection that ended: no server can have it, so it goes over another.
          if (!(error instanceof MessageNotSentError)) throw error;
          if (attempt >= NOT_SENT_ATTEMPTS) throw error.cause;
        }
      }
    },
    async close() {
      kept.close();
      await pool.destroy();
    },
  };
}
