import { contactFactsOf, type ContactFacts } from './contact-changes';
import { ContactModel, type Contact } from './contact.model';
import { contactSearchKeys } from './contact-search';

/** Whether the stored keys lack one the enquiry is now found by (keys added since it was stored). */
function keysOutdated(
  stored: { lastNameKey?: string; searchTerms?: string[] },
  facts: ContactFacts,
) {
  if (stored.lastNameKey === undefined) return true;
  const have = new Set(stored.searchTerms ?? []);
  return contactSearchKeys(facts).searchTerms.some((term) => !have.has(term));
}

/**
 * Reads every stored enquiry once, as the reconciliation recounts them,
 * and gives the ones stored before they carried their search keys, or
 * before a kind of key was added (the e-mail's domains), those keys (an
 * index cannot find them otherwise). Returns how many it gave.
 */
export async function forEachStoredContact(
  visit: (contact: ContactFacts) => void | Promise<void>,
): Promise<{ keysAdded: number }> {
  const unkeyed: ContactFacts[] = [];
  const cursor = ContactModel.find({})
    .select({
      firstName: 1,
      lastName: 1,
      email: 1,
      locale: 1,
      service: 1,
      status: 1,
      createdAt: 1,
      'consent.requestedAt': 1,
      lastNameKey: 1,
      searchTerms: 1,
    })
    .lean<(Contact & { _id: unknown; lastNameKey?: string; searchTerms?: string[] })[]>()
    .cursor({ batchSize: 1000 });
  for await (const contact of cursor) {
    const facts = contactFactsOf(contact);
    await visit(facts);
    if (keysOutdated(contact, facts)) unkeyed.push(facts);
  }
  for (const contact of unkeyed) {
    await ContactModel.updateOne({ _id: contact.id }, { $set: contactSearchKeys(contact) });
  }
  return { keysAdded: unkeyed.length };
}
