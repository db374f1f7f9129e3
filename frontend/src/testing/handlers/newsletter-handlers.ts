import type {
  ApiErrorBody,
  NewsletterConfirmResponse,
  NewsletterSubscribeResponse,
  NewsletterUnsubscribeResponse,
  PublicListsResponse,
} from '@agency/contracts';
import { http, HttpResponse } from 'msw';

export const NEWSLETTER_URL = '/api/newsletter';
export const NEWSLETTER_CONFIRM_URL = '/api/newsletter/confirm';
export const NEWSLETTER_UNSUBSCRIBE_URL = '/api/newsletter/unsubscribe';
export const PUBLIC_LISTS_URL = '/api/newsletter/lists';

/** The public lists answer: none unless a test offers some (see `offerPublicLists`). */
export function offerPublicLists(items: PublicListsResponse['items']) {
  return http.get(PUBLIC_LISTS_URL, ({ request }) =>
    HttpResponse.json<PublicListsResponse>({
      locale: (new URL(request.url).searchParams.get('lang') ??
        'en') as PublicListsResponse['locale'],
      items,
    }),
  );
}

const accepted = () =>
  HttpResponse.json<NewsletterSubscribeResponse>({ status: 'accepted' }, { status: 202 });

/** The happy paths: 202 to a subscription, 200 to a confirmation or an unsubscribe. */
export const newsletterHandlers = [
  offerPublicLists([]),
  http.post(NEWSLETTER_URL, accepted),
  http.post(NEWSLETTER_CONFIRM_URL, () =>
    HttpResponse.json<NewsletterConfirmResponse>({ status: 'confirmed', locale: 'en' }),
  ),
  http.post(NEWSLETTER_UNSUBSCRIBE_URL, () =>
    HttpResponse.json<NewsletterUnsubscribeResponse>({ status: 'unsubscribed', locale: 'en' }),
  ),
];

/** Records every body POSTed to `url`, then answers with `respond`. */
export function recordNewsletterRequests(
  url: string = NEWSLETTER_URL,
  respond: () => Response = accepted,
) {
  const bodies: unknown[] = [];
  const handler = http.post(url, async ({ request }) => {
    bodies.push(await request.json());
    return respond();
  });
  return { handler, bodies };
}

/** Holds the subscription open until the test calls `release()`, to observe the busy state. */
export function pendingSubscription() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const handler = http.post(NEWSLETTER_URL, async () => {
    await gate;
    return accepted();
  });
  return { handler, release: () => release() };
}

/** Answers `url` with the API's error body and `status`. */
export function newsletterError(url: string, status: number, code: ApiErrorBody['error']['code']) {
  return http.post(url, () =>
    HttpResponse.json<ApiErrorBody>({ error: { code, message: 'refused' } }, { status }),
  );
}
