import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Types } from 'mongoose';
import { useFileDatabase } from '../../testing/file-database';
import { ON_AND_OFF, withStoreWorkarounds } from '../../testing/store-workarounds';
import { ContactModel } from '../../contact/contact.model';
import { withSearchKeys } from '../../contact/contact-search';
import { SubscriberModel } from '../../newsletter/subscriber.model';
import { ListMemberModel } from '../list-member.model';
import { SuppressionModel } from '../suppression.model';
import { consentOf } from './person-of-records';
import { peopleNeedFilling, rebuildPeople } from './person-rebuild';
import { partOf, rebuildPeopleInParts } from './person-rebuild-in-parts';
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

describe.each(ON_AND_OFF)(
  'the people view rebuilt in parts, one read of each source per part (reads by id only %s)',
  (_, on) => {
    useFileDatabase('people-view-parts');
    withStoreWorkarounds({ readsByIdOnly: on });
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    const listId = new Types.ObjectId();

    beforeEach(async () => {
      await Promise.all(
        [PersonModel, ContactModel, SubscriberModel, ListMemberModel, SuppressionModel].map(
          (model) => (model as typeof PersonModel).deleteMany({}),
        ),
      );
      const enquiry = (email: string, day: number, consented = false) =>
        withSearchKeys({
          firstName: `Written on day ${day}`,
          lastName: 'Last',
          email,
          service: 'web-design',
          message: 'Hello',
          locale: 'fr',
          status: 'new',
          createdAt: at(day),
          updatedAt: at(day),
          ...(consented ? { consent: { requestedAt: at(day), locale: 'fr' } } : {}),
        });
      await ContactModel.collection.insertMany([
        enquiry('amel@example.tn', 1),
        enquiry('amel@example.tn', 5, true),
        enquiry('Bilel@Example.tn', 2),
        enquiry('chaima@example.tn', 3),
      ]);
      await SubscriberModel.create([
        { email: 'amel@example.tn', status: 'confirmed', locale: 'fr' } as const,
        { email: 'dali@example.tn', status: 'pending', locale: 'en' } as const,
      ]);
      const member = (key: string) =>
        ({
          _id: `${String(listId)}:${key}`,
          list: listId,
          key,
          email: key,
          consent: { basis: 'import', at: at(4), listName: 'Expo' },
        }) as const;
      await ListMemberModel.create([member('chaima@example.tn'), member('emna@example.tn')]);
      const suppression = (address: string) =>
        ({
          _id: address,
          email: address,
          reason: 'complaint',
          source: 'ses',
          at: at(6),
        }) as const;
      await SuppressionModel.create([
        suppression('dali@example.tn'),
        suppression('zied@example.tn'),
      ]);
    });

    /** The view as stored, without its `_id` order. */
    const storedPeople = async () =>
      (await PersonModel.collection.find({}).toArray()).sort((a, b) =>
        String(a._id).localeCompare(String(b._id)),
      );

    it('stores the same people as the batched rebuild, and removes those nothing holds', async () => {
      await rebuildPeople();
      const batched = await storedPeople();
      await PersonModel.collection.updateOne(
        { _id: 'chaima@example.tn' as never },
        { $set: { firstName: 'Changed since' } },
      );
      await PersonModel.collection.insertOne({ _id: 'gone@example.tn' as never, sources: [] });

      // Two addresses a part: several parts, each reading every source.
      const counts = await rebuildPeopleInParts(undefined, 2);

      expect(await storedPeople()).toEqual(batched);
      expect(batched.map(({ _id }) => _id)).toEqual([
        'amel@example.tn',
        'bilel@example.tn',
        'chaima@example.tn',
        'dali@example.tn',
        'emna@example.tn',
      ]);
      expect(counts).toEqual({ refreshed: 5, removed: 1 });
    });

    it('spreads addresses evenly over the parts, each always in the same one', () => {
      const addresses = Array.from({ length: 4000 }, (_, index) => `guest${index}@example.tn`);
      const sizes = [0, 0, 0, 0];
      for (const address of addresses) {
        const part = partOf(address, 4);
        sizes[part] = (sizes[part] ?? 0) + 1;
      }

      for (const size of sizes) expect(size).toBeGreaterThan(800);
      expect(addresses.map((address) => partOf(address, 4))).toEqual(
        addresses.map((address) => partOf(address, 4)),
      );
    });

    it('leaves no file of its parts behind, whether it ends or is stopped', async () => {
      const folder = await mkdtemp(join(tmpdir(), 'people-parts-'));
      try {
        await rebuildPeopleInParts(undefined, 2, folder);
        expect(await readdir(folder)).toEqual([]);
        const stopping = new AbortController();
        stopping.abort();
        await expect(rebuildPeopleInParts(stopping.signal, 2, folder)).rejects.toThrow(/abort/i);
        expect(await readdir(folder)).toEqual([]);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('removes the parts a killed pass left behind, and leaves a running one’s', async () => {
      const folder = await mkdtemp(join(tmpdir(), 'people-parts-'));
      // A process that has ended: its pid names no running process now.
      const ended = spawnSync(process.execPath, ['-e', '0']).pid;
      const left = join(folder, `agency-people-rebuild-${ended}-x1y2z3`);
      const running = join(folder, `agency-people-rebuild-${process.ppid}-a1b2c3`);
      const unrelated = join(folder, 'something-else');
      try {
        for (const path of [left, running, unrelated]) await mkdir(path);
        await rebuildPeopleInParts(undefined, 2, folder);
        expect((await readdir(folder)).sort()).toEqual(
          [`agency-people-rebuild-${process.ppid}-a1b2c3`, 'something-else'].sort(),
        );
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('stops before its next part once told to', async () => {
      const stopping = new AbortController();
      stopping.abort();

      await expect(rebuildPeopleInParts(stopping.signal, 2)).rejects.toThrow(/abort/i);
      expect(await PersonModel.countDocuments()).toBe(0);
    });
  },
);
