import { screen } from '@testing-library/react';
import { useState } from 'react';
import { Link, Route, Routes } from 'react-router-dom';
import { renderWithProviders, UNSTYLED } from '../testing/render';
import { PageLayout } from './page-layout';
import { isChunkLoadFailure, ScreenErrorBoundary } from './screen-error-boundary';

/** A screen that fails to render until `healed.current` is set. */
function makeFlakyScreen() {
  const healed = { current: false };
  function FlakyScreen() {
    if (!healed.current) throw new Error('Cannot read properties of undefined');
    return <h1>Campaigns</h1>;
  }
  return { healed, FlakyScreen };
}

function Frame({ children }: { children: React.ReactNode }) {
  const [clicks, setClicks] = useState(0);
  return (
    <>
      <nav>
        <Link to="/other">Other page</Link>
        <button type="button" onClick={() => setClicks(clicks + 1)}>
          Menu {clicks}
        </button>
      </nav>
      <main>
        <ScreenErrorBoundary>{children}</ScreenErrorBoundary>
      </main>
    </>
  );
}

describe('ScreenErrorBoundary', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('shows what happened in the page instead of a blank app, logs it, and tries again', async () => {
    const { healed, FlakyScreen } = makeFlakyScreen();
    const { user } = await renderWithProviders(
      <Frame>
        <FlakyScreen />
      </Frame>,
      UNSTYLED,
    );
    expect(
      screen.getByRole('heading', { level: 1, name: 'This page could not be shown' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Nothing you saved is lost.');
    // The frame around the screen keeps working.
    await user.click(screen.getByRole('button', { name: 'Menu 0' }));
    expect(screen.getByRole('button', { name: 'Menu 1' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(
      'A screen failed to render',
      expect.objectContaining({ message: 'Cannot read properties of undefined' }),
      expect.any(String),
    );

    healed.current = true;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeInTheDocument();
  });

  it('clears itself when the visitor goes to another page', async () => {
    const { FlakyScreen } = makeFlakyScreen();
    const { user } = await renderWithProviders(
      <Frame>
        <Routes>
          <Route path="/" element={<FlakyScreen />} />
          <Route path="/other" element={<h1>Other</h1>} />
        </Routes>
      </Frame>,
      UNSTYLED,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Other page' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Other' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers a reload when the page’s code could not be downloaded', async () => {
    function MissingChunk(): React.ReactNode {
      throw new TypeError('Failed to fetch dynamically imported module: /assets/campaigns-1a2b.js');
    }
    await renderWithProviders(
      <Frame>
        <MissingChunk />
      </Frame>,
      UNSTYLED,
    );
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('keeps the public site’s navigation when one of its pages fails', async () => {
    const { FlakyScreen } = makeFlakyScreen();
    await renderWithProviders(
      <Routes>
        <Route element={<PageLayout />}>
          <Route index element={<FlakyScreen />} />
        </Route>
      </Routes>,
      UNSTYLED,
    );
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('alert'));
  });

  it('tells a failed download from other errors', () => {
    expect(isChunkLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadFailure(new Error('x is not a function'))).toBe(false);
    expect(isChunkLoadFailure('dynamically imported module')).toBe(false);
  });
});
