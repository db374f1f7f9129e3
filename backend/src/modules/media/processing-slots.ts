/**
 * At most `size` tasks at once; the others wait in turn. Decoding a large
 * image holds a few hundred MB and libvips' threads: ten uploads at once
 * must queue, not take the API's memory and cores from every other request.
 */
export function processingSlots(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return async (task) => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
