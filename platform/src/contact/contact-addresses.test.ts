import { Types } from 'mongoose';
import type { AudienceTarget } from '@agency/contracts';
import type { Logger } from '../logger';
import type { Redis } from '../redis-connection';
import { connectSharedRedis } from '../testing/shared-redis';
import { audienceRecipients, countAudience } from '../audience/audience';
import { useFileDatabase } from '../testing/file-database';
import { ContactAddressModel } from './contact-address.model';
import {
  beginContactAddressRepair,
  contactAddressesComplete,
  contactAddressOf,
  createContactAddressChanges,
} from './contact-addresses';
import type { ContactFacts } from './contact-changes';
import { ContactModel } from './contact.model';
import { forEachStoredContact } from './stored-contacts';

/** The campaign audience's copy of the enquiries' addresses, against the real store. */
useFileDatabase('addresses');
beforeEach(async () => {
  await Promise.all([ContactModel.deleteMany({}), ContactAddressModel.deleteMany({})]);
});

const CONSENT = {
  requestedAt: new Date(Date.UTC(2026, 0, 5)),
  locale: 'fr',
  source: 'contact-form',
  wordingVersion: 'contact-news-consent-v1',
} as const;

/** An enquiry as stored; it ticked "send me news" unless told otherwise. */
function enquiry(name: string, locale: 'en' | 'fr' | 'ar' = 'fr', consented = true) {
  return {
    ...(consented ? { consent: CONSENT } : {}),
    _id: new Types.ObjectId(),
    firstName: name,
    lastName: 'Ben Salah',
    email: `${name.toLowerCase()}@example.tn`,
    service: 'web-design' as const,
    message: 'We need a new website.',
    locale,
    status: 'new' as const,
  };
}

function factsOf(contact: ReturnType<typeof enquiry>): ContactFacts {
  return {
    id: String(contact._id),
    firstName: contact.firstName,
    lastName: contact.lastName,
    email: contact.email,
    locale: contact.locale,
    service: 'web-design',
    status: 'new',
    createdAt: new Date(),
    consented: 'consent' in contact,
  };
}

async function storedAddresses() {
  const addresses = await ContactAddressModel.find({}).sort({ email: 1 }).lean();
  return addresses.map(({ _id, email, firstName, lastName, locale, consented }) => ({
    id: String(_id),
    email,
    firstName,
    lastName,
    locale,
    ...(consented === undefined ? {} : { consented }),
  }));
}

const warnings: unknown[] = [];
const logger = { warn: (fields: unknown) => warnings.push(fields) } as unknown as Logger;
beforeEach(() => {
  warnings.length = 0;
});

describe('the addresses kept with the enquiries', () => {
  it('writes the address of each enquiry stored, several in one insert, and drops it with the enquiry', async () => {
    const changes = createContactAddressChanges({ logger });
    const [amira, bilel] = [enquiry('Amira', 'ar'), enquiry('Bilel', 'en')];

    await Promise.all([changes.stored(factsOf(amira)), changes.stored(factsOf(bilel))]);
    expect(await storedAddresses()).toEqual([
      {
        id: String(amira._id),
        email: 'amira@example.tn',
        firstName: 'Amira',
        lastName: 'Ben Salah',
        locale: 'ar',
        consented: true,
      },
      {
        id: String(bilel._id),
        email: 'bilel@example.tn',
        firstName: 'Bilel',
        lastName: 'Ben Salah',
        locale: 'en',
        consented: true,
      },
    ]);

    await changes.statusChanged({ ...factsOf(amira), status: 'replied' }, 'new');
    await changes.deleted(factsOf(amira));
    expect((await storedAddresses()).map(({ id }) => id)).toEqual([String(bilel._id)]);
    expect(warnings).toEqual([]);
  });

  it('never fails the enquiry: a write it cannot make is logged for the reconciliation', async () => {
    const changes = createContactAddressChanges({ logger });
    const broken = { ...factsOf(enquiry('Chiraz')), id: 'not-an-object-id' };

    await expect(changes.stored(broken)).resolves.toBeUndefined();
    await expect(changes.deleted(broken)).resolves.toBeUndefined();
    expect(warnings).toEqual([
      expect.objectContaining({ contactId: 'not-an-object-id' }),
      expect.objectContaining({ contactId: 'not-an-object-id' }),
    ]);
  });

  it('takes an address written already (the reconciliation met the enquiry first) as written', async () => {
    const changes = createContactAddressChanges({ logger });
    const amira = enquiry('Amira');
    await changes.stored(factsOf(amira));
    await changes.stored(factsOf(amira));
    expect(await ContactAddressModel.countDocuments()).toBe(1);
    expect(warnings).toEqual([]);
  });
});

