/**
 * One key per mailbox, for subscribers, list members, campaign recipients,
 * suppressions and mail identities alike: the address trimmed and lowercased
 * (the local part's case is kept by no mail server we send to, so two
 * spellings are one person).
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
