import { act, screen } from '@testing-library/react';
import { TestIntersectionObserver } from '../../../testing/intersection-observer';
import { mockReducedMotion } from '../../../testing/media-query';
import { renderWithProviders } from '../../../testing/render';
import { COUNT_UP_FRAMES } from '../hooks/use-count-up';
import { COUNTER_STAGGER_MS, IMPACT_ENTRANCE_MS, ImpactSection } from './impact-section';

/** jest's fake requestAnimationFrame runs a frame every 16 ms. */
const FRAME_MS = 16;

const counter = (id: string) => screen.getByTestId(`impact-counter-${id}`).textContent;
const counters = () => ['companies', 'satisfaction', 'campaigns', 'growth'].map(counter);

function advance(ms: number) {
  act(() => {
    jest.advanceTimersByTime(ms);
  });
}

describe('ImpactSection counters', () => {
  beforeEach(() => {
    TestIntersectionObserver.install();
    // Promises (lazy chunks, act) keep running for real; timers and frames are ours.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  });

  afterEach(() => {
    jest.useRealTimers();
    TestIntersectionObserver.uninstall();
  });

  it('waits at 0 until the grid has entered the viewport and finished sliding in', async () => {
    await renderWithProviders(<ImpactSection />);
    advance(5_000);
    expect(counters()).toEqual(['0+', '0.0/5', '0+', '0.0x']);

    act(() => TestIntersectionObserver.enterViewport());
    advance(IMPACT_ENTRANCE_MS - 1);
    expect(counter('companies')).toBe('0+');

    advance(1 + FRAME_MS);
    expect(counter('companies')).toBe('1+');

    // 150 / 150 = 1 per frame: ten frames later the first counter reads 11.
    advance(10 * FRAME_MS);
    expect(counter('companies')).toBe('11+');
  });

  it('starts each counter 300 ms after the previous one and adds 1/150 of the target per frame', async () => {
    await renderWithProviders(<ImpactSection />);
    act(() => TestIntersectionObserver.enterViewport());

    advance(IMPACT_ENTRANCE_MS + COUNTER_STAGGER_MS - 1);
    // The first counter has run ~18 frames: 18 × 150/150 = 18.
    expect(Number.parseInt(counter('companies') ?? '', 10)).toBeGreaterThanOrEqual(17);
    expect(counter('satisfaction')).toBe('0.0/5');

    advance(1 + FRAME_MS);
    expect(counter('satisfaction')).toBe('0.0/5'); // 4.8/150 = 0.032 per frame
    advance(FRAME_MS * 2);
    expect(counter('satisfaction')).toBe('0.1/5');
    expect(counter('campaigns')).toBe('0+');

    advance(COUNTER_STAGGER_MS);
    expect(counter('campaigns')).not.toBe('0+');
    expect(counter('growth')).toBe('0.0x');
  });

  it('keeps one decimal for 4.8 and 2.5 while counting and ends on the exact targets', async () => {
    await renderWithProviders(<ImpactSection />);
    act(() => TestIntersectionObserver.enterViewport());

    advance(IMPACT_ENTRANCE_MS + 3 * COUNTER_STAGGER_MS + 60 * FRAME_MS);
    expect(counter('satisfaction')).toMatch(/^\d\.\d\/5$/);
    expect(counter('growth')).toMatch(/^\d\.\dx$/);

    advance(IMPACT_ENTRANCE_MS + 3 * COUNTER_STAGGER_MS + (COUNT_UP_FRAMES + 5) * FRAME_MS);
    expect(counters()).toEqual(['150+', '4.8/5', '320+', '2.5x']);
  });

  it('runs once only: scrolling past again does not restart the count', async () => {
    await renderWithProviders(<ImpactSection />);
    act(() => TestIntersectionObserver.enterViewport());
    advance(IMPACT_ENTRANCE_MS + 3 * COUNTER_STAGGER_MS + (COUNT_UP_FRAMES + 5) * FRAME_MS);
    expect(counters()).toEqual(['150+', '4.8/5', '320+', '2.5x']);

    act(() => TestIntersectionObserver.enterViewport());
    advance(FRAME_MS * 3);
    expect(counters()).toEqual(['150+', '4.8/5', '320+', '2.5x']);
    expect(TestIntersectionObserver.instances.every((observer) => observer.disconnected)).toBe(
      true,
    );
  });

  it('shows the final figures at once when the visitor prefers reduced motion', async () => {
    const restore = mockReducedMotion(true);
    try {
      await renderWithProviders(<ImpactSection />);
      expect(counters()).toEqual(['150+', '4.8/5', '320+', '2.5x']);
    } finally {
      restore();
    }
  });
});
