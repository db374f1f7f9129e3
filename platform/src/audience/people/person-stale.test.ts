import type { Redis } from '../../redis-connection';
import { ContactModel } from '../../contact/contact.model';
import { storeContact, type ContactSubmission } from '../../contact/contact-commands';
import { SubscriberModel } from '../../newsletter/subscriber.model';
import { connectSharedRedis } from '../../testing/shared-redis';
import { uniqueName, useFileDatabase } from '../../testing/file-database';
import { ON_AND_OFF, withStoreWorkarounds } from '../../testing/store-workarounds';
import { SuppressionModel } from '../suppression.model';
import { peopleContactChanges } from './person-changes';
import { personOfRecords } from './person-of-records';
import { readAddressRecords, suppressions } from './person-records';
import { refreshPeople } from './person-refresh';
import { createStalePeople, stalePeopleKeys, type StalePeople } from './person-stale';
import { PersonModel } from './person.model';

const KEY = 'amira@example.tn';

function enquiry(overrides: Partial<ContactSubmission & { newsletterConsent: boolean }> = {}) {
  return {
    firstName: 'Amira',
    lastName: 'Ben Salah',
    email: 'Amira@Example.tn',
    service: 'web-design',
    message: 'We need a new website.',
    ...overrides,
  } as ContactSubmission;
}

/** What a read of every record of the address makes of it: the person as it must be. */
async function personFromRecords(key: string) {
  const records = (await readAddressRecords([key])).get(key);
  return records ? personOfRecords(key, records) : null;
}

const storedPerson = (key: string) => PersonModel.findById(key).lean();

