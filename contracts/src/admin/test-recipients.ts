import { array, object, type InferType } from 'yup';
import { isDeliverableAddress } from '../validation/email-address';
import { message, text } from '../validation/fields';

/** The most entries the allow-list holds: it names people, not an audience. */
export const TEST_RECIPIENTS_MAX = 200;

/** `@client.tn`: every address of a domain, its labels as DNS allows them. */
const WHOLE_DOMAIN = /^@(?=.{4,254}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Whether an entry of the allow-list names a whole domain (`@client.tn`) rather than one address. */
export function isWholeDomain(entry: string): boolean {
  return entry.startsWith('@');
}

/** Whether a (lower-cased, trimmed) entry is an address or a whole domain. */
export function isAllowedRecipientEntry(entry: string): boolean {
  return isWholeDomain(entry) ? WHOLE_DOMAIN.test(entry) : isDeliverableAddress(entry);
}

/** One entry: `name@client.tn` or `@client.tn`, kept in lower case. */
export const allowedRecipientEntry = () =>
  text(254)
    // Not yup's lowercase(): it calls toLowerCase() on whatever arrived, a number too.
    .transform((value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value))
    .required(message('allowedRecipientInvalid'))
    .test('address-or-domain', message('allowedRecipientInvalid'), (value) =>
      value === undefined ? true : isAllowedRecipientEntry(value),
    );

/**
 * PUT /api/admin/settings/test-recipients: whom test mail may go to besides
 * the staff's own addresses. The whole list is sent each time; an entry given
 * twice (in any case) is refused at its second place.
 */
export const testRecipientsSchema = object({
  entries: array(allowedRecipientEntry())
    .typeError(message('mustBeList'))
    .required(message('required'))
    .max(TEST_RECIPIENTS_MAX, message('maxItems', { max: TEST_RECIPIENTS_MAX }))
    .test('once', (entries, context) => {
      const seen = new Set<string>();
      for (const [index, entry] of (entries ?? []).entries()) {
        if (seen.has(entry)) {
          return context.createError({
            path: `entries[${index}]`,
            message: message('allowedRecipientTwice'),
          });
        }
        seen.add(entry);
      }
      return true;
    }),
});
export type TestRecipientsInput = InferType<typeof testRecipientsSchema>;

/** GET and PUT /api/admin/settings/test-recipients answer the list as it is stored. */
export interface TestRecipientsDto {
  entries: string[];
  /** When an admin last changed it (ISO); null while it was never set. */
  updatedAt: string | null;
  /** The username of that admin. */
  updatedBy: string | null;
}
