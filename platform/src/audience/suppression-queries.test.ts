import { SubscriberModel } from '../newsletter/subscriber.model';
import { hasUnsubscribed } from '../newsletter/subscriber-queries';
import { useFileDatabase } from '../testing/file-database';
import { suppressAddress } from './suppression.service';
import { excludedAmong, findImportExclusions, isSuppressed } from './suppression-queries';

useFileDatabase('suppression-queries');

describe('the addresses campaigns and imports leave out', () => {
  beforeAll(async () => {
    await suppressAddress({ email: ' Bounced@Example.TN', reason: 'hard-bounce', source: 'dsn' });
    await suppressAddress({ email: 'both@example.tn', reason: 'complaint', source: 'dsn' });
    await SubscriberModel.create([
      { email: 'left@example.tn', status: 'unsubscribed' },
      { email: 'both@example.tn', status: 'unsubscribed' },
      { email: 'stays@example.tn', status: 'confirmed' },
    ]);
  });

  it('says whether an address is suppressed, by its normalised form', async () => {
    expect(await isSuppressed('bounced@example.tn')).toBe(true);
    expect(await isSuppressed('left@example.tn')).toBe(false);
  });

  it('says whether an address left the newsletter', async () => {
    expect(await hasUnsubscribed('left@example.tn')).toBe(true);
    expect(await hasUnsubscribed('stays@example.tn')).toBe(false);
    expect(await hasUnsubscribed('bounced@example.tn')).toBe(false);
  });

  it('picks the excluded among a page of addresses', async () => {
    const excluded = await excludedAmong([
      'bounced@example.tn',
      'left@example.tn',
      'stays@example.tn',
      'unknown@example.tn',
    ]);

    expect([...excluded].sort()).toEqual(['bounced@example.tn', 'left@example.tn']);
  });

  it('gives an import the reason of each address it skips, suppression first', async () => {
    expect(Object.fromEntries(await findImportExclusions())).toEqual({
      'bounced@example.tn': 'suppressed',
      'both@example.tn': 'suppressed',
      'left@example.tn': 'unsubscribed',
    });
  });
});
