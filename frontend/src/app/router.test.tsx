import { screen, waitFor } from '@testing-library/react';
import { renderApp, UNSTYLED } from '../testing/render';

describe('app routes', () => {
  it('shows the 404 page, with a way home, for an unknown path', async () => {
    await renderApp('/no/such/page', UNSTYLED);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page Not Found' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it.each(['/services', '/services/meta-ads', '/services-dedicated'])(
    'shows the services page at %s',
    async (path) => {
      await renderApp(path, UNSTYLED);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Our Services' }),
      ).toBeInTheDocument();
    },
  );

  it('shows the thank-you steps', async () => {
    await renderApp('/thank-you', UNSTYLED);

    expect(await screen.findByRole('heading', { name: 'What Happens Next?' })).toBeInTheDocument();
    for (const step of ['Review', 'Strategy', 'Response']) {
      expect(screen.getByRole('heading', { name: step })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'View Our Portfolio' })).toHaveAttribute(
      'href',
      '/portfolio',
    );
    expect(screen.getByText('Response time').previousElementSibling).toHaveTextContent(/^24h$/);
  });

  it('gives the response time in the words of each language, its figure left to right', async () => {
    await renderApp('/ar/thank-you', UNSTYLED);

    const label = await screen.findByText('مدة الرد');
    const figure = label.previousElementSibling;
    // The unit is Arabic text outside the figure's left-to-right isolate.
    expect(figure?.textContent).toBe('24\u00a0ساعة');
    expect(figure?.querySelector('bdi')).toHaveAttribute('dir', 'ltr');
    expect(figure?.querySelector('bdi')).toHaveTextContent(/^24$/);
  });

  it('sends /admin to sign-in when no admin token is stored', async () => {
    const { location } = await renderApp('/admin', UNSTYLED);

    await waitFor(() => expect(location().pathname).toBe('/admin/login'));
    expect(await screen.findByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
  });

  it('sends /admin to the dashboard when an admin token is stored', async () => {
    window.localStorage.setItem('admin_token', 'token');
    window.localStorage.setItem(
      'admin_user',
      JSON.stringify({ username: 'admin', email: 'admin@example.com', role: 'admin' }),
    );
    const { location } = await renderApp('/admin', UNSTYLED);

    await waitFor(() => expect(location().pathname).toBe('/admin/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });
});
