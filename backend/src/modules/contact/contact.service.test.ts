import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  findOwedMail,
  contactIdFilterForMailState,
  contactMailStatuses,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  settleContactMails,
  storeContact,
  UNWATCHED_CONTACTS,
} from '@agency/platform';
import { MailReceiptModel, OwedMailModel } from '@agency/platform/testing/outbox-models';
import { ContactModel } from '@agency/platform/testing/contact-models';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await Promise.all([
    ContactModel.deleteMany({}),
    OwedMailModel.deleteMany({}),
    MailReceiptModel.deleteMany({}),
  ]);
});

const enquiry = {
  firstName: 'Ines',
  lastName: 'Jaziri',
  email: 'ines@example.tn',
  service: 'social-media' as const,
  message: 'Three posts a week on Instagram.',
};

async function stored() {
  return (await storeContact(enquiry, 'en', UNWATCHED_CONTACTS)).id;
}
const later = () => new Date(Date.now() + 60_000);

describe('storing an enquiry', () => {
  it('stores it with both mails owed, in one outbox entry for its job', async () => {
    const id = await stored();

    expect(await ContactModel.findById(id).lean()).toMatchObject({ ...enquiry, locale: 'en' });
    expect(await findOwedMail(later(), 10)).toEqual([
      expect.objectContaining({ id: `contact:${id}`, job: 'contact-mail', contactId: id }),
    ]);
    expect(await contactMailStatuses(id)).toEqual({
      notification: { state: 'pending' },
      acknowledgement: { state: 'pending' },
    });
  });

  it('leaves the enquiry untouched by everything that happens to its mails', async () => {
    const id = await stored();
    const before = await ContactModel.findById(id).lean();

    await markContactMailSent(id);
    await markContactAcknowledgementFailed(id, '550 no such user');
    await settleContactMails(id);

    expect(await ContactModel.findById(id).lean()).toEqual(before);
    expect(await findOwedMail(later(), 10)).toEqual([]);
  });
});

describe.each([
  {
    mail: 'notification',
    markSent: markContactMailSent,
    markFailed: markContactMailFailed,
  },
  {
    mail: 'acknowledgement',
    markSent: markContactAcknowledgementSent,
    markFailed: markContactAcknowledgementFailed,
  },
] as const)('the $mail mail of an enquiry', ({ mail, markSent, markFailed }) => {
  const statusOf = async (id: string) => (await contactMailStatuses(id))[mail];

  it('starts owed, and is owed no more once sent', async () => {
    const id = await stored();
    expect(await statusOf(id)).toEqual({ state: 'pending' });

    await markSent(id);

    expect(await statusOf(id)).toEqual({ state: 'sent', at: expect.any(Date) });
  });

  it('records a failure with its reason, shortened to 500 characters', async () => {
    const id = await stored();

    await markFailed(id, `550 ${'x'.repeat(600)}`);

    const status = await statusOf(id);
    expect(status.state).toBe('failed');
    expect(status.error).toHaveLength(500);
    expect(status.error?.startsWith('550 ')).toBe(true);
  });

  it('never lets a late failure overwrite a mail that was sent', async () => {
    const id = await stored();
    await markSent(id);

    await markFailed(id, '451 too late');

    expect(await statusOf(id)).toEqual({ state: 'sent', at: expect.any(Date) });
  });

  it('never turns a recorded failure into a success', async () => {
    const id = await stored();
    await markFailed(id, '550 no such user');

    await markSent(id);

    expect((await statusOf(id)).state).toBe('failed');
  });
});

describe("finding enquiries by their notification's state", () => {
  it('tells pending, sent and failed apart, whatever the acknowledgement did', async () => {
    const [pending, ackSentOnly, sent, failed] = [
      await stored(),
      await stored(),
      await stored(),
      await stored(),
    ];
    await markContactAcknowledgementSent(ackSentOnly);
    await markContactMailSent(sent);
    await markContactAcknowledgementSent(sent);
    await settleContactMails(sent);
    await markContactMailFailed(failed, '550 no such user');

    const idsWith = async (state: 'pending' | 'sent' | 'failed') => {
      const filter = await contactIdFilterForMailState(state);
      const contacts = await ContactModel.find(filter).select({ _id: 1 }).lean();
      return contacts.map((contact) => String(contact._id)).sort();
    };

    expect(await idsWith('pending')).toEqual([pending, ackSentOnly].sort());
    expect(await idsWith('sent')).toEqual([sent]);
    expect(await idsWith('failed')).toEqual([failed]);
  });
});
