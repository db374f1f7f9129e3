import { screen, waitFor } from '@testing-library/react';
import { openAddress } from '../lib/page-address';
import { renderApp, renderWithProviders } from '../testing/render';
import { LanguageSelector } from './language-selector';

jest.mock('../lib/page-address', () => ({ openAddress: jest.fn() }));

// Switching language in place fetches that language's catalogues and, for
// Arabic, the right-to-left styling, then re-renders: allow for a busy machine.
const SWITCH = { timeout: 5_000 };

describe('language selection on the public site', () => {
  afterEach(() => jest.mocked(openAddress).mockClear());

  it("opens the page's address in the chosen language, keeping its query and anchor", async () => {
    const { user } = await renderApp('/portfolio?ref=mail#top');

    await user.selectOptions(screen.getByLabelText('Language'), 'ar');

    expect(openAddress).toHaveBeenCalledWith('/ar/portfolio?ref=mail#top');
    expect(window.localStorage.getItem('i18nextLng')).toBe('ar');
  });

  it('goes from a language back to the English address, and home to home', async () => {
    const { user } = await renderApp('/fr/');

    await user.selectOptions(screen.getByLabelText('Langue'), 'en');

    expect(openAddress).toHaveBeenCalledWith('/');
    expect(window.localStorage.getItem('i18nextLng')).toBe('en');
  });

  it('stores no preference until the visitor chooses a language', async () => {
    const { user } = await renderApp('/services');
    expect(window.localStorage.getItem('i18nextLng')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Language'), 'fr');

    expect(window.localStorage.getItem('i18nextLng')).toBe('fr');
    expect(openAddress).toHaveBeenCalledWith('/fr/services');
  });
});

describe('language selection elsewhere (the admin area)', () => {
  afterEach(() => {
    document.documentElement.lang = 'en';
    document.documentElement.dir = 'ltr';
  });

  it('switches the page in place to right-to-left Arabic and remembers the choice', async () => {
    const { user } = await renderWithProviders(<LanguageSelector />, { path: '/admin/login' });

    await user.selectOptions(screen.getByLabelText('Language'), 'ar');

    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'), SWITCH);
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(window.localStorage.getItem('i18nextLng')).toBe('ar');
    expect(await screen.findByLabelText('اللغة', {}, SWITCH)).toBeInTheDocument();
    expect(openAddress).not.toHaveBeenCalled();
  });
});
