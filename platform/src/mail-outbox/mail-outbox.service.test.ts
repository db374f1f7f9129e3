import { QUEUE_NAMES } from '@agency/contracts';
import { useFileDatabase } from '../testing/file-database';
import { MailReceiptModel } from './mail-receipt.model';
import {
  RECEIPT_ERROR_MAX_LENGTH,
  findFailedReceipts,
  findOwedMail,
  findOwedMailById,
  findOwedRefs,
  findReceipt,
  oweMail,
  recordReceipt,
  settleOwedMail,
} from '..';
import { OwedMailModel } from './owed-mail.model';

/**
 * The outbox of owed mail jobs and the receipts of sent or failed mails,
 * against the real store: no HTTP app, only the database this file owns.
 */
describe('the mail outbox', () => {
  useFileDatabase('outbox');
  beforeEach(async () => {
    await OwedMailModel.deleteMany({});
    await MailReceiptModel.deleteMany({});
  });

  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

  describe('owed jobs', () => {
    // Strict equality: a field the entry lacks must be absent, not undefined.
    it('are read back with what they carry, and nothing they do not', async () => {
      const at = minutesAgo(5);
      await oweMail(
        [
          {
            id: 'contact-1',
            job: QUEUE_NAMES.contactMail,
            contactId: 'c1',
            request: 0,
            payload: { firstName: 'Amira', locale: 'fr' },
          },
          { id: 'newsletter-1', job: QUEUE_NAMES.newsletterConfirmation, subscriberId: 's1' },
        ],
        at,
      );

      expect(await findOwedMailById('contact-1')).toStrictEqual({
        id: 'contact-1',
        job: QUEUE_NAMES.contactMail,
        contactId: 'c1',
        request: 0,
        payload: { firstName: 'Amira', locale: 'fr' },
        createdAt: at,
      });
      expect(await findOwedMailById('newsletter-1')).toStrictEqual({
        id: 'newsletter-1',
        job: QUEUE_NAMES.newsletterConfirmation,
        subscriberId: 's1',
        createdAt: at,
      });
      expect(await findOwedMailById('contact-unknown')).toBeNull();
    });

    it('are owed once, whoever wrote the entry first', async () => {
      await oweMail([{ id: 'contact-1', job: QUEUE_NAMES.contactMail, contactId: 'first' }]);
      await expect(
        oweMail([{ id: 'contact-1', job: QUEUE_NAMES.contactMail, contactId: 'second' }]),
      ).resolves.toBeUndefined();

      expect(await OwedMailModel.countDocuments()).toBe(1);
      expect(await findOwedMailById('contact-1')).toMatchObject({ contactId: 'first' });
    });

    it('stamp every entry with when it was owed, now unless told', async () => {
      const before = Date.now();
      await oweMail([{ id: 'contact-1', job: QUEUE_NAMES.contactMail, contactId: 'c1' }]);
      const entry = await findOwedMailById('contact-1');
      expect(entry?.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(entry?.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('are found by the relay once old enough, the oldest first, at most as many as asked', async () => {
      await oweMail([{ id: 'new', job: QUEUE_NAMES.contactMail, contactId: 'n' }], minutesAgo(0));
      await oweMail(
        [{ id: 'older', job: QUEUE_NAMES.contactMail, contactId: 'o' }],
        minutesAgo(10),
      );
      await oweMail(
        [{ id: 'oldest', job: QUEUE_NAMES.contactMail, contactId: 'x' }],
        minutesAgo(20),
      );
      await oweMail([{ id: 'old', job: QUEUE_NAMES.contactMail, contactId: 'y' }], minutesAgo(5));
      const cutoff = minutesAgo(5);

      expect((await findOwedMail(cutoff, 10)).map((entry) => entry.id)).toEqual([
        'oldest',
        'older',
        'old',
      ]);
      expect((await findOwedMail(cutoff, 2)).map((entry) => entry.id)).toEqual(['oldest', 'older']);
    });

    it('name the enquiries or subscribers of one kind of job', async () => {
      await oweMail([
        { id: 'contact-1', job: QUEUE_NAMES.contactMail, contactId: 'c1' },
        { id: 'contact-2', job: QUEUE_NAMES.contactMail, contactId: 'c2' },
        { id: 'newsletter-1', job: QUEUE_NAMES.newsletterConfirmation, subscriberId: 's1' },
      ]);

      expect((await findOwedRefs(QUEUE_NAMES.contactMail)).sort()).toEqual(['c1', 'c2']);
      expect(await findOwedRefs(QUEUE_NAMES.newsletterConfirmation)).toEqual(['s1']);
    });

    it('leave the outbox once settled, together when settled together', async () => {
      await oweMail([
        { id: 'contact-1', job: QUEUE_NAMES.contactMail, contactId: 'c1' },
        { id: 'contact-2', job: QUEUE_NAMES.contactMail, contactId: 'c2' },
        { id: 'contact-3', job: QUEUE_NAMES.contactMail, contactId: 'c3' },
      ]);
      await Promise.all([settleOwedMail('contact-1'), settleOwedMail('contact-3')]);

      expect(await findOwedMailById('contact-1')).toBeNull();
      expect(await findOwedMailById('contact-3')).toBeNull();
      expect(await findOwedMailById('contact-2')).not.toBeNull();
    });
  });

  describe('receipts', () => {
    it('record how a mail ended, with the reply of a failure', async () => {
      const at = minutesAgo(1);
      await recordReceipt({
        id: 'ack-c1',
        mail: 'contact-acknowledgement',
        ref: 'c1',
        outcome: 'failed',
        error: '550 5.1.1 mailbox unknown',
        at,
      });
      await recordReceipt({
        id: 'note-c1',
        mail: 'contact-notification',
        ref: 'c1',
        outcome: 'sent',
      });

      expect(await findReceipt('ack-c1')).toEqual({
        outcome: 'failed',
        at,
        error: '550 5.1.1 mailbox unknown',
      });
      const sent = await findReceipt('note-c1');
      expect(sent).toStrictEqual({ outcome: 'sent', at: expect.any(Date) });
      expect(Math.abs((sent?.at.getTime() ?? 0) - Date.now())).toBeLessThan(5000);
      expect(await findReceipt('note-unknown')).toBeNull();
    });

    it('keep the first outcome: a late failure never overwrites a sent mail', async () => {
      await recordReceipt({
        id: 'note-c1',
        mail: 'contact-notification',
        ref: 'c1',
        outcome: 'sent',
      });
      await expect(
        recordReceipt({
          id: 'note-c1',
          mail: 'contact-notification',
          ref: 'c1',
          outcome: 'failed',
          error: '451 try later',
        }),
      ).resolves.toBeUndefined();

      expect(await findReceipt('note-c1')).toEqual({ outcome: 'sent', at: expect.any(Date) });
    });

    it('keep a long SMTP reply readable, cut to its first 500 characters', async () => {
      const reply = `550 ${'x'.repeat(RECEIPT_ERROR_MAX_LENGTH * 2)}`;
      await recordReceipt({
        id: 'ack-c1',
        mail: 'contact-acknowledgement',
        ref: 'c1',
        outcome: 'failed',
        error: reply,
      });
      expect(RECEIPT_ERROR_MAX_LENGTH).toBe(500);
      expect((await findReceipt('ack-c1'))?.error).toBe(reply.slice(0, 500));
    });

    it('list the failed mails of one kind, each with its enquiry or subscriber', async () => {
      const at = minutesAgo(2);
      await Promise.all([
        recordReceipt({
          id: 'a1',
          mail: 'contact-acknowledgement',
          ref: 'c1',
          outcome: 'failed',
          error: '550 no',
          at,
        }),
        recordReceipt({
          id: 'a2',
          mail: 'contact-acknowledgement',
          ref: 'c2',
          outcome: 'sent',
          at,
        }),
        recordReceipt({
          id: 'a3',
          mail: 'contact-acknowledgement',
          ref: 'c3',
          outcome: 'failed',
          at,
        }),
        recordReceipt({
          id: 'n1',
          mail: 'contact-notification',
          ref: 'c1',
          outcome: 'failed',
          error: '554',
          at,
        }),
      ]);

      const failed = await findFailedReceipts('contact-acknowledgement');
      expect(failed.sort((a, b) => a.ref.localeCompare(b.ref))).toStrictEqual([
        { ref: 'c1', outcome: 'failed', at, error: '550 no' },
        { ref: 'c3', outcome: 'failed', at },
      ]);
    });
  });
});
