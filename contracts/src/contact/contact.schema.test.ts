import { ValidationError } from 'yup';
import { EMPTY_CONTACT_FORM, contactSchema } from './contact.schema';

const enquiry = {
  firstName: 'Amira',
  lastName: 'Ben Salah',
  email: 'amira@example.tn',
  service: 'web-design',
  message: 'We need a new website for our bakery.',
};

/** The reasons a refused enquiry is given, by field. */
async function reasonsFor(input: object): Promise<Record<string, unknown>> {
  try {
    await contactSchema.validate(input, { abortEarly: false, stripUnknown: true });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return Object.fromEntries(error.inner.map((issue) => [issue.path, issue.message]));
  }
}

describe('the contact form\'s "send me news" box', () => {
  it('starts unticked, and an enquiry that leaves it out gave no consent', async () => {
    expect(EMPTY_CONTACT_FORM.newsletterConsent).toBe(false);
    expect(await contactSchema.validate(enquiry)).toMatchObject({ newsletterConsent: false });
  });

  it('keeps a true or false answer as given', async () => {
    expect(await contactSchema.validate({ ...enquiry, newsletterConsent: true })).toMatchObject({
      newsletterConsent: true,
    });
    expect(await contactSchema.validate({ ...enquiry, newsletterConsent: false })).toMatchObject({
      newsletterConsent: false,
    });
  });

  it.each([['true'], ['on'], [1], [0], [null], [{}]])(
    'refuses %j, which is no answer of a box, naming the field',
    async (answer) => {
      expect(await reasonsFor({ ...enquiry, newsletterConsent: answer })).toEqual({
        newsletterConsent: { key: 'mustBeTrueOrFalse' },
      });
    },
  );
});
