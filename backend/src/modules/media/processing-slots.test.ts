import { processingSlots } from './processing-slots';

describe('processing slots', () => {
  it('runs at most their number of tasks at once, the others in turn, and frees a slot on failure', async () => {
    const inSlot = processingSlots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (index: number, fails = false) =>
      inSlot(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((done) => setTimeout(done, 10));
        running -= 1;
        order.push(index);
        if (fails) throw new Error(`task ${index} failed`);
        return index;
      });
    const results = await Promise.allSettled(
      [0, 1, 2, 3, 4].map((index) => task(index, index === 0)),
    );
    expect(most).toBe(2);
    expect(results.map((result) => result.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(order).toHaveLength(5);
  });
});
