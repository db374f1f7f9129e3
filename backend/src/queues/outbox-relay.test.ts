import {
  contactMailJobId,
  newsletterConfirmationJobId,
  type NewsletterConfirmationJob,
} from '@agency/contracts';
import { createTestContext, type TestContext } from '../testing/test-context';
import { storeContact } from '../modules/contact';
import {
  markContactAcknowledgementFailed,
  markContactMailSent,
  oweContactMails,
  settleContactMails,
  UNWATCHED_CONTACTS,
  markConfirmationMailSent,
  settleConfirmationMail,
  relayOwedMail,
  createRedisConnection,
  requestSubscription,
  UNWATCHED_SUBSCRIBERS,
  UNWRITTEN_ENQUIRY_GRACE_MS,
} from '@agency/platform';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { MailReceiptModel, OwedMailModel } from '@agency/platform/testing/outbox-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { Worker } from 'bullmq';
import mongoose from 'mongoose';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await SubscriberModel.init();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ContactModel.deleteMany({});
  await SubscriberModel.deleteMany({});
  await OwedMailModel.deleteMany({});
  await MailReceiptModel.deleteMany({});
  await Promise.all(ctx.queues.all().map((queue) => queue.obliterate({ force: true })));
});

const enquiry = {
  firstName: 'Sami',
  lastName: 'Bouzid',
  email: 'sami@example.tn',
  service: 'meta-ads' as const,
  message: 'Ads for our new restaurant.',
};

async function ask(email: string): Promise<NewsletterConfirmationJob> {
  const owed = await requestSubscription(
    { email, locale: 'fr', source: 'newsletter-banner', ip: '198.51.100.7' },
    UNWATCHED_SUBSCRIBERS,
  );
  if (!owed) throw new Error('a new address owes a confirmation');
  return owed;
}

/** Completes the next `count` waiting enquiry mail jobs, as a worker that sent both mails would. */
async function completeNextJob(count = 1): Promise<void> {
  const connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
  const worker = new Worker(ctx.queues.contactMail.name, undefined, {
    connection,
    prefix: ctx.config.queuePrefix,
  });
  try {
    for (let completed = 0; completed < count; completed += 1) {
      const job = await worker.getNextJob('test-token');
      if (!job) throw new Error('a job waits');
      await job.moveToCompleted(
        { notification: 'sent', acknowledgement: 'sent' },
        'test-token',
        false,
      );
    }
  } finally {
    await worker.close();
    connection.disconnect();
  }
}

/** Stores enquiries whose mail job is queued; the first `completed` of those jobs complete. */
async function enquiriesWithJobs(count: number, completed: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const { id } = await storeContact(enquiry, 'en', UNWATCHED_CONTACTS);
    ids.push(id);
    await ctx.queues.contactMail.add('direct', { contactId: id }, { jobId: contactMailJobId(id) });
  }
  await completeNextJob(completed);
  return ids;
}

/** What `call` answers, and how many times it read the outbox (mongoose's debug hook sees each read). */
async function countingOutboxReads<T>(
  call: () => Promise<T>,
): Promise<{ result: T; reads: number }> {
  let reads = 0;
  mongoose.set('debug', (collection: string, method: string) => {
    if (collection === OwedMailModel.collection.collectionName && method === 'find') reads += 1;
  });
  try {
    return { result: await call(), reads };
  } finally {
    mongoose.set('debug', false);
  }
}

async function outboxIds(): Promise<string[]> {
  const left = await OwedMailModel.find().select({ _id: 1 }).lean();
  return left.map(({ _id }) => String(_id)).sort();
}

const pass = () => relayOwedMail(ctx.queues, { pendingAgeMs: 0, now: new Date(Date.now() + 1000) });

