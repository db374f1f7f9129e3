import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { LOCALES } from '@agency/contracts';
import { newCampaignTrackingKey, recipientKeyOf } from './recipient-key';
import {
  CLICK_TOKEN_LENGTH,
  OPEN_TOKEN_LENGTH,
  recipientTrackingTokens,
  signClickToken,
  signOpenToken,
  trackingTokenKey,
  verifyClickToken,
  verifyOpenToken,
  verifyTrackingToken,
  type TrackingTokenKey,
} from './tracking-token';

const KEY = trackingTokenKey('tracking-token-test-secret-of-32-characters');
const OTHER_KEY = trackingTokenKey('another-tracking-secret-of-32-characters');
const CAMPAIGN = '0123456789abcdef01234567';
const ADDRESS = 'leila@example.tn';
const CAMPAIGN_KEY = newCampaignTrackingKey();
const RECIPIENT = recipientKeyOf(CAMPAIGN_KEY, ADDRESS);
const SENT_AT = new Date('2026-11-28T09:15:42Z');
const OPEN = {
  campaignId: CAMPAIGN,
  recipientKey: RECIPIENT,
  sentAt: SENT_AT,
  locale: 'fr' as const,
  source: 3,
};
const CLICK = { ...OPEN, linkIndex: 7 };
/** Where the language is: after the version, kind, campaign id, recipient key and time. */
const LOCALE_AT = 34;
const SOURCE_AT = 35;
/** Where a click token's link index starts: after the recipient key, the time, the language and the source. */
const LINK_INDEX_AT = 36;
const BASE64URL_ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

const bytesOf = (token: string): Buffer => Buffer.from(token, 'base64url');

/** Signs bytes as the tokens are signed, so that a check other than the MAC's is what refuses them. */
function resealed(key: TrackingTokenKey, body: Buffer): string {
  const mac = createHmac('sha256', key.macKey).update(body).digest().subarray(0, 12);
  return Buffer.concat([body, mac]).toString('base64url');
}

const bodyOf = (token: string): Buffer => bytesOf(token).subarray(0, -12);

function withByte(body: Buffer, at: number, value: number): Buffer {
  const changed = Buffer.from(body);
  changed[at] = value;
  return changed;
}