describe('the campaign audience over the enquiries', () => {
  const contactsOnly = { recipientType: 'contacts' as const, listIds: [] };
  const namesIn = async (target: AudienceTarget = contactsOnly) => {
    const names: string[] = [];
    for await (const { firstName } of audienceRecipients(target, new Set())) {
      names.push(firstName);
    }
    return names.sort();
  };

  it('reads the addresses while there is one per enquiry, and the enquiries otherwise', async () => {
    const [amira, bilel] = [enquiry('Amira'), enquiry('Bilel')];
    const dalia = enquiry('Dalia', 'fr', false);
    await ContactModel.insertMany([amira, bilel, dalia]);
    // Copies that differ from their enquiries show which collection was read.
    await ContactAddressModel.insertMany(
      [amira, bilel, dalia].map((contact) => ({
        ...contactAddressOf(factsOf(contact)),
        firstName: `${contact.firstName} (copy)`,
      })),
    );
    expect(await contactAddressesComplete()).toBe(true);
    expect(await namesIn()).toEqual(['Amira (copy)', 'Bilel (copy)']);

    // An enquiry without its address yet: the enquiries themselves, so nobody is left out.
    await ContactModel.create(enquiry('Chiraz'));
    expect(await contactAddressesComplete()).toBe(false);
    expect(await namesIn()).toEqual(['Amira', 'Bilel', 'Chiraz']);
  });

  it('reads the enquiries on an installation from before the copy, with no collection for it', async () => {
    await ContactModel.insertMany([enquiry('Amira'), enquiry('Dalia', 'fr', false)]);
    await ContactAddressModel.collection.drop();

    expect(await contactAddressesComplete()).toBe(false);
    expect(await namesIn()).toEqual(['Amira']);
    // The walk reads the enquiries' consent there too: a lawful basis adds Dalia.
    const withBasis = { ...contactsOnly, enquiryLawfulBasis: 'legitimate-interest' as const };
    expect(await namesIn(withBasis)).toEqual(['Amira', 'Dalia']);
    await ContactAddressModel.createCollection();
  });

  it('mails the enquiries that did not consent only when the campaign names a lawful basis', async () => {
    const [amira, dalia] = [enquiry('Amira'), enquiry('Dalia', 'fr', false)];
    await ContactModel.insertMany([amira, dalia]);
    await ContactAddressModel.insertMany(
      [amira, dalia].map((contact) => contactAddressOf(factsOf(contact))),
    );
    const withBasis = { ...contactsOnly, enquiryLawfulBasis: 'legitimate-interest' as const };

    expect(await namesIn({ recipientType: 'all', listIds: [] })).toEqual(['Amira']);
    expect(await namesIn(withBasis)).toEqual(['Amira', 'Dalia']);
    expect(await namesIn({ ...withBasis, recipientType: 'all' })).toEqual(['Amira', 'Dalia']);
    // The count before sending is the same walk counted: Dalia is the one a basis adds.
    expect(await countAudience({ ...contactsOnly, recipientType: 'all' }, new Set())).toBe(1);
    expect(await countAudience(withBasis, new Set())).toBe(2);
  });
});

