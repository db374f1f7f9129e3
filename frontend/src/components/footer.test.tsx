import { waitFor, within } from '@testing-library/react';
import { renderApp, UNSTYLED } from '../testing/render';

/** The footer, once its lazy chunk has loaded. */
const loadedFooter = () =>
  waitFor(() => {
    const footer = document.querySelector('footer');
    if (!footer) throw new Error('the footer has not loaded yet');
    return footer;
  });

describe('the footer', () => {
  it.each([
    ['/portfolio', 'Newsletter archive', '/newsletter'],
    ['/fr/portfolio', 'Archives de la newsletter', '/fr/newsletter'],
    ['/ar/portfolio', 'أرشيف النشرة الإخبارية', '/ar/newsletter'],
  ])('on %s links to the newsletter archive in the page’s language', async (path, name, href) => {
    await renderApp(path, UNSTYLED);
    const footer = await loadedFooter();
    const link = await within(footer).findByRole('link', { name });
    expect(link).toHaveAttribute('href', href);
  });
});
