import isEmail, { type IsEmailOptions } from 'validator/lib/isEmail';
import { message, optionalText, text } from './fields';

/** RFC 5321 §4.5.3.1: the longest forward path is 256 octets, two of them the angle brackets. */
export const EMAIL_ADDRESS_MAX_LENGTH = 254;

/**
 * What we can hand to an SMTP server and expect it to take. validator's
 * isEmail (maintained, and it runs in the browser too) checks the shape; the
 * options narrow it to what RFC 5321 mail between strangers needs:
 * - dot-atom local parts only: quoted ones ("a b"@x) are legal but refused by
 *   many servers and always a typo in a form (`"` is refused outright);
 * - ASCII local parts: a UTF-8 one needs SMTPUTF8 on every hop, which a
 *   campaign cannot count on;
 * - a domain of dot-separated labels of at most 63 characters, none starting or
 *   ending with a hyphen, ending in an alphabetic TLD; internationalised
 *   domains (مثال.تونس, café.fr) are taken, Nodemailer sends them in punycode;
 * - no IP literals ([192.0.2.1]) and no display names ("Ann <a@x.tn>");
 * - local part at most 64 octets, the whole at most 254 characters
 *   (EMAIL_ADDRESS_MAX_LENGTH, validator's own limit).
 */
const DELIVERABLE: IsEmailOptions = {
  allow_display_name: false,
  require_display_name: false,
  allow_utf8_local_part: false,
  require_tld: true,
  allow_ip_domain: false,
  allow_underscores: false,
  domain_specific_validation: false,
  ignore_max_length: false,
  blacklisted_chars: '"',
};

/** The one address rule of the product: forms, API, list import and settings use it. */
export function isDeliverableAddress(address: string): boolean {
  return isEmail(address, DELIVERABLE);
}

/** A required e-mail field, trimmed, checked by the address rule. */
export function emailAddress() {
  return text(EMAIL_ADDRESS_MAX_LENGTH)
    .required(message('emailInvalid'))
    .test('email-address', message('emailInvalid'), (value) =>
      value === undefined ? true : isDeliverableAddress(value),
    );
}

/** An e-mail field that may be left empty; when given, the address rule applies. */
export function optionalEmailAddress() {
  return optionalText(EMAIL_ADDRESS_MAX_LENGTH).test(
    'email-address',
    message('emailInvalid'),
    (value) => (value === undefined ? true : isDeliverableAddress(value)),
  );
}