describe("the reconciliation's repair of the addresses", () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(() => redis.disconnect());
  const held = () => `test:held-addresses:${new Types.ObjectId().toHexString()}`;

  async function repair() {
    const pass = await beginContactAddressRepair(redis, held());
    await forEachStoredContact((contact) => pass.expect(contact));
    return pass.finish();
  }

  it('adds the missing addresses and drops those whose enquiry is gone, then finds nothing to do', async () => {
    const [amira, bilel, chiraz, gone] = [
      enquiry('Amira'),
      enquiry('Bilel'),
      enquiry('Chiraz'),
      enquiry('Dora'),
    ];
    await ContactModel.insertMany([amira, bilel, chiraz]);
    await ContactAddressModel.insertMany(
      [amira, gone].map((contact) => ({ ...factsOf(contact), _id: contact._id })),
    );

    expect(await repair()).toEqual({ added: 2, removed: 1, consentCorrected: 0 });
    expect(await storedAddresses()).toEqual(
      [amira, bilel, chiraz].map((contact) => ({
        id: String(contact._id),
        email: contact.email,
        firstName: contact.firstName,
        lastName: contact.lastName,
        locale: contact.locale,
        consented: true,
      })),
    );
    expect(await repair()).toEqual({ added: 0, removed: 0, consentCorrected: 0 });
  });

  it("sets each address's consent as its enquiry says, so none is mailed on a consent it lacks", async () => {
    const [amira, dalia] = [enquiry('Amira'), enquiry('Dalia', 'fr', false)];
    await ContactModel.insertMany([amira, dalia]);
    // Each copy says the opposite of its enquiry.
    await ContactAddressModel.insertMany([
      contactAddressOf({ ...factsOf(amira), consented: false }),
      contactAddressOf({ ...factsOf(dalia), consented: true }),
    ]);

    expect(await repair()).toEqual({ added: 0, removed: 0, consentCorrected: 2 });
    expect(
      (await storedAddresses()).map(({ firstName, consented }) => [firstName, consented]),
    ).toEqual([
      ['Amira', true],
      ['Dalia', undefined],
    ]);
  });

  it('does not count an address the API wrote while the pass walked as one it added', async () => {
    const amira = enquiry('Amira');
    await ContactModel.create(amira);
    const pass = await beginContactAddressRepair(redis, held());
    // The API's write lands after the pass read the addresses, before it meets the enquiry.
    await createContactAddressChanges({ logger }).stored(factsOf(amira));
    await forEachStoredContact((contact) => pass.expect(contact));

    expect(await pass.finish()).toEqual({ added: 0, removed: 0, consentCorrected: 0 });
    expect(await ContactAddressModel.countDocuments()).toBe(1);
  });

  it('drops more orphans than one chunk of the held ids, and leaves none of them in Redis', async () => {
    const orphans = Array.from({ length: 1050 }, (_, index) => enquiry(`O${index}`, 'en'));
    await ContactAddressModel.insertMany(
      orphans.map((contact) => ({ ...factsOf(contact), _id: contact._id })),
    );
    const key = held();
    const pass = await beginContactAddressRepair(redis, key);
    await forEachStoredContact((contact) => pass.expect(contact));

    expect(await pass.finish()).toEqual({ added: 0, removed: 1050, consentCorrected: 0 });
    expect(await ContactAddressModel.countDocuments()).toBe(0);
    expect(await redis.exists(key)).toBe(0);
  });

  it('adds more addresses than one insert holds', async () => {
    const many = Array.from({ length: 1050 }, (_, index) => enquiry(`R${index}`, 'en'));
    await ContactModel.insertMany(many, { lean: true });

    expect(await repair()).toEqual({ added: 1050, removed: 0, consentCorrected: 0 });
    expect(await ContactAddressModel.countDocuments()).toBe(1050);
    expect(await contactAddressesComplete()).toBe(true);
  });
});
