import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { signInAs } from '../../testing/admin-session';
import { renderWithProviders, UNSTYLED } from '../../testing/render';
import { AdminLayout } from './admin-layout';

function BrokenScreen(): React.ReactNode {
  throw new Error('Cannot read properties of undefined');
}

describe('AdminLayout when a screen fails', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('keeps the sidebar and the header, and shows the failure inside the screen', async () => {
    signInAs('admin');
    await renderWithProviders(
      <Routes>
        <Route path="/admin" element={<AdminLayout />}>
          <Route path="broken" element={<BrokenScreen />} />
        </Route>
      </Routes>,
      { ...UNSTYLED, path: '/admin/broken' },
    );
    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('main')).toContainElement(alert);
    expect(alert).toHaveTextContent('This page could not be shown');
    expect(screen.getAllByRole('navigation').length).toBeGreaterThan(0);
  });
});
