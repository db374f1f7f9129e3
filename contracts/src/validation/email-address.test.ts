import fc from 'fast-check';
import { object } from 'yup';
import {
  EMAIL_ADDRESS_MAX_LENGTH,
  emailAddress,
  isDeliverableAddress,
  optionalEmailAddress,
} from './email-address';

/** RFC 5321 atext: what a dot-atom local part is made of besides dots. */
const ATEXT = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...`!#$%&'*+-/=?^_\`{|}~`,
];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];
const LETTER_DIGIT = [...LETTERS, ...'0123456789'];

const atom = fc.string({ unit: fc.constantFrom(...ATEXT), minLength: 1, maxLength: 12 });
const localPart = fc
  .array(atom, { minLength: 1, maxLength: 4 })
  .map((atoms) => atoms.join('.'))
  .filter((local) => local.length <= 64);

/** A DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const label = fc
  .tuple(
    fc.constantFrom(...LETTER_DIGIT),
    fc.string({ unit: fc.constantFrom(...LETTER_DIGIT, '-'), maxLength: 20 }),
    fc.constantFrom(...LETTER_DIGIT),
  )
  .map(([first, inner, last]) => `${first}${inner}${last}`);
const tld = fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 2, maxLength: 10 });
const domainLabels = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([labels, top]) => [...labels, top]);

interface Parts {
  local: string;
  labels: string[];
}
const addressParts: fc.Arbitrary<Parts> = fc
  .record({ local: localPart, labels: domainLabels })
  .filter(({ local, labels }) => `${local}@${labels.join('.')}`.length <= EMAIL_ADDRESS_MAX_LENGTH);
const join = ({ local, labels }: Parts) => `${local}@${labels.join('.')}`;

describe('the address rule (isDeliverableAddress)', () => {
  it('takes every dot-atom address with a domain of valid labels and a TLD', () => {
    fc.assert(fc.property(addressParts, (parts) => isDeliverableAddress(join(parts))));
  });

  /** Each turns a valid address into one the rule must refuse. */
  const malformations: Record<string, (parts: Parts, at: number) => string> = {
    'a leading dot in the local part': (p) => join({ ...p, local: `.${p.local}` }),
    'a trailing dot in the local part': (p) => join({ ...p, local: `${p.local}.` }),
    'two dots in a row in the local part': (p, at) => {
      const cut = 1 + (at % p.local.length);
      return join({ ...p, local: `${p.local.slice(0, cut)}..${p.local.slice(cut)}` });
    },
    'a label starting with a hyphen': (p, at) =>
      join({ ...p, labels: p.labels.map((l, i) => (i === at % p.labels.length ? `-${l}` : l)) }),
    'a label ending with a hyphen': (p, at) =>
      join({ ...p, labels: p.labels.map((l, i) => (i === at % p.labels.length ? `${l}-` : l)) }),
    'an empty label': (p) => `${p.local}@${p.labels.join('..')}`,
    'no TLD': (p) => `${p.local}@${p.labels.slice(0, -1).join('-')}`,
    'a numeric TLD': (p) => join({ ...p, labels: [...p.labels.slice(0, -1), '123'] }),
    'a local part over 64 characters': (p) => join({ ...p, local: p.local.padEnd(65, 'x') }),
    'a label over 63 characters': (p) =>
      join({ ...p, labels: [p.labels.join('').padEnd(64, 'x'), 'tn'] }),
    'a whole over 254 characters': (p) =>
      join({ local: p.local, labels: [...Array<string>(4).fill('d'.repeat(63)), 'tn'] }),
    'a space': (p, at) => {
      const address = join(p);
      const cut = at % (address.length + 1);
      return `${address.slice(0, cut)} ${address.slice(cut)}`;
    },
    'no @': (p) => `${p.local}${p.labels.join('.')}`,
    'two @': (p) => `${p.local}@${join(p)}`,
    'a quoted local part': (p) => join({ ...p, local: `"${p.local}"` }),
    'an IP literal for a domain': (p) => `${p.local}@[192.0.2.${p.labels.length}]`,
    'a display name': (p) => `Someone <${join(p)}>`,
    'a non-ASCII local part': (p) => join({ ...p, local: `${p.local}é` }),
  };

  it.each(Object.entries(malformations))('refuses an address with %s', (_name, malform) => {
    fc.assert(
      fc.property(addressParts, fc.nat(), (parts, at) => !isDeliverableAddress(malform(parts, at))),
    );
  });

  const local64 = 'l'.repeat(64);
  const label63 = 'd'.repeat(63);
  /** A domain that makes the address exactly `length` long with a 64-character local part. */
  const domainFor = (length: number) =>
    `${label63}.${label63}.${'c'.repeat(length - 64 - 1 - 63 - 1 - 63 - 1 - 3)}.tn`;

  // RFC 5321 §4.1.2 (dot-atom, domain), §4.5.3.1 (lengths), RFC 1035 labels, RFC 5890 IDN.
  it.each([
    ['simple@example.com', true],
    ['very.common@example.com', true],
    ['x@example.com', true],
    ['UPPER.Case@EXAMPLE.COM', true],
    ['user.name+tag+sorting@example.com', true],
    ['name/surname@example.com', true],
    ["o'brien@example.ie", true],
    ["!#$%&'*+-/=?^_`{|}~@example.org", true],
    ['long.email-address-with-hyphens@and.subdomains.example.com', true],
    ['contact@mail-server.agency.tn', true],
    ['user@xn--mgbh0fb.xn--pgbs0dh', true],
    ['user@مثال.تونس', true],
    ['user@café.fr', true],
    [`${local64}@example.com`, true],
    [`user@${label63}.com`, true],
    [`${local64}@${domainFor(254)}`, true],
    ['Abc.example.com', false],
    ['A@b@c@example.com', false],
    ['.dot@example.com', false],
    ['user.@example.com', false],
    ['john..doe@example.com', false],
    ['user@-example.com', false],
    ['user@example-.com', false],
    ['user@example..com', false],
    ['user@.example.com', false],
    ['user@example.com.', false],
    ['user@exa_mple.com', false],
    ['user@example', false],
    ['admin@localhost', false],
    ['user@example.c', false],
    ['user@example.123', false],
    ['user@[192.0.2.1]', false],
    ['user@[IPv6:2001:db8::1]', false],
    ['user@192.0.2.1', false],
    ['"john..doe"@example.org', false],
    ['"a b"@example.com', false],
    ['a"b(c)d,e:f;g<h>i[j\\k]l@example.com', false],
    ['Ann <ann@example.com>', false],
    ['user name@example.com', false],
    ['user@example.com\n', false],
    ['@example.com', false],
    ['user@', false],
    ['', false],
    ['δοκιμή@example.com', false],
    ['مستخدم@example.com', false],
    [`${local64}l@example.com`, false],
    [`user@${label63}d.com`, false],
    [`${local64}@${domainFor(255)}`, false],
  ])('%j → %s', (address, expected) => {
    expect(isDeliverableAddress(address)).toBe(expected);
  });
});

describe('the address fields of the schemas', () => {
  const required = object({ email: emailAddress() });
  const optional = object({ email: optionalEmailAddress() });

  it('refuses a malformed address with the address message', async () => {
    await expect(required.validate({ email: 'user.@example.com' })).rejects.toMatchObject({
      path: 'email',
      errors: [{ key: 'emailInvalid' }],
    });
    await expect(optional.validate({ email: 'user@-example.com' })).rejects.toMatchObject({
      errors: [{ key: 'emailInvalid' }],
    });
  });

  it('takes a good address with the spaces around it trimmed', async () => {
    await expect(required.validate({ email: '  ann@agency.tn ' })).resolves.toEqual({
      email: 'ann@agency.tn',
    });
  });

  it('asks for an address when none is given, and leaves an optional one out', async () => {
    await expect(required.validate({ email: '' })).rejects.toMatchObject({
      errors: [{ key: 'emailInvalid' }],
    });
    await expect(optional.validate({ email: '' })).resolves.toEqual({});
  });
});
