import {
  managePageUrl,
  oneClickUnsubscribeUrl,
  tokenLinks,
  unsubscribePageUrl,
} from './newsletter-links';

const SITE = 'https://agency.example/shop';
const JWS =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiJuZXdzbGV0dGVyIiwic3ViIjoiYUBiLnRuIn0.c2lnbmF0dXJlLV8';

/** A campaign's footer links, each page's address made once: the very links made one by one. */
describe('tokenLinks', () => {
  const makers = [
    (token: string) => unsubscribePageUrl(SITE, token, 'ar'),
    (token: string) => managePageUrl(SITE, token, 'fr'),
    (token: string) => oneClickUnsubscribeUrl(SITE, token),
  ];

  it.each(makers.map((link, index) => [index, link] as const))(
    'sets each token into link %i as making it whole does',
    (_, link) => {
      const links = tokenLinks(link);
      for (const token of [JWS, 'a', `${JWS}x`]) expect(links(token)).toBe(link(token));
      expect(links(JWS)).toContain(`token=${JWS}`);
    },
  );

  it('makes a token that a query would encode, or a page of another shape, as the page does', () => {
    const links = tokenLinks(makers[0] ?? String);
    for (const token of ['a b', 'a&lang=en', 'ü', 'a+b', 'a/b', 'a=b']) {
      expect(links(token)).toBe(unsubscribePageUrl(SITE, token, 'ar'));
    }
    const tokenLast = (token: string) => `https://agency.example/p?lang=fr&token=${token}`;
    expect(tokenLinks(tokenLast)(JWS)).toBe(tokenLast(JWS));
    const noToken = (token: string) => `https://agency.example/p?t=${token}&lang=fr`;
    expect(tokenLinks(noToken)(JWS)).toBe(noToken(JWS));
    const tokenAlone = (token: string) => `https://agency.example/p?token=${token}`;
    expect(tokenLinks(tokenAlone)(JWS)).toBe(tokenAlone(JWS));
    const tokenInPath = (token: string) => `https://agency.example/p?token=x${token}&a=1`;
    expect(tokenLinks(tokenInPath)(JWS)).toBe(tokenInPath(JWS));
    const short = (token: string) => `abcdef&x=${token}`;
    expect(tokenLinks(short)(JWS)).toBe(short(JWS));
  });

  it('makes the page once, not once per token', () => {
    const tokenAlone = jest.fn((token: string) => `https://agency.example/p?token=${token}`);
    const links = tokenLinks(tokenAlone);
    expect([links(JWS), links('b')]).toEqual([
      `https://agency.example/p?token=${JWS}`,
      'https://agency.example/p?token=b',
    ]);
    expect(tokenAlone).toHaveBeenCalledTimes(1);
    const linksOf = jest.fn((token: string) => unsubscribePageUrl(SITE, token, 'en'));
    tokenLinks(linksOf)(JWS);
    expect(linksOf).toHaveBeenCalledTimes(1);
  });
});
