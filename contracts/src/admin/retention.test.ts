import { monthsBefore } from './retention';

describe('monthsBefore', () => {
  it.each([
    ['2026-06-15T12:00:00.000Z', 3, '2026-03-15T12:00:00.000Z'],
    ['2026-03-31T08:30:00.000Z', 1, '2026-02-28T08:30:00.000Z'],
    ['2028-03-31T08:30:00.000Z', 1, '2028-02-29T08:30:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 14, '2024-11-30T00:00:00.000Z'],
    ['2026-05-31T23:59:59.999Z', 24, '2024-05-31T23:59:59.999Z'],
  ])('takes from %s %i calendar months, keeping the day the month has', (now, months, cutoff) => {
    expect(monthsBefore(new Date(now), months).toISOString()).toBe(cutoff);
  });
});
