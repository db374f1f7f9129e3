import { contactFactsOf, type ContactFacts } from './contact-changes';
import { ContactModel, type Contact } from './contact.model';
import { contactSearchKeys } from './contact-search';

/**
 * Reads every stored enquiry once, as the reconciliation recounts them,
 * and gives the ones stored before they carried their search keys those
 * keys (an index cannot find them otherwise). Returns how many it gave.
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
      lastNameKey: 1,
    })
    .lean<(Contact & { _id: unknown; lastNameKey?: string })[]>()
    .cursor({ batchSize: 1000 });
  for await (const contact of cursor) {
    const facts = contactFactsOf(contact);
    await visit(facts);
    if (contact.lastNameKey === undefined) unkeyed.push(facts);
  }
  for (const contact of unkeyed) {
    await ContactModel.updateOne({ _id: contact.id }, { $set: contactSearchKeys(contact) });
  }
  return { keysAdded: unkeyed.length };
}
