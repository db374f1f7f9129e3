import { useFileDatabase } from '../../testing/file-database';
import { ContactModel } from '../../contact/contact.model';
import { withSearchKeys } from '../../contact/contact-search';
import { SubscriberModel } from '../../newsletter/subscriber.model';
import { ListMemberModel } from '../list-member.model';
import { consentOf } from './person-of-records';
import { peopleNeedFilling, rebuildPeople } from './person-rebuild';
import { PEOPLE_REFRESH_BATCH, refreshPeople } from './person-refresh';
import { PersonModel } from './person.model';

describe('the people view', () => {
  useFileDatabase('people-view');

  beforeEach(async () => {
    await Promise.all(
      [PersonModel, ContactModel, SubscriberModel, ListMemberModel].map((model) =>
        (model as typeof PersonModel).deleteMany({}),
      ),
    );
  });

  it('needs filling only while it is empty and some record holds an address', async () => {
    expect(await peopleNeedFilling()).toBe(false);
    await SubscriberModel.create({ email: 'sami@example.tn', status: 'pending' });
    expect(await peopleNeedFilling()).toBe(true);
    await rebuildPeople();
    expect(await peopleNeedFilling()).toBe(false);
  });

  it('rebuilds every address of a source longer than one batch', async () => {
    const count = PEOPLE_REFRESH_BATCH + 3;
    await ContactModel.insertMany(
      Array.from({ length: count }, (_, index) =>
        withSearchKeys({
          firstName: 'Nour',
          lastName: `N${index}`,
          email: `n${index}@example.tn`,
          service: 'web-design',
          message: 'Hello',
        }),
      ),
    );
    expect(await rebuildPeople()).toMatchObject({ removed: 0 });
    expect(await PersonModel.countDocuments()).toBe(count);
  });

  it('stops before its next batch once told to (a worker shutting down)', async () => {
    await SubscriberModel.create({ email: 'sami@example.tn', status: 'pending' });
    const stopping = new AbortController();
    stopping.abort();

    await expect(rebuildPeople(stopping.signal)).rejects.toThrow(/abort/i);
    expect(await PersonModel.countDocuments()).toBe(0);
  });

  it('writes each refreshed address once however many times it is named', async () => {
    await SubscriberModel.create({ email: 'sami@example.tn', status: 'pending' });
    expect(await refreshPeople(['sami@example.tn', 'sami@example.tn'])).toEqual({
      refreshed: 1,
      removed: 0,
    });
  });

  it('finds an enquiry stored before its search keys by its lower-case address', async () => {
    await ContactModel.collection.insertOne({
      firstName: 'Old',
      lastName: 'Enquiry',
      email: 'old@example.tn',
      service: 'web-design',
      message: 'Hello',
      locale: 'en',
      status: 'new',
    });
    await rebuildPeople();
    expect(await PersonModel.findById('old@example.tn').lean()).toMatchObject({
      sources: ['contact'],
      firstName: 'Old',
    });
  });

  it('lets the later of consent and withdrawal decide', () => {
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    const unsubscribed = {
      email: 'a@example.tn',
      status: 'unsubscribed',
      locale: 'en',
      unsubscribedAt: at(10),
    };
    const enquiry = (consentRequestedAt: Date | null) => ({
      id: '1',
      key: 'a@example.tn',
      email: 'a@example.tn',
      firstName: 'A',
      lastName: 'B',
      locale: 'en' as const,
      service: 'web-design' as const,
      status: 'new' as const,
      createdAt: at(1),
      updatedAt: at(1),
      consentRequestedAt,
    });
    const records = { members: [], suppression: null, subscriber: unsubscribed };
    expect(consentOf({ ...records, enquiries: [enquiry(at(5))] })).toBe('withdrawn');
    expect(consentOf({ ...records, enquiries: [enquiry(at(15))] })).toBe('given');
    expect(consentOf({ ...records, subscriber: null, enquiries: [enquiry(null)] })).toBe('none');
  });
});
