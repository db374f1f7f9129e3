import { normalizeEmail } from './email-address';

describe('normalizeEmail', () => {
  it('takes one key per mailbox: trimmed and lower-cased', () => {
    expect(normalizeEmail(' Sami.B@Example.TN\t')).toBe('sami.b@example.tn');
  });
});
