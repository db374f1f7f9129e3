import mongoose, { Types } from 'mongoose';
import { QUEUE_NAMES } from '@agency/contracts';
import { useFileDatabase } from '../testing/file-database';
import { findOwedMailById, oweMail } from '..';
import { MailReceiptModel, OwedMailModel } from '../testing/outbox-models';
import { ContactModel } from '../testing/contact-models';
import {
  contactForMail,
  contactIdFilterForMailState,
  contactMailStatesInBulk,
  contactMailStatuses,
  contactOutboxId,
  findContactForMail,
  keepStoredContacts,
  UNWRITTEN_ENQUIRY_GRACE_MS,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  oweContactMails,
  settleContactMails,
  type ContactMailPayload,
} from '..';

/**
 * Where an enquiry's two mails stand, read from the mail outbox and the
 * receipts alone, against the real store: no HTTP app, only the database
 * this file owns.
 */
useFileDatabase('mailstate');
beforeEach(async () => {
  await Promise.all([
    ContactModel.deleteMany({}),
    OwedMailModel.deleteMany({}),
    MailReceiptModel.deleteMany({}),
  ]);
});

const withoutPhone: ContactMailPayload = {
  firstName: 'Ines',
  lastName: 'Jaziri',
  email: 'ines@example.tn',
  service: 'social-media',
  message: 'Three posts a week on Instagram.',
  locale: 'fr',
  createdAt: '2024-03-01T09:30:00.000Z',
};
const payload: ContactMailPayload = { ...withoutPhone, phone: '+216 71 000 000' };

/** The payload without one of its fields. */
function lacking(field: keyof ContactMailPayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([key]) => key !== field));
}

const newId = () => new Types.ObjectId().toHexString();

/** An enquiry written the way the API writes one: its mails owed first, then the enquiry. */
async function storedEnquiry(): Promise<string> {
  const id = newId();
  await oweContactMails(id, payload);
  await ContactModel.create({ _id: id, ...payload, createdAt: new Date(payload.createdAt) });
  return id;
}

/** `count` enquiries whose two mails are owed, as after a mail-server outage; their ids. */
async function enquiriesOwingMail(count: number): Promise<string[]> {
  const owed = Array.from({ length: count }, newId);
  await oweMail(
    owed.map((id) => ({
      id: contactOutboxId(id),
      job: QUEUE_NAMES.contactMail,
      contactId: id,
      payload,
    })),
  );
  return owed;
}

/** An outbox entry for an enquiry's mails carrying whatever payload it is given. */
async function oweWithPayload(id: string, entryPayload?: Record<string, unknown>) {
  await oweMail([
    {
      id: contactOutboxId(id),
      job: QUEUE_NAMES.contactMail,
      contactId: id,
      ...(entryPayload ? { payload: entryPayload } : {}),
    },
  ]);
}

describe('owing the mails of a new enquiry', () => {
  // The relay re-enqueues entries by their age, so the entry must date from the enquiry.
  it('dates the outbox entry from when the enquiry was made', async () => {
    const id = newId();

    await oweContactMails(id, payload);

    expect(await findOwedMailById(contactOutboxId(id))).toMatchObject({
      contactId: id,
      createdAt: new Date(payload.createdAt),
    });
  });
});

describe('the enquiry as its mails read it', () => {
  it('is rebuilt from its outbox entry, with where each mail stands', async () => {
    const id = newId();
    await oweContactMails(id, payload);
    await markContactMailSent(id);

    expect(await findContactForMail(id)).toStrictEqual({
      id,
      ...payload,
      status: 'new',
      mailState: 'sent',
      acknowledgementState: 'pending',
    });
  });

  it('has no phone when the visitor gave none', async () => {
    const id = newId();
    await oweContactMails(id, withoutPhone);
    await markContactAcknowledgementFailed(id, '550 no such user');

    expect(await findContactForMail(id)).toStrictEqual({
      id,
      ...withoutPhone,
      status: 'new',
      mailState: 'pending',
      acknowledgementState: 'failed',
    });
  });

  it('is gone once its mails are settled, or for an enquiry never owed any', async () => {
    const id = await storedEnquiry();
    await settleContactMails(id);

    expect(await findContactForMail(id)).toBeNull();
    expect(await findContactForMail(newId())).toBeNull();
  });

  it.each<[string, Record<string, unknown> | undefined]>([
    ['no payload at all', undefined],
    ['a payload without the first name', lacking('firstName')],
    ['a payload without the creation date', lacking('createdAt')],
    ['a first name that is not text', { ...payload, firstName: 42 }],
    ['a creation date that is not text', { ...payload, createdAt: 1_709_285_400_000 }],
    ['a phone that is not text', { ...payload, phone: 71_000_000 }],
  ])('cannot be rebuilt from an entry with %s', async (_label, entryPayload) => {
    const id = newId();
    await oweWithPayload(id, entryPayload);

    expect(await findContactForMail(id)).toBeNull();
  });

  it("is, for a new enquiry's first job, one with both mails owed", () => {
    expect(contactForMail('c1', payload)).toStrictEqual({
      id: 'c1',
      ...payload,
      status: 'new',
      mailState: 'pending',
      acknowledgementState: 'pending',
    });
  });
});

