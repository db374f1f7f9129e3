import { createSecretKey, hkdfSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import {
  MANAGE_KEY_PERIOD_DAYS,
  manageKeyPeriod,
  signConfirmationToken,
  signManageToken,
  signUnsubscribeToken,
  verifyManageToken,
} from '..';

const SECRET = 'manage-test-secret-of-at-least-32-characters';
const OTHER_SECRET = 'another-secret-of-at-least-32-characters!!';
const DAY_MS = 24 * 60 * 60 * 1000;
const SIGNED_AT = new Date('2026-03-01T10:00:00.000Z');
const daysAfter = (days: number) => new Date(SIGNED_AT.getTime() + days * DAY_MS);

/** A key period's own key, derived as the product derives it, written out here apart. */
const periodKeyOf = (period: number) =>
  Buffer.from(
    hkdfSync(
      'sha256',
      SECRET,
      'agency manage links',
      `manage link key, period ${period}, version 1`,
      32,
    ),
  );

/** Flips one character of the token's part `index` (0 header, 1 claims, 2 signature). */
function withChangedByte(token: string, index: number): string {
  const parts = token.split('.');
  const part = parts[index] ?? '';
  const middle = Math.floor(part.length / 2);
  const changed = part[middle] === 'A' ? 'B' : 'A';
  parts[index] = `${part.slice(0, middle)}${changed}${part.slice(middle + 1)}`;
  return parts.join('.');
}

describe('the manage link token', () => {
  it('names the normalised address, for the manage purpose, keyed by its period', () => {
    const token = signManageToken(' Rim@Example.TN ', SECRET, SIGNED_AT);
    expect(verifyManageToken(token, SECRET, SIGNED_AT)).toEqual({
      outcome: 'valid',
      email: 'rim@example.tn',
    });
    const decoded = jwt.decode(token, { complete: true });
    expect(decoded?.header).toMatchObject({
      alg: 'HS256',
      kid: String(manageKeyPeriod(SIGNED_AT)),
    });
    expect(decoded?.payload).toMatchObject({ aud: 'newsletter-manage', sub: 'rim@example.tn' });
  });

  it('works while its key is the current or the previous one, then expires', () => {
    const token = signManageToken('rim@example.tn', SECRET, SIGNED_AT);
    const period = manageKeyPeriod(SIGNED_AT);
    const endOfNextPeriod = new Date((period + 2) * MANAGE_KEY_PERIOD_DAYS * DAY_MS - 1);
    expect(verifyManageToken(token, SECRET, endOfNextPeriod).outcome).toBe('valid');
    expect(verifyManageToken(token, SECRET, new Date(endOfNextPeriod.getTime() + 1))).toEqual({
      outcome: 'expired',
    });
    expect(verifyManageToken(token, SECRET, daysAfter(3 * MANAGE_KEY_PERIOD_DAYS))).toEqual({
      outcome: 'expired',
    });
  });

  it('refuses a changed byte in any part, another key, and a key period from the future', () => {
    const token = signManageToken('rim@example.tn', SECRET, SIGNED_AT);
    for (const index of [0, 1, 2]) {
      expect(verifyManageToken(withChangedByte(token, index), SECRET, SIGNED_AT)).toEqual({
        outcome: 'invalid',
      });
    }
    expect(verifyManageToken(token, OTHER_SECRET, SIGNED_AT).outcome).toBe('invalid');
    // Signed for a later period: not a key anyone holds yet.
    const later = signManageToken('rim@example.tn', SECRET, daysAfter(MANAGE_KEY_PERIOD_DAYS));
    expect(verifyManageToken(later, SECRET, SIGNED_AT).outcome).toBe('invalid');
    for (const garbage of ['', 'a.b.c', 'not a token']) {
      expect(verifyManageToken(garbage, SECRET, SIGNED_AT).outcome).toBe('invalid');
    }
  });

  it("refuses another purpose's token, and is refused where another purpose is asked", () => {
    const unsubscribe = signUnsubscribeToken('rim@example.tn', SECRET);
    const confirmation = signConfirmationToken('65f0c0ffee65f0c0ffee0001', SECRET, SIGNED_AT);
    expect(verifyManageToken(unsubscribe, SECRET, SIGNED_AT).outcome).toBe('invalid');
    expect(verifyManageToken(confirmation, SECRET, SIGNED_AT).outcome).toBe('invalid');

    // The same claims signed with the period's own key, but for the unsubscribe purpose.
    const period = manageKeyPeriod(SIGNED_AT);
    const periodKey = createSecretKey(periodKeyOf(period));
    expect(
      verifyManageToken(
        jwt.sign({}, periodKey, {
          algorithm: 'HS256',
          audience: 'newsletter-manage',
          subject: 'rim@example.tn',
          keyid: String(period),
        }),
        SECRET,
        SIGNED_AT,
      ).outcome,
    ).toBe('valid');
    const forged = jwt.sign({}, periodKey, {
      algorithm: 'HS256',
      audience: 'newsletter-unsubscribe',
      subject: 'rim@example.tn',
      keyid: String(period),
    });
    expect(verifyManageToken(forged, SECRET, SIGNED_AT).outcome).toBe('invalid');
  });

  it('is the very token jsonwebtoken signed, so every link already mailed still works', () => {
    const period = manageKeyPeriod(SIGNED_AT);
    const periodKey = periodKeyOf(period);
    for (const email of ['Rim@Example.TN', 'rïm@exämple.tn']) {
      const before = jwt.sign({}, createSecretKey(periodKey), {
        algorithm: 'HS256',
        audience: 'newsletter-manage',
        subject: email.toLowerCase(),
        keyid: String(period),
        noTimestamp: true,
      });
      expect(signManageToken(email, SECRET, SIGNED_AT)).toBe(before);
      expect(verifyManageToken(before, SECRET, SIGNED_AT)).toEqual({
        outcome: 'valid',
        email: email.toLowerCase(),
      });
    }
    // The next period signs with its own key, not the one kept for the period before.
    const next = daysAfter(MANAGE_KEY_PERIOD_DAYS);
    expect(signManageToken('rim@example.tn', SECRET, next)).not.toBe(
      signManageToken('rim@example.tn', SECRET, SIGNED_AT).replace(
        String(period),
        String(period + 1),
      ),
    );
    expect(
      verifyManageToken(signManageToken('rim@example.tn', SECRET, next), SECRET, next),
    ).toEqual({
      outcome: 'valid',
      email: 'rim@example.tn',
    });
    expect(
      verifyManageToken(signManageToken('rim@example.tn', OTHER_SECRET, next), SECRET, next)
        .outcome,
    ).toBe('invalid');
  });

  it('refuses an unsigned token even when its claims are right', () => {
    const period = manageKeyPeriod(SIGNED_AT);
    const unsigned = jwt.sign({}, '', {
      algorithm: 'none',
      audience: 'newsletter-manage',
      subject: 'rim@example.tn',
      keyid: String(period),
    });
    expect(verifyManageToken(unsigned, SECRET, SIGNED_AT).outcome).toBe('invalid');
  });
});
