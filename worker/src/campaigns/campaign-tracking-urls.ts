import { API_ROUTES, apiPath, type Locale } from '@agency/contracts';
import {
  recipientKeysOf,
  recipientTrackingTokens,
  trackingTokenKey,
  type CampaignSendTracking,
  type RecipientTrackingTokens,
  type TrackingUrls,
} from '@agency/platform';

/** What a campaign's mail tracks, once its send has fixed its key and link table. */
export interface SendTracking {
  campaignId: string;
  /** The campaign's tracking key: each recipient's key is made under it. */
  key: string;
  opens: boolean;
  clicks: boolean;
  links: readonly string[];
}

/**
 * The tracking a campaign's mail carries: none while it has no key (a send
 * that tracks nothing, or whose key was destroyed).
 */
export function sendTrackingOf(
  campaignId: string,
  tracking: CampaignSendTracking,
): SendTracking | undefined {
  const { key, opens, clicks, links } = tracking;
  return key === null ? undefined : { campaignId, key, opens, clicks, links };
}

/** Makes one recipient's tracking addresses in one mail; `source` is where the audience walk found them. */
export type RecipientTrackingUrls = (
  tracking: SendTracking,
  address: string,
  locale: Locale,
  source: number | undefined,
) => TrackingUrls;

/**
 * The recipients' tracking addresses, through the site (`SITE_URL`, whose
 * `/api` reaches the API): the token key is derived once, the campaign's
 * recipient-key HMAC prepared once per campaign key; per mail, the
 * recipient's key and the tokens' shared fields are made once, on the first
 * address asked (after the address was checked), and each link's token once,
 * though the HTML and the text both carry it. The sending time is when the
 * mail is built.
 */
export function recipientTrackingUrls(
  siteUrl: string,
  mailLinkSecret: string,
): RecipientTrackingUrls {
  const tokenKey = trackingTokenKey(mailLinkSecret);
  const site = siteUrl.replace(/\/+$/, '');
  // A token is base64url, which a path takes as it is: each address is the route's prefix and the token.
  const clickPrefix = `${site}${apiPath(API_ROUTES.trackClick, { token: '' })}`;
  const openPrefix = `${site}${apiPath(API_ROUTES.trackOpen, { token: '' })}`;
  let campaignKeys: { key: string; recipientKeyOf: (address: string) => string } | undefined;
  const recipientKeyOf = (campaignKey: string, address: string) => {
    if (campaignKeys?.key !== campaignKey) {
      campaignKeys = { key: campaignKey, recipientKeyOf: recipientKeysOf(campaignKey) };
    }
    return campaignKeys.recipientKeyOf(address);
  };
  return (tracking, address, locale, source) => {
    const sentAt = new Date();
    const { campaignId } = tracking;
    let tokens: RecipientTrackingTokens | undefined;
    const tokensOfMail = () =>
      (tokens ??= recipientTrackingTokens(tokenKey, {
        campaignId,
        recipientKey: recipientKeyOf(tracking.key, address),
        sentAt,
        locale,
        source: source ?? null,
      }));
    // By link index: a campaign's indexes run from 0, a mail's links mostly in order.
    const clicks: string[] = [];
    return {
      click(linkIndex) {
        let url = clicks[linkIndex];
        if (url === undefined) {
          url = clickPrefix + tokensOfMail().click(linkIndex);
          clicks[linkIndex] = url;
        }
        return url;
      },
      open: () => openPrefix + tokensOfMail().open(),
    };
  };
}
