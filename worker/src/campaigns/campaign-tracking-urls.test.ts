import {
  newCampaignTrackingKey,
  recipientKeyOf,
  trackingTokenKey,
  verifyClickToken,
  verifyOpenToken,
} from '@agency/platform';
import { recipientTrackingUrls, type SendTracking } from './campaign-tracking-urls';

const SECRET = 'tracking-urls-test-secret-of-32-characters';
const TOKEN_KEY = trackingTokenKey(SECRET);
const SITE = 'https://agency.example/';

function campaign(campaignId: string): SendTracking {
  return { campaignId, key: newCampaignTrackingKey(), opens: true, clicks: true, links: [] };
}

const tokenOf = (url: string, route: string) => {
  expect(url.startsWith(`https://agency.example/api/t/${route}/`)).toBe(true);
  return url.slice(url.lastIndexOf('/') + 1);
};

/** The tracking addresses of the worker's mail: what each carries, mail after mail and campaign after campaign. */
describe('recipientTrackingUrls', () => {
  it("signs each mail's pixel and links for its recipient, campaign, language and source", () => {
    const urlsOf = recipientTrackingUrls(SITE, SECRET);
    const first = campaign('0123456789abcdef01234567');
    const urls = urlsOf(first, 'Leila@Example.TN', 'ar', 2);
    const click = verifyClickToken(TOKEN_KEY, tokenOf(urls.click(4), 'c'));
    const open = verifyOpenToken(TOKEN_KEY, tokenOf(urls.open(), 'o'));
    const recipientKey = recipientKeyOf(first.key, 'leila@example.tn');
    expect(click).toMatchObject({ campaignId: first.campaignId, recipientKey, linkIndex: 4 });
    expect(click).toMatchObject({ locale: 'ar', source: 2 });
    expect(open).toMatchObject({ campaignId: first.campaignId, recipientKey, locale: 'ar' });
    // The HTML and the text carry one link's address: made once per mail.
    expect(urls.click(4)).toBe(urls.click(4));
    expect(
      verifyOpenToken(TOKEN_KEY, tokenOf(urlsOf(first, 'a@b.tn', 'en', undefined).open(), 'o')),
    ).toMatchObject({ recipientKey: recipientKeyOf(first.key, 'a@b.tn'), source: null });
  });

  it("gives each of a mail's links its own address, the same each time it is asked", () => {
    const urls = recipientTrackingUrls(SITE, SECRET)(
      campaign('0123456789abcdef01234567'),
      'a@b.tn',
      'en',
      0,
    );
    // Asked out of order and again, as a body's slots and the other body's ask.
    const indexes = [2, 0, 5, 2, 1, 0, 5];
    const first = new Map<number, string>();
    for (const linkIndex of indexes) {
      const url = urls.click(linkIndex);
      expect(verifyClickToken(TOKEN_KEY, tokenOf(url, 'c'))).toMatchObject({ linkIndex });
      expect(url).toBe(first.get(linkIndex) ?? url);
      first.set(linkIndex, url);
    }
  });

  it("keys each campaign's recipients with that campaign's key, one campaign after another", () => {
    const urlsOf = recipientTrackingUrls(SITE, SECRET);
    const first = campaign('0123456789abcdef01234567');
    const second = campaign('89abcdef0123456789abcdef');
    for (const tracking of [first, second, first]) {
      const open = verifyOpenToken(
        TOKEN_KEY,
        tokenOf(urlsOf(tracking, 'a@b.tn', 'fr', 0).open(), 'o'),
      );
      expect(open).toMatchObject({
        campaignId: tracking.campaignId,
        recipientKey: recipientKeyOf(tracking.key, 'a@b.tn'),
      });
    }
  });
});
