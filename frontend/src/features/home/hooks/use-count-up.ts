import { useEffect, useRef, useState } from 'react';

/** Spec 4: a counter adds 1/150 of its target per animation frame. */
export const COUNT_UP_FRAMES = 150;

export interface CountUpOptions {
  /** Counting begins once this turns true. */
  start: boolean;
  /** Wait before the first frame (the stagger between counters). */
  delayMs: number;
  /** False (reduced motion): show the target straight away. */
  animate: boolean;
}

/** Counts from 0 up to `target` once, then stays on the exact target. */
export function useCountUp(target: number, { start, delayMs, animate }: CountUpOptions): number {
  const [frames, setFrames] = useState(0);
  // Survives re-renders and effect re-runs, so a finished count never starts over.
  const framesDone = useRef(0);

  useEffect(() => {
    if (!animate || !start || framesDone.current >= COUNT_UP_FRAMES) return undefined;
    let frameId = 0;
    const tick = () => {
      framesDone.current += 1;
      setFrames(framesDone.current);
      if (framesDone.current < COUNT_UP_FRAMES) frameId = window.requestAnimationFrame(tick);
    };
    const timer = window.setTimeout(() => {
      frameId = window.requestAnimationFrame(tick);
    }, delayMs);
    return () => {
      window.clearTimeout(timer);
      window.cancelAnimationFrame(frameId);
    };
  }, [animate, start, delayMs]);

  if (!animate) return target;
  return frames >= COUNT_UP_FRAMES ? target : (target / COUNT_UP_FRAMES) * frames;
}

/** Whole targets count in whole numbers; a decimal target (4.8) keeps one decimal. */
export function formatCount(value: number, target: number): string {
  return Number.isInteger(target) ? String(Math.floor(value)) : value.toFixed(1);
}
