import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { isRecordId, type SecondFactorStep } from '@agency/contracts';
import type { AuthConfig } from '../../config';
import type { SessionUser } from '../../middleware/authenticate';
import { toAuthUserDto } from '../users';
import { findUserById, type StoredUser } from '@agency/platform';
import { createSession, findActiveSession, isSessionId } from '../sessions';

const ALGORITHM = 'HS256';
const ISSUER = 'agency-api';
const AUDIENCE = 'agency-admin';
/** A challenge is good for the second step of a sign-in only, never as a session. */
const CHALLENGE_AUDIENCE = 'agency-admin-second-factor';
/** Time to open an authenticator app, or to enrol one, after the password. */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** Where a sign-in came from, kept with its session. */
export interface SignInOrigin {
  ip: string;
  userAgent: string;
}

/** What a valid challenge proves: this user gave the right password a moment ago. */
export interface Challenge {
  user: StoredUser;
  step: SecondFactorStep;
}

export interface TokenService {
  /** Opens a session for the user and signs its token. */
  issue(user: StoredUser, origin: SignInOrigin): Promise<IssuedToken>;
  /** The user a token stands for, or null: bad signature, other algorithm, expired, ended, revoked. */
  resolve(token: string): Promise<SessionUser | null>;
  issueChallenge(user: StoredUser, step: SecondFactorStep): IssuedToken;
  resolveChallenge(token: string): Promise<Challenge | null>;
}

interface Claims {
  sub: string;
  ver: number;
  /** A session token's session; a challenge's step. */
  sid?: string;
  step?: SecondFactorStep;
}

function isWholeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/**
 * The claims every token of ours carries. `exp` and `iat` are required:
 * jsonwebtoken checks `exp` only when present, so a token signed without
 * one (a leaked key's forgery, or a bug) would otherwise never expire.
 */
function claimsOf(payload: unknown): Claims | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { sub, ver, sid, step, exp, iat } = payload as Record<string, unknown>;
  if (!isRecordId(sub) || !isWholeNumber(ver) || !isWholeNumber(exp) || !isWholeNumber(iat)) {
    return null;
  }
  if (sid !== undefined && !isSessionId(sid)) return null;
  if (step !== undefined && step !== 'totp' && step !== 'enrol') return null;
  return { sub, ver, sid, step };
}

export function createTokenService({ jwtSecret, tokenTtlSeconds }: AuthConfig): TokenService {
  // Made once: given the secret as text, jsonwebtoken first tries it as a
  // PEM public key on every call, and that failed parse costs about 0.3 ms
  // of the event loop per signed-in request (7 µs with the key object).
  const key = createSecretKey(Buffer.from(jwtSecret));
  function sign(claims: object, subject: string, audience: string, ttlSeconds: number) {
    const token = jwt.sign(claims, key, {
      algorithm: ALGORITHM,
      expiresIn: ttlSeconds,
      subject,
      issuer: ISSUER,
      audience,
    });
    return { token, expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
  }

  function verify(token: string, audience: string): Claims | null {
    try {
      // Only HS256 is accepted: a token claiming "none" or another
      // algorithm is refused whatever its signature.
      return claimsOf(
        jwt.verify(token, key, { algorithms: [ALGORITHM], issuer: ISSUER, audience }),
      );
    } catch {
      return null;
    }
  }

  return {
    async issue(user, origin) {
      const expiresAt = new Date(Date.now() + tokenTtlSeconds * 1000);
      const sessionId = await createSession({
        userId: String(user._id),
        tokenVersion: user.tokenVersion,
        ip: origin.ip,
        userAgent: origin.userAgent,
        expiresAt,
      });
      return sign(
        { ver: user.tokenVersion, sid: sessionId },
        String(user._id),
        AUDIENCE,
        tokenTtlSeconds,
      );
    },

    async resolve(token) {
      const claims = verify(token, AUDIENCE);
      if (!claims?.sid) return null;
      const user = await findUserById(claims.sub);
      // A changed password or role raised the version: older tokens are revoked.
      if (!user || user.tokenVersion !== claims.ver) return null;
      const session = await findActiveSession(claims.sid, claims.sub, user.tokenVersion);
      if (!session) return null;
      return { ...toAuthUserDto(user), sessionId: claims.sid, tokenVersion: user.tokenVersion };
    },

    issueChallenge(user, step) {
      return sign(
        { ver: user.tokenVersion, step },
        String(user._id),
        CHALLENGE_AUDIENCE,
        CHALLENGE_TTL_SECONDS,
      );
    },

    async resolveChallenge(token) {
      const claims = verify(token, CHALLENGE_AUDIENCE);
      if (!claims?.step) return null;
      const user = await findUserById(claims.sub);
      if (!user || user.tokenVersion !== claims.ver) return null;
      return { user, step: claims.step };
    },
  };
}
