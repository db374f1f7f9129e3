import { renderHook, screen } from '@testing-library/react';
import { useToast } from '../lib/use-toast';
import { renderWithProviders } from '../testing/render';

describe('Toaster', () => {
  it('shows what was said before it had loaded, once, as soon as it mounts', async () => {
    // Nothing has mounted the toaster yet in this file: as on a page's first moments.
    const { result } = renderHook(() => useToast());
    result.current({ title: 'Session expired', description: 'Please sign in again.' });

    await renderWithProviders(<p>page</p>);

    expect(await screen.findByText('Session expired')).toBeInTheDocument();
    expect(screen.getByText('Please sign in again.')).toBeInTheDocument();
    expect(screen.getAllByText('Session expired')).toHaveLength(1);
  });

  it('keeps what is said while no toaster is mounted for the next one', async () => {
    const { result } = renderHook(() => useToast());
    const first = await renderWithProviders(<p>page</p>);
    result.current({ title: 'Saved', description: 'The client is saved.' });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    first.unmount();

    result.current({ title: 'Logged out', description: 'See you soon.' });
    await renderWithProviders(<p>page</p>);

    expect(await screen.findByText('Logged out')).toBeInTheDocument();
    expect(screen.getAllByText('Logged out')).toHaveLength(1);
  });
});
