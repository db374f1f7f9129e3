import { encodeQuotedPrintable, wrapQuotedPrintable } from './nodemailer-internals';

const CRLF = '\r\n';
/** RFC 2045's limit on an encoded line, its soft break's `=` included. */
const LINE_LENGTH = 76;
/** Printable ASCII and the space: all but `=` go as they are. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const SOFT_BREAK = `=${CRLF}`;

/** Quoted-printable as Nodemailer encodes a body: CRLF line ends, 76-column lines. */
export function quotedPrintable(content: string): string {
  return wrapQuotedPrintable(encodeQuotedPrintable(content.replace(/\r?\n/g, CRLF)), LINE_LENGTH);
}

/**
 * A recipient's value (a name, an address, a link with its token) in
 * quoted-printable, each mail several times over: printable ASCII, which
 * nearly every value is, is written with no bytes in between (`=` as `=3D`,
 * a last space as `=20`, a soft break before column 76 and never inside an
 * escape); anything else goes through Nodemailer's encoder, as a body does.
 * Either decodes to exactly the value.
 */
export function quotedPrintableValue(value: string): string {
  // Stryker disable next-line ConditionalExpression: Nodemailer's encoder gives the same bytes for printable ASCII; the shortcut only saves its time
  if (!PRINTABLE_ASCII.test(value)) return quotedPrintable(value);
  // Stryker disable next-line StringLiteral: replacing the `=` of a value without one changes nothing
  let encoded = value.includes('=') ? value.replaceAll('=', '=3D') : value;
  // A space that ends a line would be taken off by a decoder (RFC 2045, 6.7 rule 3).
  if (encoded.endsWith(' ')) encoded = `${encoded.slice(0, -1)}=20`;
  let lines = '';
  let at = 0;
  while (encoded.length - at > LINE_LENGTH) {
    let end = at + LINE_LENGTH - 1;
    // Every `=` here starts an escape: one that would straddle the break goes to the next line.
    const escape = encoded.lastIndexOf('=', end - 1);
    if (escape > end - 3) end = escape;
    lines += encoded.slice(at, end) + SOFT_BREAK;
    at = end;
  }
  return lines + encoded.slice(at);
}
