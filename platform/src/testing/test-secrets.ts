import { randomBytes } from 'node:crypto';

/** A secret made for one test file: never a literal that a real installation could be given. */
export function randomSecret(): string {
  return randomBytes(48).toString('base64url');
}

/**
 * The secrets of the configurations a test file builds in code. Jest loads
 * this module once per test file, so every context of one file signs with the
 * same keys, and no two files share them.
 */
export const TEST_SECRETS = {
  JWT_SECRET: randomSecret(),
  MAIL_LINK_SECRET: randomSecret(),
} as const;
