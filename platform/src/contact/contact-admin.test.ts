import { Types } from 'mongoose';
import {
  contactListQuerySchema,
  type ContactListQuery,
  type ContactStatus,
} from '@agency/contracts';
import { DomainError } from '../domain-error';
import { useFileDatabase } from '../testing/file-database';
import { CampaignActivityModel } from '../testing/campaigns-models';
import { ContactModel } from '../testing/contact-models';
import { MailReceiptModel, OwedMailModel } from '../testing/outbox-models';
import {
  contactMailStatuses,
  countContactsUpTo,
  findContactsByIds,
  markContactMailSent,
  openContactsInListOrder,
  removeContact,
  storeContact,
  type ContactSubmission,
  UNWATCHED_CONTACTS,
  updateContactStatus,
  type ContactChanges,
  type ContactFacts,
  type StoredContact,
} from '.';

/**
 * What the admin's contacts screens ask of the contacts module, against the
 * real store: the API only maps what it answers to DTOs.
 */
useFileDatabase('contactadmin');
beforeEach(async () => {
  await Promise.all([
    ContactModel.deleteMany({}),
    OwedMailModel.deleteMany({}),
    MailReceiptModel.deleteMany({}),
  ]);
});

function enquiry(lastName: string): ContactSubmission {
  return {
    firstName: 'Ines',
    lastName,
    email: `${lastName.toLowerCase()}@example.tn`,
    service: 'web-design',
    message: 'A new website for the shop.',
  };
}

async function stored(lastName: string): Promise<string> {
  return (await storeContact(enquiry(lastName), 'fr', UNWATCHED_CONTACTS)).id;
}

function listQuery(fields: Record<string, unknown>): ContactListQuery {
  return contactListQuerySchema.validateSync(fields);
}

/** A listener that writes down the status changes it is told of. */
function statusChangesSeen(): ContactChanges & { seen: [ContactFacts, ContactStatus][] } {
  const seen: [ContactFacts, ContactStatus][] = [];
  return {
    ...UNWATCHED_CONTACTS,
    seen,
    statusChanged: (contact, from) => {
      seen.push([contact, from]);
      return Promise.resolve();
    },
  };
}

async function refusalOf(attempt: Promise<unknown>): Promise<DomainError> {
  const error = await attempt.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

const lastNames = (contacts: StoredContact[]) => contacts.map((contact) => contact.lastName);

describe('the contacts admin queries', () => {
  it('read enquiries by id in the order asked, leaving out those gone', async () => {
    const [first, second] = [await stored('Ayadi'), await stored('Belhaj')];
    const gone = new Types.ObjectId().toHexString();
    expect(lastNames(await findContactsByIds([second, gone, first]))).toEqual(['Belhaj', 'Ayadi']);
  });

  it('walk every enquiry matching the filters in the list order', async () => {
    for (const name of ['Chaabane', 'Ayadi', 'Belhaj']) await stored(name);
    const done = await stored('Dridi');
    await updateContactStatus(done, 'archived', UNWATCHED_CONTACTS);
    const walked: StoredContact[] = [];
    for await (const contact of await openContactsInListOrder(
      listQuery({ sort: 'lastName', status: 'new' }),
    )) {
      walked.push(contact);
    }
    expect(lastNames(walked)).toEqual(['Ayadi', 'Belhaj', 'Chaabane']);
  });

  it('count the matches of a search up to the cap', async () => {
    for (const name of ['Saidi', 'Sassi', 'Sahli', 'Trabelsi']) await stored(name);
    expect(await countContactsUpTo(listQuery({ search: 'sa' }), 10)).toEqual({
      total: 3,
      totalKind: 'exact',
    });
    expect(await countContactsUpTo(listQuery({ search: 'sa' }), 2)).toEqual({
      total: 2,
      totalKind: 'atLeast',
    });
  });
});

describe('the contacts admin commands', () => {
  it('set a status, telling the views what it was, and only when it changes', async () => {
    const id = await stored('Gharbi');
    const changes = statusChangesSeen();
    const { contact, previous, mails } = await updateContactStatus(id, 'replied', changes);
    expect([contact.status, previous, mails.notification.state]).toEqual([
      'replied',
      'new',
      'pending',
    ]);
    expect(changes.seen.map(([facts, from]) => [facts.status, from])).toEqual([['replied', 'new']]);
    await updateContactStatus(id, 'replied', changes);
    expect(changes.seen).toHaveLength(1);
  });

  it('answer where the mails stood when deleting, then forget them', async () => {
    const id = await stored('Hamdi');
    await markContactMailSent(id);
    const { contact, mails } = await removeContact(id, UNWATCHED_CONTACTS);
    expect(contact.lastName).toBe('Hamdi');
    expect(mails.notification.state).toBe('sent');
    expect((await contactMailStatuses(id)).notification.state).toBe('pending');
    expect(await OwedMailModel.countDocuments({})).toBe(0);
    expect(await ContactModel.countDocuments({})).toBe(0);
  });

  it('erase the campaign results that named the enquiry’s address, and only them', async () => {
    const id = await stored('Trabelsi');
    const activity = (email: string) => ({
      _id: `campaign:${email}`,
      campaign: new Types.ObjectId(),
      recipientKey: email,
      email,
      locale: 'fr' as const,
      events: [],
      contribution: [],
    });
    await CampaignActivityModel.create([
      activity('trabelsi@example.tn'),
      activity('someone@example.tn'),
    ]);
    await removeContact(id, UNWATCHED_CONTACTS);
    const left = await CampaignActivityModel.find({}, { email: 1 }).lean();
    expect(left.map((doc) => doc.email)).toEqual(['someone@example.tn']);
  });

  it('refuse to change or delete an enquiry that is not there', async () => {
    const missing = new Types.ObjectId().toHexString();
    for (const attempt of [
      updateContactStatus(missing, 'archived', UNWATCHED_CONTACTS),
      removeContact(missing, UNWATCHED_CONTACTS),
    ]) {
      const refusal = await refusalOf(attempt);
      expect([refusal.code, refusal.message]).toEqual(['NOT_FOUND', 'No contact with this id']);
    }
  });
});
