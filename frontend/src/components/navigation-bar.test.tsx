import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../testing/render';
import { NavigationBar } from './navigation-bar';

function scrollPageTo(y: number) {
  Object.defineProperty(window, 'pageYOffset', { value: y, configurable: true });
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  act(() => {
    fireEvent.scroll(window);
  });
}

const TRANSPARENT = 'rgba(0, 0, 0, 0)';
const PAPER = 'rgb(255, 255, 255)';

describe('NavigationBar', () => {
  afterEach(() => scrollPageTo(0));

  it('is transparent at the top and up to 20 px of scroll, opaque past 20 px', async () => {
    await renderWithProviders(<NavigationBar />);
    const bar = screen.getByRole('banner');
    expect(getComputedStyle(bar).backgroundColor).toBe(TRANSPARENT);

    scrollPageTo(20);
    expect(getComputedStyle(bar).backgroundColor).toBe(TRANSPARENT);

    scrollPageTo(21);
    expect(getComputedStyle(bar).backgroundColor).toBe(PAPER);

    scrollPageTo(0);
    expect(getComputedStyle(bar).backgroundColor).toBe(TRANSPARENT);
  });

  it('names the logo link with the brand it shows, so it can be said aloud (WCAG 2.5.3)', async () => {
    await renderWithProviders(<NavigationBar />);
    const logo = screen.getByRole('link', { name: /home page/ });
    expect(logo.getAttribute('aria-label')).toMatch(new RegExp(`^${logo.textContent ?? '-'}`));
    expect(logo).toHaveAccessibleName('Digital Agency, home page');
  });
});
