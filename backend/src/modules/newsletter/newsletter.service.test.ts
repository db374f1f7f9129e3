import { createTestContext, type TestContext } from '../../testing/test-context';
import { countConfirmedSubscribers } from './newsletter.service';
import { SubscriberModel } from './subscriber.model';

describe('newsletter subscribers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await SubscriberModel.init();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('counts confirmed addresses only', async () => {
    await SubscriberModel.create([
      { email: 'a@example.tn', status: 'confirmed' },
      { email: 'b@example.tn', status: 'pending' },
      { email: 'c@example.tn', status: 'unsubscribed' },
      { email: 'd@example.tn', status: 'confirmed' },
    ]);
    expect(await countConfirmedSubscribers()).toBe(2);
  });

  it('keeps one subscription per address, whatever its case', async () => {
    await SubscriberModel.create({ email: 'Same@Example.tn' });
    await expect(SubscriberModel.create({ email: 'same@example.TN ' })).rejects.toMatchObject({
      code: 11000,
    });
  });
});
