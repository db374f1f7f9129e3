import fc from 'fast-check';
import {
  campaignMailIdentity,
  campaignMessageId,
  campaignReturnPath,
  legacyRecipientDigest,
  mailIdentityKey,
  mailMessageId,
  mailsInMessageIds,
  mailsInReturnPaths,
  namesRecipient,
  type NamedMail,
} from './mail-identity';

const KEY = mailIdentityKey('mail-identity-test-secret-of-32-characters');
const CAMPAIGN = '0123456789abcdef01234567';

function firstOf(mails: NamedMail[]): NamedMail {
  const [mail] = mails;
  if (!mail) throw new Error('names no mail of ours');
  return mail;
}

describe('mail identities', () => {
  it('names a campaign mail by a digest only the key writes, per round and recipient', () => {
    const id = campaignMessageId(KEY, CAMPAIGN, 1, 'Ana@Example.tn ', 'agency.test');
    expect(id).toMatch(new RegExp(`^<campaign-${CAMPAIGN}-r1-k[0-9a-f]{20}@agency\\.test>$`));
    // The address is normalised: the report's spelling of it names the same mail.
    expect(campaignMessageId(KEY, CAMPAIGN, 1, 'ana@example.tn', 'agency.test')).toBe(id);
    const others = [
      campaignMessageId(
        mailIdentityKey('another-secret-of-32-characters!!'),
        CAMPAIGN,
        1,
        'ana@example.tn',
        'agency.test',
      ),
      campaignMessageId(KEY, CAMPAIGN, 2, 'ana@example.tn', 'agency.test'),
      campaignMessageId(KEY, CAMPAIGN, 1, 'omar@example.tn', 'agency.test'),
    ].map((other) => other.replace(/^<campaign-[0-9a-f]{24}-r\d+-/, ''));
    for (const digest of others) expect(id).not.toContain(digest);
    // Not the SHA-1 of the address that anyone can compute.
    expect(id).not.toContain(legacyRecipientDigest('ana@example.tn'));
  });

  it('reads back what it writes, and tells the keyed form from the SHA-1 one', () => {
    const keyed = campaignMessageId(KEY, CAMPAIGN, 3, 'ana@example.tn', 'agency.test');
    const legacy = `<campaign-${CAMPAIGN}-r3-${legacyRecipientDigest('ana@example.tn')}@agency.test>`;
    const mail = firstOf(mailsInMessageIds(keyed));
    expect(mail).toMatchObject({ kind: 'campaign', campaignId: CAMPAIGN, round: 3, keyed: true });
    expect(mailsInMessageIds(legacy)).toEqual([
      {
        kind: 'campaign',
        campaignId: CAMPAIGN,
        round: 3,
        digest: legacyRecipientDigest('ana@example.tn'),
        keyed: false,
      },
    ]);
    expect(namesRecipient(KEY, mail, 'ANA@example.tn')).toBe(true);
    expect(namesRecipient(KEY, mail, 'omar@example.tn')).toBe(false);

    const ack = mailMessageId(
      KEY,
      'contact-ack-65a1b2c3d4e5f60718293a4b',
      'ana@example.tn',
      'agency.test',
    );
    const transactional = firstOf(mailsInMessageIds(ack));
    expect(transactional).toMatchObject({
      kind: 'transactional',
      mailName: 'contact-ack-65a1b2c3d4e5f60718293a4b',
      keyed: true,
    });
    expect(namesRecipient(KEY, transactional, 'ana@example.tn')).toBe(true);
    // The digest is bound to its mail: moved onto another mail's name it names nobody.
    const moved = ack.replace('contact-ack-', 'subscriber-');
    expect(namesRecipient(KEY, firstOf(mailsInMessageIds(moved)), 'ana@example.tn')).toBe(false);
  });

  it('finds Message-IDs in a References header or a quoted header block', () => {
    const one = campaignMessageId(KEY, CAMPAIGN, 1, 'ana@example.tn', 'agency.test');
    const two = mailMessageId(KEY, 'password-reset-abc-0', 'omar@example.tn', 'agency.test');
    const quoted = `Received: from x\r\nMessage-ID: ${one}\r\nReferences: <other@x.example> ${two}\r\n`;
    expect(mailsInMessageIds(quoted).map(({ kind }) => kind)).toEqual([
      'campaign',
      'transactional',
    ]);
    expect(mailsInMessageIds(one.slice(1, -1))).toHaveLength(1);
    expect(mailsInMessageIds('<hello@example.tn> not-an-id')).toEqual([]);
  });

  it('writes a return path whose local part stays within SMTP limits, and reads it back', () => {
    const path = campaignReturnPath(
      KEY,
      'bounces@agency.test',
      CAMPAIGN,
      999_999,
      'ana@example.tn',
    );
    expect(path.slice(0, path.indexOf('@')).length).toBeLessThanOrEqual(64);
    const mail = firstOf(mailsInReturnPaths(`<${path}>`));
    expect(mail).toMatchObject({ campaignId: CAMPAIGN, round: 999_999, keyed: true });
    expect(namesRecipient(KEY, mail, 'ana@example.tn')).toBe(true);
    const legacy = `bounces+c${CAMPAIGN}.r1.${legacyRecipientDigest('ana@example.tn')}@agency.test`;
    expect(mailsInReturnPaths(legacy)).toEqual([expect.objectContaining({ keyed: false })]);
  });

  it('reads a megabyte of text without a separator in linear time', () => {
    const started = Date.now();
    expect(mailsInMessageIds(`campaign-${'a'.repeat(1024 * 1024)}-k@x`)).toEqual([]);
    expect(mailsInReturnPaths(`+c${'0'.repeat(1024 * 1024)}`)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("makes a campaign mail's Message-ID and return path from one digest, as each is made alone", () => {
    const keys = [KEY, mailIdentityKey('another-secret-of-32-characters!!')];
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.stringMatching(/^[0-9a-f]{24}$/),
        fc.integer({ min: 1, max: 999_999 }),
        fc.oneof(fc.emailAddress(), fc.string({ unit: 'grapheme', maxLength: 40 })),
        fc.stringMatching(/^[a-z0-9.-]{1,30}$/),
        fc.stringMatching(/^[a-z0-9.+-]{1,20}@[a-z0-9.-]{1,20}$/),
        (key, campaignId, round, address, domain, base) => {
          expect(campaignMailIdentity(key, campaignId, round, address, domain, base)).toEqual({
            messageId: campaignMessageId(key, campaignId, round, address, domain),
            returnPath: campaignReturnPath(key, base, campaignId, round, address),
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('makes no return path for a campaign mail when none is set up', () => {
    for (const base of [undefined, '']) {
      expect(campaignMailIdentity(KEY, CAMPAIGN, 2, 'ana@example.tn', 'agency.test', base)).toEqual(
        {
          messageId: campaignMessageId(KEY, CAMPAIGN, 2, 'ana@example.tn', 'agency.test'),
          returnPath: undefined,
        },
      );
    }
  });
});
