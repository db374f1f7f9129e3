import { createTestContext, type TestContext } from '../../testing/test-context';
import { findOwedMail, MailReceiptModel, OwedMailModel } from '../mail-outbox/store';
import {
  countConfirmedSubscribers,
  findConfirmationReceipt,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  requestSubscription,
  settleConfirmationMail,
} from './newsletter.service';
import { SubscriberModel } from './subscriber.model';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await SubscriberModel.init();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await Promise.all([
    SubscriberModel.deleteMany({}),
    OwedMailModel.deleteMany({}),
    MailReceiptModel.deleteMany({}),
  ]);
});

const ask = (email: string) =>
  requestSubscription({ email, locale: 'en', source: 'newsletter-banner', ip: '198.51.100.7' });
const reload = (subscriberId: string) => SubscriberModel.findById(subscriberId).lean();
const later = () => new Date(Date.now() + 60_000);

describe('newsletter subscribers', () => {
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

  it('owes one confirmation mail per request while pending, none once confirmed', async () => {
    const first = await ask('ask@example.tn');
    const second = await ask('ASK@example.tn');
    if (!first || !second) throw new Error('a pending address owes a confirmation');
    expect(second).toEqual({ subscriberId: first.subscriberId, request: 2 });
    expect(await SubscriberModel.countDocuments()).toBe(1);

    await SubscriberModel.updateOne({ _id: first.subscriberId }, { status: 'confirmed' });
    expect(await ask('ask@example.tn')).toBeUndefined();
    expect((await reload(first.subscriberId))?.confirmationRequests).toBe(2);
  });
});

/** The confirmation mails in the outbox, as the relay would enqueue them. */
async function owedConfirmations(olderThan: Date) {
  const owed = await findOwedMail(olderThan, 10);
  return owed.map(({ subscriberId, request }) => ({ subscriberId, request }));
}

describe('the confirmation mail outbox', () => {
  it('owes a mail per request until it is settled, and keeps how each ended', async () => {
    const first = await ask('one@example.tn');
    const latest = await ask('one@example.tn');
    const other = await ask('two@example.tn');
    if (!first || !latest || !other) throw new Error('both addresses owe a confirmation');

    const owed = await owedConfirmations(later());
    expect(owed).toEqual(expect.arrayContaining([first, latest, other]));
    expect(owed).toHaveLength(3);
    expect(await owedConfirmations(new Date(Date.now() - 60_000))).toEqual([]);

    await markConfirmationMailSent(latest);
    await markConfirmationMailFailed(other, '550 5.1.1 no such user');
    for (const job of [first, latest, other]) await settleConfirmationMail(job);

    expect(await owedConfirmations(later())).toEqual([]);
    expect(await findConfirmationReceipt(latest)).toMatchObject({ outcome: 'sent' });
    expect(await findConfirmationReceipt(other)).toMatchObject({
      outcome: 'failed',
      error: '550 5.1.1 no such user',
    });
    expect(await findConfirmationReceipt(first)).toBeNull();
  });

  it('owes nothing for a confirmed address', async () => {
    const confirmed = await ask('confirmed@example.tn');
    await SubscriberModel.updateOne({ _id: confirmed?.subscriberId }, { status: 'confirmed' });
    await OwedMailModel.deleteMany({});

    expect(await ask('confirmed@example.tn')).toBeUndefined();
    expect(await owedConfirmations(later())).toEqual([]);
  });

  it("keeps each request's outcome apart", async () => {
    const first = await ask('again@example.tn');
    const second = await ask('again@example.tn');
    if (!first || !second) throw new Error('a pending address owes a confirmation');

    await markConfirmationMailSent(first);
    await markConfirmationMailFailed(first, '451 late');

    expect(await findConfirmationReceipt(first)).toMatchObject({ outcome: 'sent' });
    expect(await findConfirmationReceipt(second)).toBeNull();
  });

  it('never lets a late failure overwrite a mail that was sent', async () => {
    const owed = await ask('late@example.tn');
    if (!owed) throw new Error('a new address owes a confirmation');
    await markConfirmationMailSent(owed);

    await markConfirmationMailFailed(owed, '451 late');

    const receipt = await findConfirmationReceipt(owed);
    expect(receipt).toMatchObject({ outcome: 'sent' });
    expect(receipt?.error).toBeUndefined();
  });
});