describe('the people marked stale by the enquiries stored', () => {
  useFileDatabase('people-stale');
  let redis: Redis;
  let stale: StalePeople;
  let prefix: string;

  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(async () => {
    await redis.quit();
  });
  beforeEach(async () => {
    await Promise.all(
      [PersonModel, ContactModel, SubscriberModel, SuppressionModel].map((model) =>
        (model as typeof PersonModel).deleteMany({}),
      ),
    );
    prefix = uniqueName('stale');
    stale = createStalePeople(redis, prefix);
  });
  afterEach(() => jest.restoreAllMocks());

  /** Stores an enquiry as the API does, its address marked through the people's contact listener. */
  const submit = (at: string, overrides?: Parameters<typeof enquiry>[0]) =>
    storeContact(enquiry(overrides), 'en', peopleContactChanges(stale), { at: new Date(at) });

  describe.each(ON_AND_OFF)('with reads by id only %s', (_, on) => {
    withStoreWorkarounds({ readsByIdOnly: on });

    it('takes new enquiries into a person without reading the enquiries or the subscribers', async () => {
      await SubscriberModel.create({ email: KEY, status: 'confirmed', locale: 'fr' });
      await submit('2030-03-01T10:00:00Z', { firstName: 'Mira', lastName: 'Salah' });
      await stale.refreshMarked();
      expect(await storedPerson(KEY)).toMatchObject({ sources: ['contact', 'subscriber'] });

      await submit('2030-03-02T10:00:00Z', { service: 'meta-ads' });
      await submit('2030-03-02T11:00:00Z', { lastName: 'Gharbi' });
      await submit('2030-03-02T12:00:00Z', { lastName: 'Haddad', email: 'amira@example.tn' });
      const enquiriesRead = jest.spyOn(ContactModel.collection, 'find');
      const subscribersRead = jest.spyOn(SubscriberModel.collection, 'find');
      const peopleScanned = jest.spyOn(PersonModel.collection, 'find');

      expect(await stale.refreshMarked()).toBe(1);

      expect(enquiriesRead).not.toHaveBeenCalled();
      expect(subscribersRead).not.toHaveBeenCalled();
      // Where only an exact `_id` is served from the index, the person is read by it alone.
      expect(peopleScanned).toHaveBeenCalledTimes(on ? 0 : 1);
      const person = await storedPerson(KEY);
      expect(person).toEqual(await personFromRecords(KEY));
      expect(person).toMatchObject({
        email: 'amira@example.tn',
        lastName: 'Haddad',
        locale: 'fr',
        services: ['meta-ads', 'web-design'],
        lastSeenAt: new Date('2030-03-02T12:00:00Z'),
      });
    });

    it('gives consent with a ticked box, and takes the enquiries in once however often marked', async () => {
      await submit('2030-03-01T10:00:00Z');
      await refreshPeople([KEY]);
      await submit('2030-03-03T10:00:00Z', { newsletterConsent: true, service: 'social-media' });
      await stale.refreshMarked();
      await stale.refreshMarked();

      const person = await storedPerson(KEY);
      expect(person).toEqual(await personFromRecords(KEY));
      expect(person).toMatchObject({ consent: 'given', services: ['social-media', 'web-design'] });
    });

    it('reads the records of an address without a person yet, or whose person cannot tell', async () => {
      await submit('2030-03-01T10:00:00Z');
      await stale.refreshMarked();
      expect(await storedPerson(KEY)).toEqual(await personFromRecords(KEY));

      // Unsubscribed after that enquiry: whether a later ticked box gives consent again
      // depends on the date of the unsubscription, which the person does not keep.
      await SubscriberModel.create({
        email: KEY,
        status: 'unsubscribed',
        unsubscribedAt: new Date('2030-03-05T10:00:00Z'),
      });
      await refreshPeople([KEY]);
      expect(await storedPerson(KEY)).toMatchObject({ consent: 'withdrawn' });
      await submit('2030-03-04T10:00:00Z', { newsletterConsent: true });
      await stale.refreshMarked();
      expect(await storedPerson(KEY)).toEqual(await personFromRecords(KEY));
      expect(await storedPerson(KEY)).toMatchObject({ consent: 'withdrawn' });

      await submit('2030-03-06T10:00:00Z', { newsletterConsent: true });
      await stale.refreshMarked();
      expect(await storedPerson(KEY)).toEqual(await personFromRecords(KEY));
      expect(await storedPerson(KEY)).toMatchObject({ consent: 'given' });
    });

    it('reads the records again when an enquiry is older than what the person last saw', async () => {
      await submit('2030-03-01T10:00:00Z');
      // Written as an older version of the suppressions did, without `updatedAt`:
      // its date is the person's last sighting, after the enquiry below.
      await suppressions().insertOne({
        _id: KEY,
        email: KEY,
        reason: 'complaint',
        source: 'ses',
        at: new Date('2030-03-09T10:00:00Z'),
      });
      await refreshPeople([KEY]);
      await submit('2030-03-05T10:00:00Z', { firstName: 'Amira', lastName: 'Trabelsi' });
      await stale.refreshMarked();

      const person = await storedPerson(KEY);
      expect(person).toEqual(await personFromRecords(KEY));
      expect(person).toMatchObject({ lastName: 'Trabelsi', suppressed: true });
    });
  });

  it('forgets the facts waiting when the address is marked for a read of its records', async () => {
    await submit('2030-03-01T10:00:00Z');
    await stale.refreshMarked();
    const { id } = await submit('2030-03-02T10:00:00Z', { service: 'meta-ads' });
    // Deleted before the worker's next turn, as staff deleting it would.
    await ContactModel.deleteOne({ _id: id });
    await stale.mark([KEY]);

    await stale.refreshMarked();
    const person = await storedPerson(KEY);
    expect(person).toEqual(await personFromRecords(KEY));
    expect(person).toMatchObject({ services: ['web-design'] });
  });

  it('leaves an address another taker holds for the next turn', async () => {
    await submit('2030-03-01T10:00:00Z');
    await redis.set(stalePeopleKeys(prefix).lease(KEY), '1', 'PX', 60_000);

    expect(await stale.refreshMarked()).toBe(1);
    expect(await storedPerson(KEY)).toBeNull();

    await redis.del(stalePeopleKeys(prefix).lease(KEY));
    await stale.refreshMarked();
    expect(await storedPerson(KEY)).toEqual(await personFromRecords(KEY));
  });

  it('reads the records of the addresses whose refresh failed, at the next turn', async () => {
    await submit('2030-03-01T10:00:00Z');
    await stale.refreshMarked();
    await submit('2030-03-02T10:00:00Z', { service: 'meta-ads' });
    jest.spyOn(PersonModel.collection, 'bulkWrite').mockRejectedValueOnce(new Error('store away'));

    await expect(stale.refreshMarked()).rejects.toThrow('store away');
    expect(await redis.sismember(stalePeopleKeys(prefix).stale, KEY)).toBe(1);
    await stale.refreshMarked();
    expect(await storedPerson(KEY)).toMatchObject({ services: ['meta-ads', 'web-design'] });
  });
});
