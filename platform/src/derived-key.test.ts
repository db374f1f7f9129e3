import { hkdfSync } from 'node:crypto';
import { derivedKey, derivedKeyBytes } from './derived-key';

describe('keys derived from one secret', () => {
  const secret = 'a mail link secret of at least thirty-two characters';

  it('are HKDF-SHA256 of the secret with the use salt and info, so links already mailed still verify', () => {
    expect(
      derivedKeyBytes(secret, 'agency manage links', 'manage link key, period 1, version 1'),
    ).toEqual(
      Buffer.from(
        hkdfSync(
          'sha256',
          secret,
          'agency manage links',
          'manage link key, period 1, version 1',
          32,
        ),
      ),
    );
  });

  it('differ from one use to another, and from one secret to another', () => {
    const manage = derivedKeyBytes(secret, 'agency manage links', 'v1');
    expect(derivedKeyBytes(secret, 'agency privacy links', 'v1')).not.toEqual(manage);
    expect(derivedKeyBytes(secret, 'agency manage links', 'v2')).not.toEqual(manage);
    expect(derivedKeyBytes(`${secret}!`, 'agency manage links', 'v1')).not.toEqual(manage);
  });

  it('are derived once per use, then taken from the cache', () => {
    expect(derivedKey(secret, 'salt', 'info')).toBe(derivedKey(secret, 'salt', 'info'));
  });
});