/** The tokens of the open pixel and the tracking links: what they carry and what they refuse. */
describe('tracking tokens', () => {
  describe('round trips', () => {
    it('names the campaign and the recipient key in an open token of 64 URL-safe characters', () => {
      const token = signOpenToken(KEY, OPEN);
      expect(token).toHaveLength(OPEN_TOKEN_LENGTH);
      expect(OPEN_TOKEN_LENGTH).toBe(64);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(verifyTrackingToken(KEY, token)).toEqual({ kind: 'open', ...OPEN });
      expect(verifyOpenToken(KEY, token)).toEqual({ kind: 'open', ...OPEN });
    });

    it('names the link too in a click token of 67 URL-safe characters', () => {
      const token = signClickToken(KEY, CLICK);
      expect(token).toHaveLength(CLICK_TOKEN_LENGTH);
      expect(CLICK_TOKEN_LENGTH).toBe(67);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(verifyTrackingToken(KEY, token)).toEqual({ kind: 'click', ...CLICK });
      expect(verifyClickToken(KEY, token)).toEqual({ kind: 'click', ...CLICK });
    });

    it('carries the first link, the trap past the last, any campaign id (in lower case), time, language and source', () => {
      fc.assert(
        fc.property(
          fc.stringMatching(/^[0-9a-fA-F]{24}$/),
          fc.integer({ min: 0, max: 1000 }),
          fc.emailAddress(),
          fc.integer({ min: 0, max: 0xffffffff }),
          fc.constantFrom(...LOCALES),
          fc.option(fc.integer({ min: 0, max: 254 })),
          (campaignId, linkIndex, address, seconds, locale, source) => {
            const recipientKey = recipientKeyOf(CAMPAIGN_KEY, address);
            const sentAt = new Date(seconds * 1000);
            const token = signClickToken(KEY, {
              campaignId,
              linkIndex,
              recipientKey,
              sentAt,
              locale,
              source,
            });
            expect(verifyClickToken(KEY, token)).toEqual({
              kind: 'click',
              campaignId: campaignId.toLowerCase(),
              linkIndex,
              recipientKey,
              sentAt,
              locale,
              source,
            });
          },
        ),
      );
      for (const linkIndex of [0, 1000]) {
        const token = signClickToken(KEY, { ...CLICK, linkIndex });
        expect(verifyClickToken(KEY, token)?.linkIndex).toBe(linkIndex);
      }
    });

    it('tells the pixel a click token from an open one, and the link the other way round', () => {
      expect(verifyOpenToken(KEY, signClickToken(KEY, CLICK))).toBeNull();
      expect(verifyClickToken(KEY, signOpenToken(KEY, OPEN))).toBeNull();
    });
  });

  describe("one mail's tokens", () => {
    it('are the tokens signed one by one, each of its own kind and link', () => {
      const tokens = recipientTrackingTokens(KEY, OPEN);
      const open = tokens.open();
      const clicks = [0, 7, 300].map((linkIndex) => tokens.click(linkIndex));
      expect(open).toBe(signOpenToken(KEY, OPEN));
      expect(clicks[1]).toBe(signClickToken(KEY, CLICK));
      // Signing one token leaves the fields the next one shares as they were.
      expect(tokens.open()).toBe(open);
      expect(clicks.map((token) => verifyClickToken(KEY, token)?.linkIndex)).toEqual([0, 7, 300]);
      expect(verifyOpenToken(KEY, open)).toEqual({ kind: 'open', ...OPEN });
      expect(verifyClickToken(KEY, clicks[2] ?? '')).toEqual({
        kind: 'click',
        ...OPEN,
        linkIndex: 300,
      });
    });

    it('refuse a link past the table as signing one by one does', () => {
      const tokens = recipientTrackingTokens(KEY, OPEN);
      expect(() => tokens.click(-1)).toThrow(RangeError);
      expect(() => tokens.click(1.5)).toThrow(RangeError);
      expect(tokens.open()).toBe(signOpenToken(KEY, OPEN));
    });
  });

  describe('what a token carries of the recipient', () => {
    it('never the address nor a plain hash of it', () => {
      for (const token of [signOpenToken(KEY, OPEN), signClickToken(KEY, CLICK)]) {
        const bytes = bytesOf(token);
        expect(token.toLowerCase()).not.toContain('leila');
        expect(bytes.includes(Buffer.from('leila'))).toBe(false);
        for (const algorithm of ['sha256', 'sha1', 'md5']) {
          const plain = createHash(algorithm).update(ADDRESS).digest();
          expect(bytes.includes(plain.subarray(0, 8))).toBe(false);
          expect(token).not.toContain(plain.subarray(0, 8).toString('base64url').slice(0, 10));
        }
      }
    });

    it('the same key for the same address in one campaign, another in another campaign', () => {
      const again = recipientKeyOf(CAMPAIGN_KEY, 'Leila@Example.TN');
      expect(signClickToken(KEY, { ...CLICK, recipientKey: again })).toBe(
        signClickToken(KEY, CLICK),
      );
      const elsewhere = recipientKeyOf(newCampaignTrackingKey(), ADDRESS);
      const token = signClickToken(KEY, { ...CLICK, recipientKey: elsewhere });
      expect(verifyClickToken(KEY, token)?.recipientKey).not.toBe(RECIPIENT);
    });
  });

  describe('the source, and the tokens mailed before it', () => {
    /** A version 1 token: the same fields without the source byte, as mails sent before it carry. */
    const versionOneOf = (token: string): string => {
      const body = bodyOf(token);
      const withoutSource = Buffer.concat([
        body.subarray(0, SOURCE_AT),
        body.subarray(SOURCE_AT + 1),
      ]);
      return resealed(KEY, withByte(withoutSource, 0, 1));
    };

    it('still verifies a version 1 open or click token, with no source', () => {
      const open = versionOneOf(signOpenToken(KEY, OPEN));
      const click = versionOneOf(signClickToken(KEY, CLICK));
      expect([open.length, click.length]).toEqual([63, 66]);
      expect(verifyOpenToken(KEY, open)).toEqual({ kind: 'open', ...OPEN, source: null });
      expect(verifyClickToken(KEY, click)).toEqual({ kind: 'click', ...CLICK, source: null });
    });

    it('refuses a version 1 body marked version 2, and the other way round, even signed', () => {
      const open = bodyOf(versionOneOf(signOpenToken(KEY, OPEN)));
      expect(verifyTrackingToken(KEY, resealed(KEY, withByte(open, 0, 2)))).toBeNull();
      const click = bodyOf(signClickToken(KEY, CLICK));
      expect(verifyTrackingToken(KEY, resealed(KEY, withByte(click, 0, 1)))).toBeNull();
    });

    it('signs an unknown source as its own byte, read back as null', () => {
      const token = signOpenToken(KEY, { ...OPEN, source: null });
      expect(bytesOf(token)[SOURCE_AT]).toBe(255);
      expect(verifyOpenToken(KEY, token)?.source).toBeNull();
      expect(bytesOf(signOpenToken(KEY, OPEN))[SOURCE_AT]).toBe(3);
    });

    it('refuses to sign a source that is not a place of one byte', () => {
      for (const source of [-1, 255, 256, 1.5, Number.NaN]) {
        expect(() => signClickToken(KEY, { ...CLICK, source })).toThrow(
          new RangeError('A source is an integer from 0 to 254, or null'),
        );
      }
    });
  });

  describe('forgeries', () => {
    const tokens = { open: signOpenToken(KEY, OPEN), click: signClickToken(KEY, CLICK) };

    it('refuses a token with any byte changed', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(tokens.open, tokens.click),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          (token, position, flip) => {
            const bytes = bytesOf(token);
            const at = position % bytes.length;
            const changed = withByte(bytes, at, (bytes[at] ?? 0) ^ flip);
            expect(verifyTrackingToken(KEY, changed.toString('base64url'))).toBeNull();
          },
        ),
        { numRuns: 2000 },
      );
    });

    it('refuses a token with any character changed, spare bits of the last one included', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(tokens.open, tokens.click),
          fc.nat(),
          fc.constantFrom(...BASE64URL_ALPHABET, '+', '/', '=', ' ', '.', '%', 'é'),
          (token, position, character) => {
            const at = position % token.length;
            fc.pre(token[at] !== character);
            const changed = `${token.slice(0, at)}${character}${token.slice(at + 1)}`;
            expect(verifyTrackingToken(KEY, changed)).toBeNull();
          },
        ),
        { numRuns: 2000 },
      );
      // A click token has two spare bits: its last character has siblings that decode alike.
      const last = tokens.click.slice(-1);
      const sibling = BASE64URL_ALPHABET.find(
        (character) =>
          character !== last &&
          bytesOf(`${tokens.click.slice(0, -1)}${character}`).equals(bytesOf(tokens.click)),
      );
      expect(sibling).toBeDefined();
      expect(verifyTrackingToken(KEY, `${tokens.click.slice(0, -1)}${sibling}`)).toBeNull();
    });

    it('refuses a token signed with another secret', () => {
      expect(verifyTrackingToken(OTHER_KEY, tokens.open)).toBeNull();
      expect(verifyTrackingToken(OTHER_KEY, tokens.click)).toBeNull();
      expect(verifyTrackingToken(KEY, signClickToken(OTHER_KEY, CLICK))).toBeNull();
    });

    it('refuses a click token cut to the length of an open token', () => {
      expect(verifyTrackingToken(KEY, tokens.click.slice(0, OPEN_TOKEN_LENGTH))).toBeNull();
      const cut = bytesOf(tokens.click).subarray(0, 48).toString('base64url');
      expect(verifyTrackingToken(KEY, cut)).toBeNull();
      // Even signed: a click's bytes marked as an open do not make an open token.
      const marked = withByte(bodyOf(tokens.click).subarray(0, LINK_INDEX_AT), 1, 0x63);
      expect(verifyTrackingToken(KEY, resealed(KEY, marked))).toBeNull();
    });

    it('refuses a token with a byte or a character too many, or padded', () => {
      const longer = Buffer.concat([bytesOf(tokens.open), Buffer.from([0])]).toString('base64url');
      expect(verifyTrackingToken(KEY, longer)).toBeNull();
      expect(verifyTrackingToken(KEY, `${tokens.open}A`)).toBeNull();
      expect(verifyTrackingToken(KEY, `${tokens.click}=`)).toBeNull();
      expect(verifyTrackingToken(KEY, `${tokens.click} `)).toBeNull();
    });

    it('refuses another version or kind, even signed', () => {
      for (const token of [tokens.open, tokens.click]) {
        for (const version of [0, 1, 3]) {
          const body = withByte(bodyOf(token), 0, version);
          expect(verifyTrackingToken(KEY, resealed(KEY, body))).toBeNull();
        }
        expect(
          verifyTrackingToken(KEY, resealed(KEY, withByte(bodyOf(token), 1, 0x78))),
        ).toBeNull();
      }
      // An open's kind byte on a click's layout, and a click's on an open's.
      const openOnClick = withByte(bodyOf(tokens.click), 1, 0x6f);
      const clickOnOpen = withByte(bodyOf(tokens.open), 1, 0x63);
      expect(verifyTrackingToken(KEY, resealed(KEY, openOnClick))).toBeNull();
      expect(verifyTrackingToken(KEY, resealed(KEY, clickOnOpen))).toBeNull();
      // The resealing itself is right: the unchanged body passes.
      expect(verifyTrackingToken(KEY, resealed(KEY, bodyOf(tokens.click)))).toEqual({
        kind: 'click',
        ...CLICK,
      });
    });

    it('refuses a link past the largest table and its trap, even signed', () => {
      for (const linkIndex of [1001, 0xffff]) {
        const body = bodyOf(tokens.click);
        body.writeUInt16BE(linkIndex, LINK_INDEX_AT);
        expect(verifyTrackingToken(KEY, resealed(KEY, body))).toBeNull();
      }
    });

    it('refuses a language past the known ones, even signed', () => {
      for (const token of [tokens.open, tokens.click]) {
        for (const index of [LOCALES.length, 255]) {
          const body = withByte(bodyOf(token), LOCALE_AT, index);
          expect(verifyTrackingToken(KEY, resealed(KEY, body))).toBeNull();
        }
      }
    });

    it('refuses empty, huge, non-base64url and prototype-like texts', () => {
      const texts = [
        '',
        'A',
        'A'.repeat(OPEN_TOKEN_LENGTH),
        'A'.repeat(CLICK_TOKEN_LENGTH),
        'A'.repeat(1_000_000),
        tokens.open.repeat(1000),
        '__proto__',
        'constructor',
        'hasOwnProperty',
        '__proto__'.padEnd(OPEN_TOKEN_LENGTH, '_'),
        'constructor'.padEnd(CLICK_TOKEN_LENGTH, '_'),
        // Padded standard base64: 60 characters.
        bytesOf(tokens.click).toString('base64'),
        encodeURIComponent(`${tokens.open}+`),
        tokens.open.replace(/./u, '\u0000'),
        '\ud800'.repeat(OPEN_TOKEN_LENGTH),
      ];
      for (const text of texts) expect(verifyTrackingToken(KEY, text)).toBeNull();
    });

    it('answers null, never throws, for any text', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 80 }),
            fc.string({
              unit: fc.constantFrom(...BASE64URL_ALPHABET),
              minLength: OPEN_TOKEN_LENGTH,
              maxLength: CLICK_TOKEN_LENGTH,
            }),
          ),
          (text) => {
            expect(verifyTrackingToken(KEY, text)).toBeNull();
          },
        ),
        { numRuns: 2000 },
      );
    });
  });

  describe('signing', () => {
    it('refuses a campaign id that is not an ObjectId, a link past the table and a recipient key it did not make', () => {
      for (const campaignId of ['', CAMPAIGN.slice(1), `${CAMPAIGN}0`, 'g'.repeat(24), ADDRESS]) {
        expect(() => signOpenToken(KEY, { ...OPEN, campaignId })).toThrow(RangeError);
      }
      for (const linkIndex of [-1, 1001, 1.5, Number.NaN]) {
        expect(() => signClickToken(KEY, { ...CLICK, linkIndex })).toThrow(
          new RangeError('A link index is an integer from 0 to 1000'),
        );
      }
      for (const sentAt of [new Date(-1000), new Date(2 ** 32 * 1000), new Date(Number.NaN)]) {
        expect(() => signOpenToken(KEY, { ...OPEN, sentAt })).toThrow(
          new RangeError('A sending time is between 1970 and 2106'),
        );
      }
      expect(() => signOpenToken(KEY, { ...OPEN, locale: 'de' as never })).toThrow(
        new RangeError('A language is one of en, fr, ar'),
      );
      for (const recipientKey of ['', ADDRESS, RECIPIENT.slice(1), `${RECIPIENT}A`]) {
        expect(() => signClickToken(KEY, { ...CLICK, recipientKey })).toThrow(RangeError);
      }
    });

    it('keys its MAC with a key derived for tracking alone', () => {
      const secret = 'tracking-token-test-secret-of-32-characters';
      expect(KEY.macKey).toHaveLength(32);
      expect(KEY.macKey.includes(Buffer.from(secret))).toBe(false);
      expect(trackingTokenKey(secret).macKey.equals(KEY.macKey)).toBe(true);
    });
  });
});
