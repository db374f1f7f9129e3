import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  compareMedians,
  TIMED_REQUESTS,
  timedServer,
  closestOfRounds,
  type TimedServer,
} from '../../testing/answer-timing';
import { SubscriberModel } from '@agency/platform/testing/audience-models';

let ctx: TestContext;
let server: TimedServer;

beforeAll(async () => {
  ctx = await createTestContext();
  await SubscriberModel.init();
  // One confirmed address per timed request, as one new address per request.
  await SubscriberModel.insertMany(
    Array.from({ length: TIMED_REQUESTS + 20 }, (_, index) => ({
      email: `confirmed-${index}@example.tn`,
      status: 'confirmed',
      confirmedAt: new Date(),
    })),
  );
  server = await timedServer(ctx.app);
});

afterAll(async () => {
  await server.close();
  await ctx.close();
});

it(`answers a confirmed address as fast as a new one, within 1 ms (medians of ${TIMED_REQUESTS})`, async () => {
  const subscribe = (email: string) =>
    server.post('/api/newsletter', { email, locale: 'en' }, { 'Accept-Language': 'en' });
  // Warm-up: connections, the store's caches, the queue's scripts.
  for (let index = 0; index < 20; index += 1) {
    await subscribe(`confirmed-${TIMED_REQUESTS + index}@example.tn`);
    await subscribe(`warm-up-${index}@example.tn`);
  }

  let round = 0;
  const report = await closestOfRounds(3, () => {
    round += 1;
    return compareMedians(
      TIMED_REQUESTS,
      (index) => subscribe(`confirmed-${index}@example.tn`),
      (index) => subscribe(`new-${round}-${index}@example.tn`),
    );
  });

  // On failure this shows both medians: confirmed first, new second.
  expect(report).toEqual({ ...report, withinTolerance: true });
});
