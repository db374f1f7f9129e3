import jwt from 'jsonwebtoken';
import {
  signConfirmationToken,
  signUnsubscribeToken,
  verifyConfirmationToken,
  verifyUnsubscribeLink,
  verifyUnsubscribeToken,
} from '..';

const SECRET = 'newsletter-test-secret-of-at-least-32-chars';
const OTHER_SECRET = 'another-secret-of-at-least-32-characters!!';

/** The signed values in the newsletter's mail links: what each proves and what it refuses. */
describe('newsletter link tokens', () => {
  describe('confirmation', () => {
    it('names the subscriber and the second its mail was written', () => {
      const issuedAt = new Date('2026-03-01T10:20:30.999Z');
      const token = signConfirmationToken('sub-1', SECRET, issuedAt);

      expect(verifyConfirmationToken(token, SECRET)).toEqual({
        subscriberId: 'sub-1',
        issuedAt: new Date('2026-03-01T10:20:30.000Z'),
      });
      expect(jwt.decode(token, { complete: true })?.header.alg).toBe('HS256');
    });

    it('is written now unless told otherwise', () => {
      const before = Math.floor(Date.now() / 1000) * 1000;
      const claims = verifyConfirmationToken(signConfirmationToken('sub-1', SECRET), SECRET);
      expect(claims?.issuedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(claims?.issuedAt.getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('refuses another key, a tampered token, an unsubscribe token and a token with no time', () => {
      const token = signConfirmationToken('sub-1', SECRET);
      const [header, , signature] = token.split('.');
      const forged = Buffer.from(JSON.stringify({ sub: 'sub-2', aud: 'newsletter-confirm' }));

      expect(verifyConfirmationToken(token, OTHER_SECRET)).toBeUndefined();
      expect(
        verifyConfirmationToken(`${header}.${forged.toString('base64url')}.${signature}`, SECRET),
      ).toBeUndefined();
      expect(verifyConfirmationToken(token.slice(0, -2), SECRET)).toBeUndefined();
      expect(
        verifyConfirmationToken(signUnsubscribeToken('a@b.tn', SECRET), SECRET),
      ).toBeUndefined();
      const timeless = jwt.sign({}, SECRET, {
        audience: 'newsletter-confirm',
        subject: 'sub-1',
        noTimestamp: true,
      });
      expect(verifyConfirmationToken(timeless, SECRET)).toBeUndefined();
    });

    it('refuses a token that names nobody, or is not a token', () => {
      const nobody = jwt.sign({ iat: 1 }, SECRET, { audience: 'newsletter-confirm' });
      const emptySubject = jwt.sign({ iat: 1, sub: '' }, SECRET, {
        audience: 'newsletter-confirm',
      });
      const numbered = jwt.sign({ iat: 1, sub: 42 }, SECRET, { audience: 'newsletter-confirm' });
      expect(verifyConfirmationToken(nobody, SECRET)).toBeUndefined();
      expect(verifyConfirmationToken(numbered, SECRET)).toBeUndefined();
      expect(verifyConfirmationToken(emptySubject, SECRET)).toBeUndefined();
      expect(verifyConfirmationToken('not-a-token', SECRET)).toBeUndefined();
    });

    it('refuses another algorithm, even with the right key', () => {
      const hs512 = jwt.sign({ iat: 1 }, SECRET, {
        algorithm: 'HS512',
        audience: 'newsletter-confirm',
        subject: 'sub-1',
      });
      expect(verifyConfirmationToken(hs512, SECRET)).toBeUndefined();
    });
  });

  describe('unsubscribe', () => {
    it('names the normalised address, and is the same for every mail to it', () => {
      const token = signUnsubscribeToken('  Leila@Example.TN ', SECRET);

      expect(verifyUnsubscribeToken(token, SECRET)).toBe('leila@example.tn');
      expect(signUnsubscribeToken('leila@example.tn', SECRET)).toBe(token);
      // No time in it: it never expires and does not change from one second to the next.
      expect(jwt.decode(token)).toEqual({ sub: 'leila@example.tn', aud: 'newsletter-unsubscribe' });
      expect(jwt.decode(token, { complete: true })?.header.alg).toBe('HS256');
    });

    it('is the very token jsonwebtoken signed, so every link already mailed still works', () => {
      const campaignId = '0123456789abcdef01234567';
      for (const email of ['Leila@Example.TN', 'rïm@exämple.tn', 'o"neil@example.com']) {
        const subject = email.toLowerCase();
        const before = jwt.sign({ cmp: campaignId }, SECRET, {
          algorithm: 'HS256',
          audience: 'newsletter-unsubscribe',
          subject,
          noTimestamp: true,
        });
        expect(signUnsubscribeToken(email, SECRET, campaignId)).toBe(before);
        expect(verifyUnsubscribeLink(before, SECRET)).toEqual({ email: subject, campaignId });
        const newsletter = jwt.sign({}, SECRET, {
          audience: 'newsletter-unsubscribe',
          subject,
          noTimestamp: true,
        });
        expect(signUnsubscribeToken(email, SECRET)).toBe(newsletter);
        expect(verifyUnsubscribeToken(newsletter, SECRET)).toBe(subject);
      }
    });

    it('is signed with the secret it is given, when the secret changes too', () => {
      const first = signUnsubscribeToken('a@b.tn', SECRET);
      const second = signUnsubscribeToken('a@b.tn', OTHER_SECRET);

      expect(second).not.toBe(first);
      expect(verifyUnsubscribeToken(second, OTHER_SECRET)).toBe('a@b.tn');
      expect(verifyUnsubscribeToken(second, SECRET)).toBeUndefined();
      expect(verifyUnsubscribeToken(signUnsubscribeToken('a@b.tn', SECRET), SECRET)).toBe('a@b.tn');
    });

    it("names the campaign of a campaign's mail, and none in a link of before", () => {
      const campaignId = '0123456789abcdef01234567';
      const token = signUnsubscribeToken('a@b.tn', SECRET, campaignId);

      expect(verifyUnsubscribeLink(token, SECRET)).toEqual({ email: 'a@b.tn', campaignId });
      expect(verifyUnsubscribeToken(token, SECRET)).toBe('a@b.tn');
      // A link mailed before campaigns were named still works, and names none.
      const before = signUnsubscribeToken('a@b.tn', SECRET);
      expect(verifyUnsubscribeLink(before, SECRET)).toEqual({ email: 'a@b.tn', campaignId: null });
      expect(verifyUnsubscribeLink(token, OTHER_SECRET)).toBeUndefined();
    });

    it('refuses to sign a campaign that is not an id, and reads an odd claim as no campaign', () => {
      for (const campaignId of ['', 'nope', '0123456789ABCDEF01234567', `${'a'.repeat(24)}0`]) {
        expect(() => signUnsubscribeToken('a@b.tn', SECRET, campaignId)).toThrow(RangeError);
      }
      for (const cmp of [42, { $ne: null }, 'not-an-id']) {
        const odd = jwt.sign({ cmp }, SECRET, {
          algorithm: 'HS256',
          audience: 'newsletter-unsubscribe',
          subject: 'a@b.tn',
        });
        expect(verifyUnsubscribeLink(odd, SECRET)).toEqual({ email: 'a@b.tn', campaignId: null });
      }
    });

    it('refuses a confirmation token and a token signed with another key', () => {
      expect(
        verifyUnsubscribeToken(signConfirmationToken('sub-1', SECRET), SECRET),
      ).toBeUndefined();
      expect(
        verifyUnsubscribeToken(signUnsubscribeToken('a@b.tn', OTHER_SECRET), SECRET),
      ).toBeUndefined();
    });
  });
});
