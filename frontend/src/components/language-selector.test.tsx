import { screen, waitFor } from '@testing-library/react';
import arabicPortfolio from '../features/portfolio/locales/ar.json';
import { renderApp } from '../testing/render';

// Switching language fetches that language's catalogues and, for Arabic, the
// right-to-left styling, then re-renders the page: allow for a busy machine.
const SWITCH = { timeout: 5_000 };

describe('language selection', () => {
  afterEach(() => {
    document.documentElement.lang = 'en';
    document.documentElement.dir = 'ltr';
  });

  it('switches the page to right-to-left Arabic and remembers the choice', async () => {
    const { user } = await renderApp('/portfolio');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');

    await user.selectOptions(screen.getByLabelText('Language'), 'ar');

    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'), SWITCH);
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(window.localStorage.getItem('i18nextLng')).toBe('ar');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: arabicPortfolio.portfolio.title },
        SWITCH,
      ),
    ).toBeInTheDocument();
  });

  it('returns to left-to-right for French', async () => {
    const { user } = await renderApp('/portfolio');

    await user.selectOptions(screen.getByLabelText('Language'), 'ar');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'), SWITCH);
    await user.selectOptions(screen.getByLabelText('اللغة'), 'fr');

    await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'fr'), SWITCH);
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('stores no preference until the visitor chooses a language', async () => {
    const { user } = await renderApp('/portfolio');
    expect(window.localStorage.getItem('i18nextLng')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Language'), 'fr');

    await waitFor(() => expect(window.localStorage.getItem('i18nextLng')).toBe('fr'), SWITCH);
    expect(
      await screen.findByRole('link', { name: "Aller à la page d'accueil" }, SWITCH),
    ).toBeVisible();
  });
});
