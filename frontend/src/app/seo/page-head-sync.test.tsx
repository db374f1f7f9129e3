import { screen, waitFor, within } from '@testing-library/react';
import enSeo from './locales/en.json';
import frSeo from './locales/fr.json';
import { renderApp, UNSTYLED } from '../../testing/render';

const canonical = () => document.head.querySelector('link[rel="canonical"]')?.getAttribute('href');

describe('the head of a page the browser shows', () => {
  afterEach(() => {
    for (const element of document.head.querySelectorAll('[data-head]')) element.remove();
    document.documentElement.removeAttribute('data-head-address');
    document.title = '';
  });

  it('follows the visitor from page to page: title, description, canonical, alternates', async () => {
    const { user } = await renderApp('/portfolio', UNSTYLED);
    await waitFor(() => expect(document.title).toBe(enSeo.pages.portfolio.title));
    expect(canonical()).toBe(`${window.location.origin}/portfolio`);

    await user.click(
      within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', {
        name: 'Services',
      }),
    );

    await waitFor(() => expect(document.title).toBe(enSeo.pages.services.title));
    // /services-dedicated repeats /services: search engines are pointed there.
    expect(canonical()).toBe(`${window.location.origin}/services`);
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(
      enSeo.pages.services.description,
    );
    expect(document.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
    expect(document.head.querySelectorAll('link[rel="alternate"]')).toHaveLength(4);
    expect(document.head.querySelectorAll('script[type="application/ld+json"]')).toHaveLength(2);
  });

  it("gives an address that is not prerendered its page's head, in the page's language", async () => {
    await renderApp('/fr/services/meta-ads', UNSTYLED);

    await waitFor(() => expect(document.title).toBe(frSeo.pages.services.title));
    expect(canonical()).toBe(`${window.location.origin}/fr/services`);
  });

  it('keeps a page that does not exist out of the index', async () => {
    await renderApp('/no/such/page', UNSTYLED);

    await waitFor(() => expect(document.title).toBe(enSeo.pages.notFound.title));
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex',
    );
    expect(canonical()).toBeUndefined();
  });
});
