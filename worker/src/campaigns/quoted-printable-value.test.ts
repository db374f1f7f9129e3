import fc from 'fast-check';
import { quotedPrintable, quotedPrintableValue } from './quoted-printable-value';

/** RFC 2045 decoding: soft breaks vanish, `=XX` is the byte XX. */
function decoded(encoded: string): string {
  const bytes = encoded
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

const lines = (encoded: string) => encoded.split('\r\n');

/** A recipient's values in a mail's bodies: what any mail program reads back, line by line. */
describe('quotedPrintableValue', () => {
  it('leaves a short plain value as it is, as Nodemailer does', () => {
    for (const value of ['', 'Amira', 'Jean-Baptiste Ben Ali', 'amira@example.tn']) {
      expect(quotedPrintableValue(value)).toBe(value);
      expect(quotedPrintableValue(value)).toBe(quotedPrintable(value));
    }
  });

  it('escapes every = and a last space, and nothing else of printable ASCII', () => {
    expect(quotedPrintableValue('a=b==c')).toBe('a=3Db=3D=3Dc');
    expect(quotedPrintableValue('Sami ')).toBe('Sami=20');
    expect(quotedPrintableValue(' a b ')).toBe(' a b=20');
    expect(quotedPrintableValue('<b>"x" & y\'s</b>')).toBe('<b>"x" & y\'s</b>');
  });

  it('breaks a long link before column 76, never inside an escape', () => {
    const link = `https://agency.tn/fr/newsletter/preferences?token=${'m'.repeat(120)}&lang=fr`;
    const encoded = quotedPrintableValue(link);
    expect(decoded(encoded)).toBe(link);
    for (const line of lines(encoded)) expect(line.length).toBeLessThanOrEqual(76);
    expect(lines(encoded)[0]).toBe(`${link.slice(0, 49)}=3D${'m'.repeat(23)}=`);
    // An escape that would straddle column 76 starts the next line; one that fits stays.
    expect(lines(quotedPrintableValue(`${'x'.repeat(72)}=${'y'.repeat(9)}`))[0]).toBe(
      `${'x'.repeat(72)}=3D=`,
    );
    expect(lines(quotedPrintableValue(`${'x'.repeat(73)}=${'y'.repeat(9)}`))[0]).toBe(
      `${'x'.repeat(73)}=`,
    );
    for (const shift of [72, 73, 74, 75, 76]) {
      const value = `${'x'.repeat(shift)}=${'y'.repeat(80)}`;
      const encodedValue = quotedPrintableValue(value);
      expect(decoded(encodedValue)).toBe(value);
      for (const line of lines(encodedValue)) {
        expect(line.length).toBeLessThanOrEqual(76);
        expect(line).toMatch(/^(?:[^=]|=3D|=20)*=?$/);
      }
    }
  });

  it('breaks a value of exactly 76 characters not at all, and of 77 once', () => {
    expect(quotedPrintableValue('a'.repeat(76))).toBe('a'.repeat(76));
    expect(quotedPrintableValue('a'.repeat(77))).toBe(`${'a'.repeat(75)}=\r\n${'a'.repeat(2)}`);
  });

  it('encodes anything but printable ASCII as Nodemailer does', () => {
    for (const value of [
      'ليلى ',
      'Zoë',
      'tab\there',
      'two\nlines',
      'del\x7f',
      `${'é'.repeat(60)}`,
    ]) {
      expect(quotedPrintableValue(value)).toBe(quotedPrintable(value));
    }
  });

  it('decodes to exactly any value, in lines of 76 at most', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', ' ', '=', '.', 'Z', '~', '-'), maxLength: 400 }),
        (value) => {
          const encoded = quotedPrintableValue(value);
          expect(decoded(encoded)).toBe(value);
          for (const line of lines(encoded)) {
            expect(line.length).toBeLessThanOrEqual(76);
            expect(line).not.toMatch(/[ \t]$/);
          }
        },
      ),
    );
  });
});
