import { screen } from '@testing-library/react';
import { i18n } from '../../testing/i18n';
import {
  NEWSLETTER_CONFIRM_URL,
  NEWSLETTER_UNSUBSCRIBE_URL,
  newsletterError,
  recordNewsletterRequests,
} from '../../testing/handlers/newsletter-handlers';
import { server } from '../../testing/msw-server';
import { renderApp, UNSTYLED } from '../../testing/render';

describe('the confirmation page', () => {
  it("confirms the link's token at once and says so in the link's language", async () => {
    const recorder = recordNewsletterRequests(NEWSLETTER_CONFIRM_URL, () =>
      Response.json({ status: 'confirmed', locale: 'ar' }),
    );
    server.use(recorder.handler);

    await renderApp('/newsletter/confirm?token=abc.def&lang=ar', UNSTYLED);

    expect(await screen.findByRole('heading', { name: 'تم تأكيد الاشتراك' })).toBeInTheDocument();
    expect(recorder.bodies).toEqual([{ token: 'abc.def' }]);
    expect(i18n.resolvedLanguage).toBe('ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('says an expired link has expired and offers to subscribe again', async () => {
    server.use(newsletterError(NEWSLETTER_CONFIRM_URL, 410, 'LINK_EXPIRED'));

    await renderApp('/newsletter/confirm?token=old&lang=en', UNSTYLED);

    expect(
      await screen.findByRole('heading', { name: 'This link has expired' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Subscribe again' })).toHaveAttribute(
      'href',
      '/#newsletter',
    );
  });

  it.each([
    ['a token the API does not know', '/newsletter/confirm?token=forged', 404],
    ['no token at all', '/newsletter/confirm', 0],
  ])('says the link is not valid for %s', async (_label, path, status) => {
    const recorder = recordNewsletterRequests(NEWSLETTER_CONFIRM_URL, () =>
      Response.json({ error: { code: 'NOT_FOUND', message: 'no' } }, { status }),
    );
    if (status) server.use(recorder.handler);

    await renderApp(path, UNSTYLED);

    expect(
      await screen.findByRole('heading', { name: 'This link is not valid' }),
    ).toBeInTheDocument();
  });

  it('offers to try again when the API fails', async () => {
    server.use(newsletterError(NEWSLETTER_CONFIRM_URL, 500, 'INTERNAL'));
    const { user } = await renderApp('/newsletter/confirm?token=abc', UNSTYLED);
    await screen.findByRole('heading', { name: 'We could not confirm your subscription' });

    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(
      await screen.findByRole('heading', { name: 'Subscription confirmed' }),
    ).toBeInTheDocument();
  });
});

describe('the unsubscribe page', () => {
  it('changes nothing on opening, and unsubscribes when the button is pressed', async () => {
    const recorder = recordNewsletterRequests(NEWSLETTER_UNSUBSCRIBE_URL, () =>
      Response.json({ status: 'unsubscribed', locale: 'fr' }),
    );
    server.use(recorder.handler);
    const { user } = await renderApp('/newsletter/unsubscribe?token=xyz&lang=fr', UNSTYLED);

    expect(
      await screen.findByRole('heading', { name: 'Se désabonner de notre newsletter ?' }),
    ).toBeInTheDocument();
    expect(recorder.bodies).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Se désabonner' }));

    expect(await screen.findByRole('heading', { name: 'Vous êtes désabonné' })).toBeInTheDocument();
    expect(recorder.bodies).toEqual([{ token: 'xyz' }]);
  });

  it('says a forged link is not valid', async () => {
    server.use(newsletterError(NEWSLETTER_UNSUBSCRIBE_URL, 404, 'NOT_FOUND'));
    const { user } = await renderApp('/newsletter/unsubscribe?token=forged', UNSTYLED);

    await user.click(await screen.findByRole('button', { name: 'Unsubscribe' }));

    expect(
      await screen.findByRole('heading', { name: 'This link is not valid' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
  });

  it.each([
    ['en', 'This was a test send', 'In the mail your recipients get, it lets them unsubscribe.'],
    ['fr', "C'était un envoi de test", 'il leur permet de se désabonner'],
    ['ar', 'كان هذا إرسالًا تجريبيًا', 'يتيح لهم إلغاء الاشتراك'],
  ])(
    "says a test send's link (%s) was a test and offers nothing that unsubscribes",
    async (lang, title, explanation) => {
      const recorder = recordNewsletterRequests(NEWSLETTER_UNSUBSCRIBE_URL, () =>
        Response.json({ status: 'unsubscribed', locale: lang }),
      );
      server.use(recorder.handler);
      await renderApp(`/newsletter/unsubscribe?test=1&lang=${lang}`, UNSTYLED);

      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent(explanation);
      expect(
        screen.queryByRole('button', { name: /Unsubscribe|Se désabonner|إلغاء الاشتراك/ }),
      ).not.toBeInTheDocument();
      expect(recorder.bodies).toEqual([]);
    },
  );
});
