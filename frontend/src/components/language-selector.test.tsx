import { screen, waitFor } from '@testing-library/react';
import { renderApp } from '../testing/render';

describe('language selection', () => {
  afterEach(() => {
    document.documentElement.lang = 'en';
    document.documentElement.dir = 'ltr';
  });

  it('switches the page to right-to-left Arabic and remembers the choice', async () => {
    const { user } = await renderApp('/');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');

    await user.selectOptions(screen.getByLabelText('Language'), 'ar');

    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(window.localStorage.getItem('i18nextLng')).toBe('ar');
    expect(await screen.findByLabelText('الاسم الأول')).toBeInTheDocument();
  });

  it('returns to left-to-right for French', async () => {
    const { user } = await renderApp('/');

    await user.selectOptions(screen.getByLabelText('Language'), 'ar');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    await user.selectOptions(screen.getByLabelText('اللغة'), 'fr');

    await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'fr'));
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('stores no preference until the visitor chooses a language', async () => {
    const { user } = await renderApp('/');
    expect(window.localStorage.getItem('i18nextLng')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Language'), 'fr');

    await waitFor(() => expect(window.localStorage.getItem('i18nextLng')).toBe('fr'));
    expect(await screen.findByRole('link', { name: "Aller à la page d'accueil" })).toBeVisible();
  });
});
