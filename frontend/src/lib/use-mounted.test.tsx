import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { useMounted } from './use-mounted';

function Probe({ name }: { name: string }) {
  return <p>{`${name}: ${useMounted() ? 'browser' : 'prerender'}`}</p>;
}

describe('useMounted', () => {
  it('is false in the prerendered HTML', () => {
    expect(renderToString(<Probe name="page" />)).toContain('page: prerender');
  });

  it('is false in the first render, true from the next, and at once for what mounts after', async () => {
    const { rerender } = render(<Probe name="first" />);
    expect(screen.getByText('first: prerender')).toBeInTheDocument();

    expect(await screen.findByText('first: browser')).toBeInTheDocument();

    await act(async () => rerender(<Probe name="later" />));
    render(<Probe name="mounted later" />);
    expect(screen.getByText('mounted later: browser')).toBeInTheDocument();
  });
});
