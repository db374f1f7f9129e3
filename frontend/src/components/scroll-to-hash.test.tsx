import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { mockReducedMotion } from '../testing/media-query';
import { ScrollToHash } from './scroll-to-hash';

const scrollTo = window.scrollTo as jest.Mock;

/** A page section at a known place: 600 px below the top of the viewport. */
function Section({ id }: { id: string }) {
  return (
    <section
      id={id}
      ref={(element) => {
        if (element) element.getBoundingClientRect = () => ({ top: 600 }) as DOMRect;
      }}
    />
  );
}

function LateSection({ id }: { id: string }) {
  const [shown, setShown] = useState(false);
  return shown ? (
    <Section id={id} />
  ) : (
    <button type="button" onClick={() => setShown(true)}>
      load
    </button>
  );
}

function renderAt(path: string, page = <Section id="about" />) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <ScrollToHash />
      {page}
    </MemoryRouter>,
  );
}

function advance(ms: number) {
  act(() => {
    jest.advanceTimersByTime(ms);
  });
}

describe('ScrollToHash', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    scrollTo.mockClear();
    Object.defineProperty(window, 'scrollY', { value: 250, configurable: true });
  });

  afterEach(() => {
    jest.useRealTimers();
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });

  it('starts a page without a hash at the top', () => {
    renderAt('/');
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it('scrolls to the hash target 100 ms after load, 80 px above it, smoothly', () => {
    renderAt('/#about');

    advance(99);
    expect(scrollTo).not.toHaveBeenCalled();

    advance(1);
    // 600 px below the viewport's top, the page already scrolled 250 px, less the 80 px bar.
    expect(scrollTo).toHaveBeenCalledWith({ top: 600 + 250 - 80, behavior: 'smooth' });
  });

  it('waits for a target that is still loading, then scrolls to it', () => {
    const { getByRole } = renderAt('/#faq', <LateSection id="faq" />);
    advance(500);
    expect(scrollTo).not.toHaveBeenCalled();

    act(() => getByRole('button').click());
    // The MutationObserver callback runs as a microtask after the DOM change.
    return Promise.resolve().then(() => {
      expect(scrollTo).toHaveBeenCalledWith({ top: 770, behavior: 'smooth' });
    });
  });

  it('jumps without smooth scrolling when the visitor prefers reduced motion', () => {
    const restore = mockReducedMotion(true);
    try {
      renderAt('/#about');
      advance(100);
      expect(scrollTo).toHaveBeenCalledWith({ top: 770, behavior: 'auto' });
    } finally {
      restore();
    }
  });
});