describe('checking that enquiries owing mail were stored', () => {
  it('keeps the stored ones and drops the outbox entry of one never written', async () => {
    const stored = await storedEnquiry();
    const neverWritten = newId();
    await oweContactMails(neverWritten, payload);
    const owedSince = new Date(Date.now() - UNWRITTEN_ENQUIRY_GRACE_MS - 1000);

    expect(
      await keepStoredContacts(
        [
          { id: stored, owedSince },
          { id: neverWritten, owedSince },
        ],
        new Date(Date.now() - UNWRITTEN_ENQUIRY_GRACE_MS),
      ),
    ).toEqual([stored]);
    expect(await findOwedMailById(contactOutboxId(stored))).not.toBeNull();
    expect(await findOwedMailById(contactOutboxId(neverWritten))).toBeNull();
  });

  it('leaves the entry of an enquiry still being written for a later pass', async () => {
    const slowWrite = newId();
    await oweContactMails(slowWrite, payload);

    expect(
      await keepStoredContacts(
        [{ id: slowWrite, owedSince: new Date() }],
        new Date(Date.now() - UNWRITTEN_ENQUIRY_GRACE_MS),
      ),
    ).toEqual([]);
    expect(await findOwedMailById(contactOutboxId(slowWrite))).not.toBeNull();
  });
});

describe('where both mails of an enquiry stand', () => {
  // Strict equality: a mail that did not fail carries no error, not an undefined one.
  it('tells when each mail ended, and why a failed one failed', async () => {
    const id = await storedEnquiry();
    await markContactMailSent(id);
    await markContactAcknowledgementFailed(id, '550 no such user');

    expect(await contactMailStatuses(id)).toStrictEqual({
      notification: { state: 'sent', at: expect.any(Date) },
      acknowledgement: { state: 'failed', at: expect.any(Date), error: '550 no such user' },
    });
  });
});

describe("finding enquiries by their notification's state", () => {
  const idsWith = async (state: 'pending' | 'sent' | 'failed') => {
    const filter = await contactIdFilterForMailState(state);
    const contacts = await ContactModel.find(filter).select({ _id: 1 }).lean();
    return contacts.map((contact) => String(contact._id)).sort();
  };

  it('counts a notification sent while the acknowledgement is still owed as sent', async () => {
    const [pending, notifiedOnly, failedInFlight] = [
      await storedEnquiry(),
      await storedEnquiry(),
      await storedEnquiry(),
    ];
    await markContactMailSent(notifiedOnly);
    await markContactMailFailed(failedInFlight, '451 try later');

    expect(await idsWith('pending')).toEqual([pending]);
    expect(await idsWith('sent')).toEqual([notifiedOnly]);
    expect(await idsWith('failed')).toEqual([failedInFlight]);
  });
});

