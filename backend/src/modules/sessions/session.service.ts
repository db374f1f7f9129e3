import { randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import { trusted } from 'mongoose';
import type { SessionDto } from '@agency/contracts';
import { SessionModel, type Session } from './session.model';

/** A User-Agent header is short; anything longer is cut before it is stored. */
const USER_AGENT_MAX = 512;
/**
 * How stale "last seen" may be. Writing it on every request would add a
 * store write to each admin call; a minute is precise enough for a list of
 * sessions.
 */
export const LAST_SEEN_PRECISION_MS = 60_000;

export interface NewSession {
  userId: string;
  tokenVersion: number;
  ip: string;
  userAgent: string;
  expiresAt: Date;
}

/** 24 random bytes: 192 bits that no sign-in before or after tells anything about. */
const SESSION_ID_BYTES = 24;
const SESSION_ID = /^[A-Za-z0-9_-]{32}$/;

export function newSessionId(): string {
  return randomBytes(SESSION_ID_BYTES).toString('base64url');
}

/** The shape of a session id (32 base64url characters); sessions named otherwise never stand. */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

export async function createSession(input: NewSession): Promise<string> {
  const now = new Date();
  const session = await SessionModel.create({
    _id: newSessionId(),
    ...input,
    userAgent: input.userAgent.slice(0, USER_AGENT_MAX),
    signedInAt: now,
    lastSeenAt: now,
  });
  return String(session._id);
}

type StoredSession = Session & { _id: string };

function isActive(session: StoredSession, tokenVersion: number, now: Date): boolean {
  return (
    session.endedAt === null &&
    session.expiresAt.getTime() > now.getTime() &&
    session.tokenVersion === tokenVersion
  );
}

/**
 * The session a token names, if it still stands; it refreshes "last seen"
 * when that is older than the precision above.
 */
export async function findActiveSession(
  id: string,
  userId: string,
  tokenVersion: number,
): Promise<StoredSession | null> {
  if (!isSessionId(id)) return null;
  const session = await SessionModel.findById(id).lean();
  const now = new Date();
  if (!session || session.userId !== userId || !isActive(session, tokenVersion, now)) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > LAST_SEEN_PRECISION_MS) {
    await SessionModel.updateOne({ _id: session._id }, { $set: { lastSeenAt: now } }).exec();
    session.lastSeenAt = now;
  }
  return session;
}

/** "Chrome 140 on Linux", or the raw header when it names no known browser. */
export function deviceOf(userAgent: string): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]]
    .filter(Boolean)
    .join(' ');
  const system = parsed.os.name ?? '';
  if (!browser) return userAgent.slice(0, 80);
  return system ? `${browser} on ${system}` : browser;
}

function toSessionDto(session: StoredSession, currentId: string): SessionDto {
  const id = String(session._id);
  return {
    id,
    device: deviceOf(session.userAgent ?? ''),
    ip: session.ip,
    signedInAt: session.signedInAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    current: id === currentId,
  };
}

/** The user's sessions that still stand, the current one first, then the latest seen. */
export async function listActiveSessions(
  userId: string,
  tokenVersion: number,
  currentId: string,
): Promise<SessionDto[]> {
  const now = new Date();
  const sessions = await SessionModel.find({
    userId,
    endedAt: null,
    tokenVersion,
    expiresAt: trusted({ $gt: now }),
  }).lean();
  // Sessions stored under ObjectIds (before ids were random) no longer stand.
  return sessions
    .filter((session) => isSessionId(session._id))
    .map((session) => toSessionDto(session, currentId))
    .sort(
      (a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt),
    );
}

/** Ends one of the user's sessions; false when it is not theirs or already ended. */
export async function endSession(userId: string, id: string): Promise<boolean> {
  if (!isSessionId(id)) return false;
  const result = await SessionModel.updateOne(
    { _id: id, userId, endedAt: null },
    { $set: { endedAt: new Date() } },
  ).exec();
  return result.modifiedCount === 1;
}

/** Ends every session of the user but `keepId`; answers how many ended. */
export async function endOtherSessions(userId: string, keepId: string): Promise<number> {
  const result = await SessionModel.updateMany(
    { userId, endedAt: null, _id: trusted({ $ne: keepId }) },
    { $set: { endedAt: new Date() } },
  ).exec();
  return result.modifiedCount;
}
