import jwt from 'jsonwebtoken';
import { isRecordId, type AuthUserDto } from '@agency/contracts';
import type { AuthConfig } from '../../config';
import type { SessionUser } from '../../middleware/authenticate';
import { findUserById, toAuthUserDto, type UserDocument } from '../users';

const ALGORITHM = 'HS256';
const ISSUER = 'agency-api';
const AUDIENCE = 'agency-admin';

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export interface TokenService {
  issue(user: UserDocument): IssuedToken;
  /** The user a token stands for, or null: bad signature, other algorithm, expired, revoked. */
  resolve(token: string): Promise<SessionUser | null>;
}

interface AdminClaims {
  sub: string;
  ver: number;
}

function claimsOf(payload: unknown): AdminClaims | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { sub, ver } = payload as Record<string, unknown>;
  if (!isRecordId(sub) || typeof ver !== 'number' || !Number.isInteger(ver)) return null;
  return { sub, ver };
}

export function createTokenService({ jwtSecret, tokenTtlSeconds }: AuthConfig): TokenService {
  return {
    issue(user) {
      const token = jwt.sign({ ver: user.tokenVersion }, jwtSecret, {
        algorithm: ALGORITHM,
        expiresIn: tokenTtlSeconds,
        subject: String(user._id),
        issuer: ISSUER,
        audience: AUDIENCE,
      });
      return { token, expiresAt: new Date(Date.now() + tokenTtlSeconds * 1000) };
    },

    async resolve(token) {
      let payload: unknown;
      try {
        // Only HS256 is accepted: a token claiming "none" or another
        // algorithm is refused whatever its signature.
        payload = jwt.verify(token, jwtSecret, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
        });
      } catch {
        return null;
      }
      const claims = claimsOf(payload);
      if (!claims) return null;
      const user = await findUserById(claims.sub);
      // A changed password or role raised the version: older tokens are revoked.
      if (!user || user.tokenVersion !== claims.ver) return null;
      const dto: AuthUserDto = toAuthUserDto(user);
      return dto;
    },
  };
}