describe('one pass of the outbox relay', () => {
  it('enqueues every owed mail once, however many passes run', async () => {
    const contactId = (await storeContact(enquiry, 'en', UNWATCHED_CONTACTS)).id;
    const confirmation = await ask('reader@example.tn');

    expect(await pass()).toEqual({ contacts: 1, newsletterConfirmations: 1 });
    expect(await pass()).toEqual({ contacts: 1, newsletterConfirmations: 1 });

    expect(await ctx.queues.contactMail.getJobCounts('waiting')).toEqual({ waiting: 1 });
    expect((await ctx.queues.contactMail.getJob(contactMailJobId(contactId)))?.data).toEqual({
      contactId,
    });
    const job = await ctx.queues.newsletterConfirmation.getJob(
      newsletterConfirmationJobId(confirmation.subscriberId, confirmation.request),
    );
    expect(job?.data).toEqual(confirmation);
  });

  it('still enqueues an enquiry whose acknowledgement alone is owed', async () => {
    const contactId = (await storeContact(enquiry, 'en', UNWATCHED_CONTACTS)).id;
    await markContactMailSent(contactId);

    expect(await pass()).toEqual({ contacts: 1, newsletterConfirmations: 0 });
  });

  it('leaves settled mail alone, and mail owed for less than the age', async () => {
    const contactId = (await storeContact(enquiry, 'en', UNWATCHED_CONTACTS)).id;
    await markContactMailSent(contactId);
    await markContactAcknowledgementFailed(contactId, '550 no such user');
    await settleContactMails(contactId);
    const done = await ask('done@example.tn');
    await markConfirmationMailSent(done);
    await settleConfirmationMail(done);
    await ask('young@example.tn');

    expect(await relayOwedMail(ctx.queues, { pendingAgeMs: 60_000 })).toEqual({
      contacts: 0,
      newsletterConfirmations: 0,
    });
    expect(await pass()).toEqual({ contacts: 0, newsletterConfirmations: 1 });
  });

  it('drops an entry whose enquiry was never written, once no request can still write it, and mails nobody for it', async () => {
    await oweContactMails('0'.repeat(24), {
      ...enquiry,
      locale: 'en',
      createdAt: new Date().toISOString(),
    });

    // While the request that wrote it may still be writing its enquiry, the entry stays.
    expect(await pass()).toEqual({ contacts: 0, newsletterConfirmations: 0 });
    expect(await OwedMailModel.countDocuments()).toBe(1);

    const later = new Date(Date.now() + UNWRITTEN_ENQUIRY_GRACE_MS + 1000);
    expect(await relayOwedMail(ctx.queues, { pendingAgeMs: 0, now: later })).toEqual({
      contacts: 0,
      newsletterConfirmations: 0,
    });
    expect(await OwedMailModel.countDocuments()).toBe(0);
    expect(await ctx.queues.contactMail.getJobCounts('waiting')).toEqual({ waiting: 0 });
  });

  it('takes the enquiries whose job completed out of the outbox, and no other', async () => {
    const delivered = (await storeContact(enquiry, 'en', UNWATCHED_CONTACTS)).id;
    const waiting = (await storeContact(enquiry, 'en', UNWATCHED_CONTACTS)).id;
    await ctx.queues.contactMail.add(
      'direct',
      { contactId: delivered },
      {
        jobId: contactMailJobId(delivered),
      },
    );
    await completeNextJob();
    await ctx.queues.contactMail.add(
      'direct',
      { contactId: waiting },
      {
        jobId: contactMailJobId(waiting),
      },
    );

    expect(await pass()).toEqual({ contacts: 1, newsletterConfirmations: 0 });

    const left = await OwedMailModel.find().select({ _id: 1 }).lean();
    expect(left.map(({ _id }) => _id)).toEqual([`contact:${waiting}`]);
  });

  it('reads on past a whole batch of completed jobs, and stops at one that is in hand', async () => {
    const ids = await enquiriesWithJobs(4, 2);

    const { result, reads } = await countingOutboxReads(() =>
      relayOwedMail(ctx.queues, { pendingAgeMs: 0, batchSize: 2 }),
    );

    expect(result).toEqual({ contacts: 2, newsletterConfirmations: 0 });
    expect(reads).toBe(2);
    expect(await outboxIds()).toEqual(
      ids
        .slice(2)
        .map((id) => `contact:${id}`)
        .sort(),
    );
  });

  it('reads one batch only when nothing in it was taken out, full as it is', async () => {
    for (let index = 0; index < 3; index += 1)
      await storeContact(enquiry, 'en', UNWATCHED_CONTACTS);

    const { result, reads } = await countingOutboxReads(() =>
      relayOwedMail(ctx.queues, {
        pendingAgeMs: 0,
        batchSize: 2,
        now: new Date(Date.now() + 1000),
      }),
    );

    expect(result).toEqual({ contacts: 2, newsletterConfirmations: 0 });
    expect(reads).toBe(1);
  });

  it('stops reading at a batch that comes out short: the outbox has no more', async () => {
    await enquiriesWithJobs(3, 3);

    const { reads } = await countingOutboxReads(() =>
      relayOwedMail(ctx.queues, { pendingAgeMs: 0, batchSize: 2 }),
    );

    expect(reads).toBe(2);
    expect(await outboxIds()).toEqual([]);
  });

  it('reads at most twenty batches in one pass, however many completed jobs wait', async () => {
    await enquiriesWithJobs(22, 22);

    const { result, reads } = await countingOutboxReads(() =>
      relayOwedMail(ctx.queues, { pendingAgeMs: 0, batchSize: 1 }),
    );

    expect(result).toEqual({ contacts: 0, newsletterConfirmations: 0 });
    expect(reads).toBe(20);
    expect(await outboxIds()).toHaveLength(2);
  });
});
