import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, in the link as base64url. */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

export function resetTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
