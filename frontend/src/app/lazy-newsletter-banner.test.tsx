import { screen, waitFor } from '@testing-library/react';
import { renderApp, UNSTYLED } from '../testing/render';

const BANNER_HEADING = { name: 'Stay in the loop' } as const;

// jsdom has no IntersectionObserver, so every deferred part shows at once; on home, a
// dozen sections are still built one per task before the banner's chunk loads (~7 s here).
const HOME_BUILT_MS = 30_000;

/**
 * Waits for the banner's heading. The wait checks a cheap id lookup: a role query
 * over the whole home page takes long enough in jsdom to starve the rendering it waits for.
 */
async function findBanner() {
  await waitFor(() => expect(document.getElementById('newsletter-heading')).not.toBeNull(), {
    timeout: HOME_BUILT_MS,
  });
  return screen.getByRole('heading', BANNER_HEADING);
}

describe('the newsletter banner on the public pages', () => {
  it(
    'closes the home page once, after the contact section',
    async () => {
      await renderApp('/#newsletter', UNSTYLED);

      const heading = await findBanner();

      const contact = document.getElementById('contact');
      if (!contact) throw new Error('The home page has no #contact section');
      // The banner comes after the contact section in the document (contact, then newsletter).
      expect(
        contact.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      // The footer leaves it out on home: one banner, one #newsletter anchor.
      expect(screen.getAllByRole('heading', BANNER_HEADING)).toHaveLength(1);
      expect(document.querySelectorAll('#newsletter')).toHaveLength(1);
    },
    HOME_BUILT_MS + 10_000,
  );

  it('sits in the footer of the other pages', async () => {
    await renderApp('/portfolio', UNSTYLED);

    const heading = await findBanner();

    expect(heading.closest('footer')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it('is left out of the pages a newsletter mail links to', async () => {
    await renderApp('/newsletter/unsubscribe?token=xyz', UNSTYLED);
    await screen.findByRole('heading', { name: 'Unsubscribe from our newsletter?' });
    await waitFor(() => expect(document.querySelector('footer')).not.toBeNull());

    expect(document.getElementById('newsletter')).toBeNull();
    expect(screen.queryByRole('heading', BANNER_HEADING)).not.toBeInTheDocument();
  });
});
