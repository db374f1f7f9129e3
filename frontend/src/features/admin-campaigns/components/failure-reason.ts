/** What kind of failure a recipient's recorded reason describes, for a sentence staff can read. */
export type FailureKind =
  | 'unreachable'
  | 'tls'
  | 'login'
  | 'noMailbox'
  | 'mailboxFull'
  | 'rejected'
  | 'later'
  | 'invalidAddress'
  | 'refused'
  | 'unknown';

/**
 * Ordered: the first match names the reason. The worker records the SMTP
 * server's reply line ("550 5.1.1 ...") when it replied, else the
 * connection's error ("connect ECONNREFUSED 127.0.0.1:25"); enhanced status
 * codes (RFC 3463) say more than the basic code, so they are read first.
 */
const KINDS: readonly (readonly [FailureKind, RegExp])[] = [
  [
    'unreachable',
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ECONNECTION|ESOCKET|EDNS|greeting never received|closed the connection|connection (?:timeout|closed)/i,
  ],
  ['tls', /ETLS|certificate|\btls\b|\bssl\b|handshake/i],
  ['login', /EAUTH|\b5\.7\.8\b|^535\b|authentication/i],
  [
    'noMailbox',
    /\b5\.1\.[0-3]\b|\b5\.1\.6\b|no such (?:user|mailbox)|user unknown|mailbox unavailable/i,
  ],
  ['mailboxFull', /\b[45]\.2\.2\b|mailbox full|over quota|quota exceeded|^552\b/i],
  ['rejected', /\b5\.7\.\d+\b|spam|blocked|blacklist|policy|^554\b/i],
  ['later', /^4\d\d\b|\b4\.\d+\.\d+\b/],
  ['invalidAddress', /invalid (?:e-?mail )?address|invalid recipient|not a single mailbox/i],
  ['refused', /^5\d\d\b|\b5\.\d+\.\d+\b/],
];

export function failureKindOf(reason: string): FailureKind {
  const trimmed = reason.trim();
  return KINDS.find(([, pattern]) => pattern.test(trimmed))?.[0] ?? 'unknown';
}
