import { createTestContext, type TestContext } from '../../testing/test-context';
import { ContactModel } from './contact.model';
import {
  findContactIdsAwaitingAcknowledgement,
  findContactIdsAwaitingMail,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  storeContact,
} from './contact.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ContactModel.deleteMany({});
});

const enquiry = {
  firstName: 'Ines',
  lastName: 'Jaziri',
  email: 'ines@example.tn',
  service: 'social-media' as const,
  message: 'Three posts a week on Instagram.',
};

async function stored() {
  return (await storeContact(enquiry, 'en')).id as string;
}
const reload = (id: string) => ContactModel.findById(id).lean();

describe.each([
  {
    mail: 'notification',
    state: 'mailState',
    error: 'mailError',
    sentAt: 'mailSentAt',
    markSent: markContactMailSent,
    markFailed: markContactMailFailed,
    awaiting: findContactIdsAwaitingMail,
  },
  {
    mail: 'acknowledgement',
    state: 'acknowledgementState',
    error: 'acknowledgementError',
    sentAt: 'acknowledgementSentAt',
    markSent: markContactAcknowledgementSent,
    markFailed: markContactAcknowledgementFailed,
    awaiting: findContactIdsAwaitingAcknowledgement,
  },
] as const)(
  'the $mail mail of an enquiry',
  ({ state, error, sentAt, markSent, markFailed, awaiting }) => {
    it('starts owed, and is owed no more once sent', async () => {
      const id = await stored();
      const later = new Date(Date.now() + 60_000);
      expect(await awaiting(later, 10)).toEqual([id]);

      await markSent(id);

      const contact = await reload(id);
      expect(contact?.[state]).toBe('sent');
      expect(contact?.[sentAt]).toBeInstanceOf(Date);
      expect(await awaiting(later, 10)).toEqual([]);
    });

    it('records a failure with its reason, shortened to 500 characters', async () => {
      const id = await stored();

      await markFailed(id, `550 ${'x'.repeat(600)}`);

      const contact = await reload(id);
      expect(contact?.[state]).toBe('failed');
      expect(contact?.[error]).toHaveLength(500);
      expect(contact?.[error]?.startsWith('550 ')).toBe(true);
    });

    it('never lets a late failure overwrite a mail that was sent', async () => {
      const id = await stored();
      await markSent(id);

      await markFailed(id, '451 too late');

      const contact = await reload(id);
      expect(contact?.[state]).toBe('sent');
      expect(contact?.[error]).toBeUndefined();
    });

    it('never turns a recorded failure into a success', async () => {
      const id = await stored();
      await markFailed(id, '550 no such user');

      await markSent(id);

      expect((await reload(id))?.[state]).toBe('failed');
    });

    it('leaves mail owed for less than the given age to the API', async () => {
      const id = await stored();
      const earlier = new Date(Date.now() - 60_000);

      expect(await awaiting(earlier, 10)).toEqual([]);
      expect(await awaiting(new Date(Date.now() + 60_000), 10)).toEqual([id]);
    });
  },
);

describe('finding enquiries that owe mail', () => {
  it('returns the longest waiting first, at most the limit', async () => {
    const ids = [await stored(), await stored(), await stored()];
    const minutesAgo = [1, 3, 2];
    for (const [index, id] of ids.entries()) {
      await ContactModel.updateOne(
        { _id: id },
        { $set: { updatedAt: new Date(Date.now() - (minutesAgo[index] ?? 0) * 60_000) } },
        { timestamps: false },
      );
    }

    expect(await findContactIdsAwaitingMail(new Date(), 2)).toEqual([ids[1], ids[2]]);
  });
});
