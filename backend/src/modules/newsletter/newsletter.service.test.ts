import {
  NEWSLETTER_CONFIRMATION_TTL_MS,
  NEWSLETTER_CONSENT_WORDING_VERSION,
  type Locale,
} from '@agency/contracts';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { randomSecret } from '@agency/platform/testing/test-secrets';
import {
  findConfirmationReceipt,
  findOwedMail,
  forEachSubscriber,
  findSubscriberByEmail,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  requestSubscription,
  settleConfirmationMail,
  signConfirmationToken,
  signUnsubscribeToken,
  type SubscriberChanges,
} from '@agency/platform';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { MailReceiptModel, OwedMailModel } from '@agency/platform/testing/outbox-models';
import { confirmSubscription, unsubscribe } from './newsletter.service';

/** Every status change the service reports, as the kept figures receive them. */
const moves: [string, string | null, string][] = [];
const changes: SubscriberChanges = {
  statusChanged: (email, from, to) => {
    moves.push([email, from, to]);
    return Promise.resolve();
  },
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await SubscriberModel.init();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  moves.length = 0;
  await Promise.all([
    SubscriberModel.deleteMany({}),
    OwedMailModel.deleteMany({}),
    MailReceiptModel.deleteMany({}),
  ]);
});

const ask = (email: string) =>
  requestSubscription(
    { email, locale: 'en', source: 'newsletter-banner', ip: '198.51.100.7' },
    changes,
  );
const reload = (subscriberId: string) => SubscriberModel.findById(subscriberId).lean();
const later = () => new Date(Date.now() + 60_000);

