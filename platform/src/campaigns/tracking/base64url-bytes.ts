/**
 * Exactly `byteLength` bytes written in canonical base64url (no padding), or
 * undefined. Node's decoder skips what it cannot read, takes `+`, `/` and `=`
 * too, and ignores the spare low bits of the last character, so several texts
 * decode to the same bytes; re-encoding and comparing refuses them all: one
 * value has one spelling, and a changed character never passes as the same value.
 */
export function bytesOfBase64url(text: string, byteLength: number): Buffer | undefined {
  if (text.length !== base64urlLength(byteLength)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** The characters `byteLength` bytes take in unpadded base64url. */
export function base64urlLength(byteLength: number): number {
  return Math.ceil((byteLength * 4) / 3);
}
