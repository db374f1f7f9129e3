import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  countConfirmedSubscribers,
  findConfirmationsAwaitingMail,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  requestSubscription,
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
  await SubscriberModel.deleteMany({});
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

describe('the confirmation mail outbox', () => {
  it('relays the latest request of each pending address until its mail is settled', async () => {
    await ask('one@example.tn');
    const latest = await ask('one@example.tn');
    const other = await ask('two@example.tn');

    const owed = await findConfirmationsAwaitingMail(later(), 10);
    expect(owed).toEqual(expect.arrayContaining([latest, other]));
    expect(owed).toHaveLength(2);

    if (!latest || !other) throw new Error('both addresses owe a confirmation');
    await markConfirmationMailSent(latest);
    await markConfirmationMailFailed(other, '550 5.1.1 no such user');
    expect(await findConfirmationsAwaitingMail(later(), 10)).toEqual([]);
    expect(await reload(other.subscriberId)).toMatchObject({
      mailState: 'failed',
      mailError: '550 5.1.1 no such user',
    });
  });

  it('does not relay confirmed or departed addresses, nor mail owed for less than the age', async () => {
    const confirmed = await ask('confirmed@example.tn');
    const gone = await ask('gone@example.tn');
    await SubscriberModel.updateOne({ _id: confirmed?.subscriberId }, { status: 'confirmed' });
    await SubscriberModel.updateOne({ _id: gone?.subscriberId }, { status: 'unsubscribed' });
    const young = await ask('young@example.tn');

    expect(await findConfirmationsAwaitingMail(later(), 10)).toEqual([young]);
    expect(await findConfirmationsAwaitingMail(new Date(Date.now() - 60_000), 10)).toEqual([]);
  });

  it("ignores the outcome of a superseded request's mail", async () => {
    const first = await ask('again@example.tn');
    const second = await ask('again@example.tn');
    if (!first || !second) throw new Error('a pending address owes a confirmation');

    await markConfirmationMailSent(first);
    await markConfirmationMailFailed(first, '451 late');

    expect(await reload(first.subscriberId)).toMatchObject({ mailState: 'pending' });
    expect(await findConfirmationsAwaitingMail(later(), 10)).toEqual([second]);
  });

  it('never lets a late failure overwrite a mail that was sent', async () => {
    const owed = await ask('late@example.tn');
    if (!owed) throw new Error('a new address owes a confirmation');
    await markConfirmationMailSent(owed);

    await markConfirmationMailFailed(owed, '451 late');

    expect(await reload(owed.subscriberId)).toMatchObject({ mailState: 'sent' });
    expect((await reload(owed.subscriberId))?.mailError).toBeUndefined();
  });
});
