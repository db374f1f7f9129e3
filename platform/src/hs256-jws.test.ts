import jwt from 'jsonwebtoken';
import { hmacSha256Of } from './hmac-sha256';
import { signHs256Jws } from './hs256-jws';

const SECRET = 'jws-test-secret-of-at-least-32-characters';
const mac = hmacSha256Of(Buffer.from(SECRET));

/**
 * Tokens signed here and by jsonwebtoken must be one text: links already
 * mailed were signed there, and jsonwebtoken verifies every one.
 */
describe('signHs256Jws', () => {
  it.each(['a@b.tn', 'rïm@exämple.tn', 'o"neil\\x@example.com', 'ليلى@example.tn'])(
    'writes what jsonwebtoken writes for the same claims, for %s',
    (subject) => {
      expect(signHs256Jws({ cmp: '0123456789abcdef01234567', aud: 'use', sub: subject }, mac)).toBe(
        jwt.sign({ cmp: '0123456789abcdef01234567' }, SECRET, {
          algorithm: 'HS256',
          audience: 'use',
          subject,
          noTimestamp: true,
        }),
      );
    },
  );

  it('names the key id in the header as jsonwebtoken does, and each id its own', () => {
    const token = signHs256Jws({ aud: 'use', sub: 'a@b.tn' }, mac, '227');
    expect(token).toBe(
      jwt.sign({}, SECRET, { audience: 'use', subject: 'a@b.tn', keyid: '227', noTimestamp: true }),
    );
    expect(jwt.decode(token, { complete: true })?.header).toEqual({
      alg: 'HS256',
      typ: 'JWT',
      kid: '227',
    });
    expect(jwt.decode(signHs256Jws({ sub: 'a' }, mac, '228'), { complete: true })?.header.kid).toBe(
      '228',
    );
    expect(jwt.decode(signHs256Jws({ sub: 'a' }, mac), { complete: true })?.header).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
  });

  it('is verified by jsonwebtoken with the key, and only with it', () => {
    const token = signHs256Jws({ aud: 'use', sub: 'a@b.tn' }, mac);
    expect(jwt.verify(token, SECRET, { algorithms: ['HS256'], audience: 'use' })).toEqual({
      aud: 'use',
      sub: 'a@b.tn',
    });
    expect(() => jwt.verify(token, `${SECRET}!`, { algorithms: ['HS256'] })).toThrow(
      'invalid signature',
    );
  });
});
