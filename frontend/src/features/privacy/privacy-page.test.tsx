import { screen, waitFor, within } from '@testing-library/react';
import { renderApp, UNSTYLED } from '../../testing/render';

/** The page's headings, level and name, in document order. */
const headingOutline = () =>
  within(screen.getByRole('main'))
    .getAllByRole('heading')
    .map((heading) => `${heading.tagName} ${heading.textContent ?? ''}`);

describe('the privacy page', () => {
  it("opens from the footer's Privacy Policy link, in the page's language", async () => {
    const { user, location } = await renderApp('/fr/portfolio', UNSTYLED);

    const footer = await waitFor(() => {
      const element = document.querySelector('footer');
      if (!element) throw new Error('the footer has not loaded yet');
      return element;
    });
    const link = await within(footer).findByRole('link', { name: 'Politique de confidentialité' });
    expect(link).toHaveAttribute('href', '/fr/privacy');
    await user.click(link);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Politique de confidentialité' }),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/privacy');
  });

  it('says what is stored for an enquiry and a subscription, and what campaign mail counts', async () => {
    await renderApp('/privacy', UNSTYLED);
    await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' });

    // One h1, then one h2 per part: headings in order, inside the main landmark.
    expect(headingOutline()).toEqual([
      'H1 Privacy Policy',
      'H2 When you send us an enquiry',
      'H2 When you subscribe to the newsletter',
      'H2 What our campaign e-mails count',
      'H2 Unsubscribing and erasure',
    ]);
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent('your e-mail address, and your phone number if you give one');
    expect(main).toHaveTextContent('the network (IP) address each request came from');
    expect(main).toHaveTextContent('the e-mail holds a tiny invisible image');
    expect(main).toHaveTextContent('each web link in the e-mail goes through our site first');
    expect(main).toHaveTextContent(
      'Your IP address and your device or e-mail program are never stored',
    );
    expect(main).toHaveTextContent('By default, the results are anonymous');
    expect(main).toHaveTextContent('the key is destroyed');
    expect(main).toHaveTextContent('Every newsletter e-mail has an unsubscribe link');
    expect(within(main).getByRole('link', { name: 'contact@agency.example' })).toHaveAttribute(
      'href',
      'mailto:contact@agency.example',
    );
  });

  it('reads right to left in Arabic, its address left to right', async () => {
    await renderApp('/ar/privacy', UNSTYLED);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'سياسة الخصوصية' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(headingOutline()).toHaveLength(5);
    expect(screen.getByRole('main')).toHaveTextContent('لا نسجّل أبدًا عنوان IP الخاص بك');
    const address = screen.getByRole('link', { name: 'contact@agency.example' });
    expect(address.closest('bdi')).not.toBeNull();
  });
});