describe('where the mails of every enquiry stand, read in bulk', () => {
  it('reads mails in flight exactly, failed ones from their receipts, and all others as sent', async () => {
    const [inFlight, notificationFailed, acknowledgementFailed, delivered] = [
      await storedEnquiry(),
      await storedEnquiry(),
      await storedEnquiry(),
      await storedEnquiry(),
    ];
    await markContactMailSent(inFlight);
    await markContactMailFailed(notificationFailed, '550 mailbox full');
    await markContactAcknowledgementSent(notificationFailed);
    await markContactMailSent(acknowledgementFailed);
    await markContactAcknowledgementFailed(acknowledgementFailed, '550 no such user');
    await markContactMailSent(delivered);
    await markContactAcknowledgementSent(delivered);
    for (const id of [notificationFailed, acknowledgementFailed, delivered]) {
      await settleContactMails(id);
    }

    const mailsOf = await contactMailStatesInBulk();

    expect(mailsOf(inFlight)).toStrictEqual({
      notification: { state: 'sent', at: expect.any(Date) },
      acknowledgement: { state: 'pending' },
    });
    expect(mailsOf(notificationFailed)).toStrictEqual({
      notification: { state: 'failed', at: expect.any(Date), error: '550 mailbox full' },
      acknowledgement: { state: 'sent' },
    });
    expect(mailsOf(acknowledgementFailed)).toStrictEqual({
      notification: { state: 'sent' },
      acknowledgement: { state: 'failed', at: expect.any(Date), error: '550 no such user' },
    });
    expect(mailsOf(delivered)).toStrictEqual({
      notification: { state: 'sent' },
      acknowledgement: { state: 'sent' },
    });
  });
});

describe('the enquiries still owed mail after an outage, read a few at a time', () => {
  /** The most reads of receipts the store was answering at once while `read` ran. */
  async function mostReceiptReadsAtOnce(read: () => Promise<unknown>): Promise<number> {
    const receipts = MailReceiptModel.collection.collectionName;
    const prototype = mongoose.mongo.Collection.prototype as unknown as {
      findOne: (this: { collectionName: string }, ...args: unknown[]) => Promise<unknown>;
    };
    const findOne = prototype.findOne;
    let open = 0;
    let most = 0;
    // Every read by id goes through the driver's findOne: counted on its way to the store.
    const spy = jest.spyOn(prototype, 'findOne').mockImplementation(async function counted(
      this: { collectionName: string },
      ...args: unknown[]
    ) {
      if (this.collectionName !== receipts) return findOne.apply(this, args);
      open += 1;
      most = Math.max(most, open);
      try {
        return await findOne.apply(this, args);
      } finally {
        open -= 1;
      }
    });
    try {
      await read();
    } finally {
      spy.mockRestore();
    }
    return most;
  }

  it('never asks the store for every owed enquiry at once', async () => {
    const owed = await enquiriesOwingMail(150);

    let mailsOf: Awaited<ReturnType<typeof contactMailStatesInBulk>> | undefined;
    const exportReads = await mostReceiptReadsAtOnce(async () => {
      mailsOf = await contactMailStatesInBulk();
    });
    // 20 enquiries at a time, each one read of its two receipts.
    expect(exportReads).toBeGreaterThan(1);
    expect(exportReads).toBeLessThanOrEqual(40);
    expect(owed.map((id) => mailsOf?.(id))).toEqual(
      owed.map(() => ({
        notification: { state: 'pending' },
        acknowledgement: { state: 'pending' },
      })),
    );

    let filter: Awaited<ReturnType<typeof contactIdFilterForMailState>> | undefined;
    const filterReads = await mostReceiptReadsAtOnce(async () => {
      filter = await contactIdFilterForMailState('pending');
    });
    expect(filterReads).toBeGreaterThan(1);
    expect(filterReads).toBeLessThanOrEqual(20);
    expect(JSON.stringify(filter)).toContain(owed[149]);
  });
});

describe('the mail states of a cancelled export', () => {
  it('start no more reads once the download is cancelled', async () => {
    await enquiriesOwingMail(200);
    const findOne = mongoose.mongo.Collection.prototype.findOne;
    const cancelled = new AbortController();
    let reads = 0;
    const spy = jest
      .spyOn(mongoose.mongo.Collection.prototype, 'findOne')
      .mockImplementation(function counted(this: unknown, ...args: unknown[]) {
        reads += 1;
        // The download is cancelled while the first reads are under way.
        if (reads === 5) cancelled.abort();
        return (findOne as (...all: unknown[]) => unknown).apply(this, args) as never;
      });
    try {
      await expect(contactMailStatesInBulk(cancelled.signal)).rejects.toThrow(/abort/i);
    } finally {
      spy.mockRestore();
    }
    // The reads in flight when it was cancelled finish; no other starts (400 without the signal).
    expect(reads).toBeLessThanOrEqual(2 * 20 + 2);
  });
});
