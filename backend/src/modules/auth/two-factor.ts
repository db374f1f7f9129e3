import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_DRIFT_STEPS,
  TOTP_PERIOD_SECONDS,
} from '@agency/contracts';
import { derivedKeyBytes, type StoredRecoveryCode } from '@agency/platform';
import { hashPassword } from '../users';

/**
 * TOTP secrets are stored encrypted (AES-256-GCM) under a key derived from
 * JWT_SECRET: a copy of the database alone does not give anyone the codes.
 * Changing JWT_SECRET therefore turns every enrolment unreadable; staff then
 * sign in with a recovery code and enrol again (docs/operations.md).
 */
export function secretKeyFrom(jwtSecret: string): Buffer {
  return derivedKeyBytes(jwtSecret, 'agency', 'totp-secret-encryption');
}

const CIPHER = 'aes-256-gcm';

export function encryptSecret(base32: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(CIPHER, key, iv);
  const sealed = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The base32 secret, or null when it was sealed under another key or altered. */
export function decryptSecret(stored: string, key: Buffer): string | null {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) return null;
  try {
    const decipher = createDecipheriv(CIPHER, key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return null;
  }
}

/** 160 random bits, as RFC 4226 recommends, in base32 for authenticator apps. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = '', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, username: string, issuer: string): string {
  return totpOf(secret, username, issuer).toString();
}

/** The code an app shows at `time` (tests and the e2e suite compute codes this way). */
export function totpCodeAt(secret: string, time: number): string {
  return totpOf(secret).generate({ timestamp: time });
}

/**
 * The time step a code belongs to when it is right within the allowed
 * drift, else null. The caller still checks that the step is newer than the
 * last one accepted.
 */
export function totpStepOf(secret: string, code: string, time = Date.now()): number | null {
  const delta = totpOf(secret).validate({
    token: code.replace(/\s/g, ''),
    timestamp: time,
    window: TOTP_DRIFT_STEPS,
  });
  if (delta === null) return null;
  return Math.floor(time / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** No 0/O or 1/I: codes are read off paper and typed by hand. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const GROUP = 4;

function randomGroup(): string {
  return Array.from({ length: GROUP }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join(
    '',
  );
}

/**
 * Ten recovery codes such as `K7QM-9XDA-4HPR`. The first group is the code's
 * public id, unique among the user's codes, so that a check finds its one
 * hash; the other two (40 random bits) are the secret, hashed with argon2.
 */
export async function newRecoveryCodes(): Promise<{
  codes: string[];
  stored: StoredRecoveryCode[];
}> {
  const ids = new Set<string>();
  while (ids.size < RECOVERY_CODE_COUNT) ids.add(randomGroup());
  const codes = [...ids].map((id) => `${id}-${randomGroup()}-${randomGroup()}`);
  const stored = await Promise.all(
    codes.map(async (code) => {
      const { id, secret } = parseRecoveryCode(code) as { id: string; secret: string };
      return { id, hash: await hashPassword(secret) };
    }),
  );
  return { codes, stored };
}

/** A typed recovery code in any case, with or without its dashes and spaces. */
export function parseRecoveryCode(input: string): { id: string; secret: string } | null {
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  if (compact.length !== GROUP * 3) return null;
  if ([...compact].some((character) => !CODE_ALPHABET.includes(character))) return null;
  return { id: compact.slice(0, GROUP), secret: compact.slice(GROUP) };
}
