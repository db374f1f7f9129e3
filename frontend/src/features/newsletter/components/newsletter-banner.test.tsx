import { screen, waitFor } from '@testing-library/react';
import {
  NEWSLETTER_URL,
  newsletterError,
  offerPublicLists,
  pendingSubscription,
  recordNewsletterRequests,
} from '../../../testing/handlers/newsletter-handlers';
import { server } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { i18n } from '../../../testing/i18n';
import { NewsletterBanner } from './newsletter-banner';
import { NewsletterForm } from './newsletter-form';

const emailField = () => screen.getByLabelText(/email address|adresse e-mail|البريد الإلكتروني/i);
const subscribeButton = () => screen.getByRole('button', { name: /subscrib|abonner|اشترك/i });

describe('NewsletterBanner', () => {
  it.each([
    ['en', /count when they are opened and which of their links are clicked.*never recorded/],
    ['fr', /compter leurs ouvertures et les clics.*jamais enregistrés/],
    ['ar', /فتحها والنقر على روابطها.*لا نسجّل أبدًا/],
  ])('in %s, says what its mails may record before anyone subscribes', async (lng, text) => {
    await i18n.changeLanguage(lng);
    await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />);
    expect(screen.getByText(text)).toBeVisible();
  });

  it.each([
    ['en', 'Read how we handle your data.', '/privacy'],
    ['fr', 'Lire comment nous traitons vos données.', '/fr/privacy'],
    ['ar', 'اقرأ كيف نتعامل مع بياناتك.', '/ar/privacy'],
  ])(
    'in %s, links that sentence to the privacy page in the same language',
    async (lng, name, href) => {
      await i18n.changeLanguage(lng);
      await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />, {
        path: href.replace('privacy', ''),
      });
      expect(screen.getByRole('link', { name })).toHaveAttribute('href', href);
    },
  );

  it('sends the e-mail with the page language, toasts success and resets the field', async () => {
    const recorder = recordNewsletterRequests();
    server.use(recorder.handler);
    await i18n.changeLanguage('fr');
    const { user } = await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />);

    await user.type(emailField(), '  amel@example.tn ');
    await user.click(subscribeButton());

    expect(await screen.findByText('Inscription réussie !')).toBeInTheDocument();
    expect(screen.getByText('Merci de vous être abonné à notre newsletter.')).toBeInTheDocument();
    expect(recorder.bodies).toEqual([{ email: 'amel@example.tn', locale: 'fr' }]);
    expect(emailField()).toHaveValue('');
    expect(screen.getByRole('status')).toHaveTextContent('valable 7 jours');
  });

  it('offers the public lists in the page language and sends the ticked ones', async () => {
    const recorder = recordNewsletterRequests();
    server.use(
      recorder.handler,
      offerPublicLists([
        { id: 'a'.repeat(24), name: 'Actualités', description: 'Chaque mois' },
        { id: 'b'.repeat(24), name: 'Événements', description: null },
      ]),
    );
    await i18n.changeLanguage('fr');
    const { user } = await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />);

    const options = await screen.findByRole('group', {
      name: 'Choisissez aussi ce que vous souhaitez recevoir :',
    });
    expect(options).toHaveTextContent('Actualités – Chaque mois');
    await user.click(screen.getByRole('checkbox', { name: /Événements/ }));
    await user.type(emailField(), 'amel@example.tn');
    await user.click(subscribeButton());

    expect(await screen.findByText('Inscription réussie !')).toBeInTheDocument();
    expect(recorder.bodies).toEqual([
      { email: 'amel@example.tn', locale: 'fr', listIds: ['b'.repeat(24)] },
    ]);
    expect(screen.getByRole('checkbox', { name: /Événements/ })).not.toBeChecked();
  });

  it('shows no list options while none are public', async () => {
    await i18n.changeLanguage('en');
    await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />);
    expect(await screen.findByRole('button', { name: 'Subscribe' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it.each([
    ['en', 'not-an-email', 'Please enter a valid email address'],
    ['en', 'user.@example.com', 'Please enter a valid email address'],
    ['fr', '.dot@example.com', 'Veuillez saisir une adresse e-mail valide'],
    ['ar', 'user@-example.com', 'يرجى إدخال عنوان بريد إلكتروني صالح'],
  ])(
    'in %s, shows the reason under the field and sends nothing for %j',
    async (lng, typed, reason) => {
      const recorder = recordNewsletterRequests();
      server.use(recorder.handler);
      await i18n.changeLanguage(lng);
      const { user } = await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />);

      await user.type(emailField(), typed);
      await user.click(subscribeButton());

      await waitFor(() => expect(emailField()).toHaveAccessibleDescription(reason));
      expect(emailField()).toHaveAttribute('aria-invalid', 'true');
      expect(recorder.bodies).toEqual([]);
    },
  );

  it('reads "Subscribing..." and is disabled while the request is in flight', async () => {
    const pending = pendingSubscription();
    server.use(pending.handler);
    const { user } = await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />);

    await user.type(emailField(), 'busy@example.tn');
    await user.click(subscribeButton());

    const busy = await screen.findByRole('button', { name: 'Subscribing...' });
    expect(busy).toBeDisabled();
    pending.release();
    expect(await screen.findByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it("toasts the spec's error and keeps the address when the API refuses", async () => {
    server.use(newsletterError(NEWSLETTER_URL, 429, 'RATE_LIMITED'));
    const { user } = await renderWithProviders(<NewsletterBanner form={<NewsletterForm />} />);

    await user.type(emailField(), 'again@example.tn');
    await user.click(subscribeButton());

    expect(await screen.findByText('Subscription failed')).toBeInTheDocument();
    expect(
      screen.getByText("Please try again later or check if you're already subscribed."),
    ).toBeInTheDocument();
    expect(emailField()).toHaveValue('again@example.tn');
  });
});