describe('newsletter subscribers', () => {
  it('reads every address once with its status, as the reconciliation recounts them', async () => {
    await SubscriberModel.create([
      { email: 'a@example.tn', status: 'confirmed' },
      { email: 'b@example.tn', status: 'pending' },
      { email: 'c@example.tn', status: 'unsubscribed' },
    ]);
    const read: { email: string; status: string }[] = [];
    await forEachSubscriber((subscriber) => {
      read.push(subscriber);
    });
    expect(read.sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: 'a@example.tn', status: 'confirmed' },
      { email: 'b@example.tn', status: 'pending' },
      { email: 'c@example.tn', status: 'unsubscribed' },
    ]);
  });

  it('tells the kept figures each status an address leaves and enters, once per change', async () => {
    const secret = 'newsletter-moves-test-secret-0123456789';
    const first = await ask('Moves@Example.tn');
    await ask('moves@example.tn'); // pending again: no change of status
    if (!first) throw new Error('a new address owes a confirmation');
    await confirmSubscription(signConfirmationToken(first.subscriberId, secret), {
      secret,
      ip: '198.51.100.20',
      changes,
    });
    await ask('moves@example.tn'); // confirmed: nothing to change
    const leave = () =>
      unsubscribe(signUnsubscribeToken('moves@example.tn', secret), {
        secret,
        method: 'page',
        changes,
      });
    await leave();
    await leave(); // already gone
    await ask('moves@example.tn'); // back again

    expect(moves).toEqual([
      ['moves@example.tn', null, 'pending'],
      ['moves@example.tn', 'pending', 'confirmed'],
      ['moves@example.tn', 'confirmed', 'unsubscribed'],
      ['moves@example.tn', 'unsubscribed', 'pending'],
    ]);
  });

  it('tells an address unsubscribed without ever subscribing as new to the list', async () => {
    await unsubscribe(signUnsubscribeToken('never@example.tn', SECRET), {
      secret: SECRET,
      method: 'one-click',
      changes,
    });
    expect(moves).toEqual([['never@example.tn', null, 'unsubscribed']]);
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

describe('a subscription request', () => {
  it('records the consent it was given: when, from where, in which language and wording', async () => {
    const at = new Date('2024-05-02T10:00:00.000Z');

    const owed = await requestSubscription(
      {
        email: 'Consent@Example.tn',
        locale: 'fr',
        source: 'newsletter-banner',
        ip: '203.0.113.4',
        at,
      },
      changes,
    );
    if (!owed) throw new Error('a new address owes a confirmation');

    expect(await reload(owed.subscriberId)).toMatchObject({
      email: 'consent@example.tn',
      status: 'pending',
      locale: 'fr',
      confirmationRequests: 1,
      consent: {
        requestedAt: at,
        ip: '203.0.113.4',
        locale: 'fr',
        source: 'newsletter-banner',
        wordingVersion: NEWSLETTER_CONSENT_WORDING_VERSION,
      },
    });
    expect(await findSubscriberByEmail(' CONSENT@example.tn')).toMatchObject({
      id: owed.subscriberId,
    });
  });

  it('refuses a language no mail is written in, and owes nothing', async () => {
    // The route's schema stops this first; the model's validators are the last guard.
    const unknownLocale = String('de') as Locale;

    await expect(
      requestSubscription(
        {
          email: 'deutsch@example.tn',
          locale: unknownLocale,
          source: 'newsletter-banner',
          ip: '203.0.113.4',
        },
        changes,
      ),
    ).rejects.toMatchObject({ name: 'ValidationError' });
    expect(await SubscriberModel.countDocuments()).toBe(0);
    expect(await owedConfirmations(later())).toEqual([]);
  });
});

const SECRET = randomSecret();
// Tokens carry their issue time in whole seconds.
const issuedAt = new Date('2024-05-02T10:00:00.000Z');

describe('confirming a subscription', () => {
  async function pending(email: string, locale: Locale = 'ar'): Promise<string> {
    const owed = await requestSubscription(
      {
        email,
        locale,
        source: 'newsletter-banner',
        ip: '203.0.113.4',
      },
      changes,
    );
    if (!owed) throw new Error('a new address owes a confirmation');
    return owed.subscriberId;
  }
  const confirmAt = (subscriberId: string, now: Date) =>
    confirmSubscription(signConfirmationToken(subscriberId, SECRET, issuedAt), {
      secret: SECRET,
      ip: '198.51.100.20',
      now,
      changes,
    });

  it('confirms with the last moment of the window, and records when and from where', async () => {
    const id = await pending('window@example.tn');
    const lastMoment = new Date(issuedAt.getTime() + NEWSLETTER_CONFIRMATION_TTL_MS);

    expect(await confirmAt(id, lastMoment)).toEqual({ outcome: 'confirmed', locale: 'ar' });
    expect(await reload(id)).toMatchObject({
      status: 'confirmed',
      confirmedAt: lastMoment,
      consent: { confirmedAt: lastMoment, confirmedIp: '198.51.100.20', ip: '203.0.113.4' },
    });
  });

  it('confirms only the address the link names', async () => {
    const other = await pending('other@example.tn', 'en');
    const id = await pending('named@example.tn', 'fr');

    expect(await confirmAt(id, new Date(issuedAt.getTime() + 60_000))).toEqual({
      outcome: 'confirmed',
      locale: 'fr',
    });
    expect((await reload(other))?.status).toBe('pending');
  });

  it('no longer confirms a moment after the window, and leaves the address pending', async () => {
    const id = await pending('late@example.tn');
    const tooLate = new Date(issuedAt.getTime() + NEWSLETTER_CONFIRMATION_TTL_MS + 1);

    expect(await confirmAt(id, tooLate)).toEqual({ outcome: 'expired' });
    expect((await reload(id))?.status).toBe('pending');
  });

  it('answers a later click with the language of the subscription, changing nothing', async () => {
    const id = await pending('twice@example.tn', 'fr');
    const first = new Date(issuedAt.getTime() + 60_000);
    await confirmAt(id, first);

    const muchLater = new Date(issuedAt.getTime() + 2 * NEWSLETTER_CONFIRMATION_TTL_MS);
    expect(await confirmAt(id, muchLater)).toEqual({ outcome: 'confirmed', locale: 'fr' });
    expect((await reload(id))?.confirmedAt).toEqual(first);
  });

  /**
   * Lets `write` land between the confirmation's read of the address and its
   * conditional update, as a request arriving at that moment would: the
   * update itself still goes to the store.
   */
  function landingBeforeTheUpdate(write: () => Promise<unknown>) {
    const update = SubscriberModel.findOneAndUpdate.bind(SubscriberModel);
    const competing = (...args: Parameters<typeof update>) => ({
      exec: async () => {
        await write();
        return update(...args).exec();
      },
    });
    return jest
      .spyOn(SubscriberModel, 'findOneAndUpdate')
      .mockImplementationOnce(competing as unknown as typeof update);
  }

  it('answers a twin click that confirmed the address in between as confirmed', async () => {
    const id = await pending('double@example.tn', 'fr');
    const twinClick = new Date(issuedAt.getTime() + 59_000);
    const spy = landingBeforeTheUpdate(() =>
      SubscriberModel.updateOne(
        { _id: id },
        { status: 'confirmed', confirmedAt: twinClick },
      ).exec(),
    );

    try {
      expect(await confirmAt(id, new Date(issuedAt.getTime() + 60_000))).toEqual({
        outcome: 'confirmed',
        locale: 'fr',
      });
    } finally {
      spy.mockRestore();
    }
    expect((await reload(id))?.confirmedAt).toEqual(twinClick);
  });

  it('does not confirm an address that left between the read and the update', async () => {
    const id = await pending('leaving@example.tn');
    const spy = landingBeforeTheUpdate(() =>
      SubscriberModel.updateOne({ _id: id }, { status: 'unsubscribed' }).exec(),
    );

    try {
      expect(await confirmAt(id, new Date(issuedAt.getTime() + 60_000))).toEqual({
        outcome: 'expired',
      });
    } finally {
      spy.mockRestore();
    }
    expect((await reload(id))?.status).toBe('unsubscribed');
  });

  it('does not resubscribe an address that left', async () => {
    const id = await pending('gone@example.tn');
    await SubscriberModel.updateOne({ _id: id }, { status: 'unsubscribed' });

    expect(await confirmAt(id, new Date(issuedAt.getTime() + 60_000))).toEqual({
      outcome: 'expired',
    });
    expect((await reload(id))?.status).toBe('unsubscribed');
  });

  it('treats a link signed with another key, or naming nobody, as invalid', async () => {
    const id = await pending('forged@example.tn');
    const options = { secret: SECRET, ip: '198.51.100.20', now: issuedAt, changes };

    expect(
      await confirmSubscription(
        signConfirmationToken(id, 'another-secret-0123456789abcdef'),
        options,
      ),
    ).toEqual({ outcome: 'invalid' });
    expect(
      await confirmSubscription(signConfirmationToken('0'.repeat(24), SECRET), options),
    ).toEqual({ outcome: 'invalid' });
    expect((await reload(id))?.status).toBe('pending');
  });
});

describe('unsubscribing', () => {
  const leave = (email: string, now: Date, method: 'one-click' | 'page' = 'one-click') =>
    unsubscribe(signUnsubscribeToken(email, SECRET), { secret: SECRET, method, now, changes });

  it('takes a confirmed address off the list, recording when and how', async () => {
    await SubscriberModel.create({
      email: 'leaving@example.tn',
      status: 'confirmed',
      locale: 'fr',
    });
    const now = new Date('2024-06-01T08:00:00.000Z');

    expect(await leave('leaving@example.tn', now, 'page')).toEqual({
      outcome: 'unsubscribed',
      locale: 'fr',
    });
    expect(await findSubscriberByEmail('leaving@example.tn')).toMatchObject({
      status: 'unsubscribed',
      unsubscribedAt: now,
      unsubscribeMethod: 'page',
    });
  });

  it('answers a second unsubscribe the same, keeping when and how the first happened', async () => {
    await SubscriberModel.create([
      { email: 'gone-before@example.tn', status: 'unsubscribed', locale: 'fr' },
      { email: 'twice@example.tn', status: 'confirmed', locale: 'ar' },
    ]);
    const first = new Date('2024-06-01T08:00:00.000Z');
    await leave('twice@example.tn', first, 'one-click');

    expect(await leave('twice@example.tn', new Date(), 'page')).toEqual({
      outcome: 'unsubscribed',
      locale: 'ar',
    });
    expect(await findSubscriberByEmail('twice@example.tn')).toMatchObject({
      unsubscribedAt: first,
      unsubscribeMethod: 'one-click',
    });
  });

  it('records an address mailed without a subscription as unsubscribed, in the default language', async () => {
    const now = new Date('2024-06-01T08:00:00.000Z');

    expect(await leave('contact@example.tn', now)).toEqual({
      outcome: 'unsubscribed',
      locale: 'en',
    });
    expect(await findSubscriberByEmail('contact@example.tn')).toMatchObject({
      status: 'unsubscribed',
      unsubscribedAt: now,
    });
  });

  it('treats a link signed with another key as invalid, changing nothing', async () => {
    await SubscriberModel.create({ email: 'stays@example.tn', status: 'confirmed' });

    expect(
      await unsubscribe(
        signUnsubscribeToken('stays@example.tn', 'another-secret-0123456789abcdef'),
        {
          secret: SECRET,
          method: 'page',
          changes,
        },
      ),
    ).toEqual({ outcome: 'invalid' });
    expect((await findSubscriberByEmail('stays@example.tn'))?.status).toBe('confirmed');
  });

  it('refuses an unknown way of unsubscribing, leaving the address on the list', async () => {
    await SubscriberModel.create({ email: 'kept@example.tn', status: 'confirmed' });
    // Only a caller bypassing the types could pass one; the model's validators stop it.
    const unknownMethod = String('carrier-pigeon') as 'page';

    await expect(leave('kept@example.tn', new Date(), unknownMethod)).rejects.toMatchObject({
      name: 'ValidationError',
    });
    expect((await findSubscriberByEmail('kept@example.tn'))?.status).toBe('confirmed');
  });
});
