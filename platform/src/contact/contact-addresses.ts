import { Types, trusted, type mongo } from 'mongoose';
import { insertBatcher } from '../batched-writes';
import { deleteByIds, updateByIds } from '../writes-by-id';
import { insertUnlessPresent, isMissingCollectionError } from '../database-errors';
import type { Logger } from '../logger';
import type { Redis } from '../redis-connection';
import { ContactAddressModel } from './contact-address.model';
import type { ContactChanges, ContactFacts } from './contact-changes';
import { ContactModel } from './contact.model';

/*
 * The contacts' addresses (contact-address.model.ts) follow every enquiry
 * stored or deleted (`createContactAddressChanges`, the API's), and the
 * scheduled reconciliation (the worker's) adds what a write missed and
 * drops what outlived its enquiry (`beginContactAddressRepair`). The
 * audience reads them only while they are as many as the enquiries
 * (`contactAddressesComplete`), and the enquiries otherwise: an
 * installation from before the copy, until its first reconciliation, or an
 * address write that failed, until the next.
 */

export interface ContactAddressDocument {
  _id: Types.ObjectId;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
  /** Only on the address of an enquiry that ticked "send me news". */
  consented?: true;
}

/** The collection as the driver sees it: nothing to cast on the hot read. */
export const contactAddresses = () =>
  ContactAddressModel.collection as unknown as mongo.Collection<ContactAddressDocument>;

export function contactAddressOf(contact: ContactFacts): ContactAddressDocument {
  return {
    _id: new Types.ObjectId(contact.id),
    email: contact.email,
    firstName: contact.firstName,
    lastName: contact.lastName,
    locale: contact.locale,
    ...(contact.consented ? { consented: true as const } : {}),
  };
}

/** A bulk insert that goes on past an address there already. */
const UNORDERED = { ordered: false } as const;

/** Inserts addresses, those there already (a repair that met the enquiry first) left as they are. Returns how many were new. */
async function insertAddresses(documents: ContactAddressDocument[]): Promise<number> {
  const present = await insertUnlessPresent(contactAddresses(), documents);
  return documents.length - present.length;
}

/** Told of each enquiry stored or deleted; like the other views, it never throws. */
export function createContactAddressChanges({ logger }: { logger: Logger }): ContactChanges {
  const missed = (contact: ContactFacts, error: unknown) => {
    logger.warn(
      { err: error, contactId: contact.id },
      "the campaign audience missed an enquiry's change; the reconciliation will repair it",
    );
  };
  // Enquiries stored together have their addresses written together, one insert for them all.
  const insertAddress = insertBatcher(
    (documents) => ContactAddressModel.collection.insertMany(documents, UNORDERED),
    { duplicatesAreInserted: true },
  );
  const forgetAddress = async (contact: ContactFacts) => {
    try {
      await contactAddresses().deleteOne({ _id: new Types.ObjectId(contact.id) });
    } catch (error) {
      missed(contact, error);
    }
  };
  return {
    async stored(contact) {
      try {
        await insertAddress({ ...contactAddressOf(contact) });
      } catch (error) {
        missed(contact, error);
      }
    },
    statusChanged: () => Promise.resolve(),
    deleted: (contact) => forgetAddress(contact),
    // An anonymised enquiry has no address to mail: its copy goes.
    anonymised: (contact) => forgetAddress(contact),
  };
}

/**
 * How many documents a collection holds, from its statistics: metadata on
 * MongoDB (one figure per shard), and on FerretDB a count that decodes no
 * document, where `count` decodes them all (28 ms against 1.7 s at 20,000
 * enquiries).
 */
async function documentCount(collection: mongo.Collection): Promise<number> {
  try {
    const perShard = await collection
      .aggregate<{ count: number }>([{ $collStats: { count: {} } }])
      .toArray();
    return perShard.reduce((sum, { count }) => sum + count, 0);
  } catch (error) {
    // A collection not created yet (an installation from before the copy) holds nothing.
    if (isMissingCollectionError(error)) return 0;
    throw error;
  }
}

/**
 * Whether there is an address for every enquiry, judged by the two counts.
 * A missed write and a missed delete together would pass for complete
 * until the next reconciliation.
 */
export async function contactAddressesComplete(): Promise<boolean> {
  const [enquiries, addresses] = await Promise.all([
    documentCount(ContactModel.collection as unknown as mongo.Collection),
    documentCount(ContactAddressModel.collection as unknown as mongo.Collection),
  ]);
  if (enquiries === addresses) return true;
  // Anonymised enquiries have no copy (contact-retention.ts); counted only when the two differ.
  const anonymised = await ContactModel.countDocuments({
    anonymisedAt: trusted({ $exists: true }),
  });
  return enquiries === addresses + anonymised;
}

/** What a campaign needs of one enquiry to mail it. */
export interface ContactMailAddress {
  email: string;
  firstName: string;
  lastName?: string;
  locale: string;
}

/** Which enquiries a campaign's walk reads: those that consented, or every one. */
export interface ContactMailAddressesOptions {
  onlyConsented: boolean;
}

/**
 * Every enquiry's address, name and language, read in batches of 1,000 for
 * a campaign's audience: from the narrow copy when it is whole (the same
 * fields, half the store's work), from the enquiries otherwise. With
 * `onlyConsented`, the store itself leaves out the enquiries that did not
 * tick "send me news" (on the copy, `consented`; on the enquiries, the
 * consent's date, as the people view reads it).
 */
export async function* contactMailAddresses({
  onlyConsented,
}: ContactMailAddressesOptions): AsyncGenerator<ContactMailAddress> {
  const fromCopy = await contactAddressesComplete();
  const source = fromCopy ? ContactAddressModel.collection : ContactModel.collection;
  const consentedOnly = fromCopy
    ? { consented: true }
    : { 'consent.requestedAt': { $exists: true } };
  yield* source
    .find<ContactMailAddress>(
      // An anonymised enquiry keeps no address (contact-retention.ts): never mailed.
      { ...(onlyConsented ? consentedOnly : {}), email: { $ne: '' } },
      { projection: { email: 1, firstName: 1, lastName: 1, locale: 1 } },
    )
    .batchSize(1000);
}

export interface AddressRepairReport {
  /** Enquiries that had no address. */
  added: number;
  /** Addresses whose enquiry was gone. */
  removed: number;
  /** Addresses whose consent said otherwise than their enquiry's, set as the enquiry says. */
  consentCorrected: number;
}

export interface ContactAddressRepair {
  /** One stored enquiry, as the reconciliation walks them. */
  expect(contact: ContactFacts): Promise<void>;
  /** After the walk: adds what is still missing, drops the addresses no enquiry claimed. */
  finish(): Promise<AddressRepairReport>;
  /** Drops the ids held in Redis; finish does it too, and an abandoned pass's expire. */
  discard(): Promise<void>;
}

/** Addresses per insert, and enquiries per look-up of the held ids. */
const CHUNK = 1000;
/** A pass that died leaves the ids it held for this long at most. */
const HELD_TTL_SECONDS = 3600;

/** Sets the consent of these addresses as their enquiries say; returns how many. */
async function correctConsent(consented: string[], notConsented: string[]): Promise<number> {
  const ids = (of: string[]) => of.map((id) => new Types.ObjectId(id));
  return (
    (await updateByIds(contactAddresses(), ids(consented), { $set: { consented: true } })) +
    (await updateByIds(contactAddresses(), ids(notConsented), { $unset: { consented: '' } }))
  );
}

/** Copies the ids the copy holds now into a Redis hash (id -> '1' when consented), a chunk at a time. */
async function holdAddressIds(redis: Redis, held: string): Promise<void> {
  const ids = contactAddresses()
    .find({}, { projection: { _id: 1, consented: 1 } })
    .batchSize(5000);
  let chunk: string[] = [];
  const send = async () => {
    if (chunk.length === 0) return;
    await redis
      .pipeline()
      .hset(held, ...chunk)
      .expire(held, HELD_TTL_SECONDS)
      .exec();
    chunk = [];
  };
  for await (const { _id, consented } of ids) {
    chunk.push(String(_id), consented === true ? '1' : '0');
    if (chunk.length >= 2 * CHUNK) await send();
  }
  await send();
}

/** The ids left in the hash, a chunk at a time (each id at least once). */
async function* heldIds(redis: Redis, held: string): AsyncGenerator<Types.ObjectId[]> {
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(held, cursor, 'COUNT', CHUNK);
    cursor = next;
    const ids = flat.filter((_, index) => index % 2 === 0).map((id) => new Types.ObjectId(id));
    if (ids.length > 0) yield ids;
  } while (cursor !== '0');
}

/**
 * Starts a repair of the addresses: call it before the enquiries are
 * walked. It holds the ids the copy has now, each with its consent, in a
 * Redis hash (`held`, a key of the pass's own: the process keeps nothing
 * per address beyond a chunk), and crosses off every one the walk meets,
 * a chunk of enquiries at a time: an enquiry always exists before
 * its address, so whatever is left at the end belonged to an enquiry
 * deleted since. An address whose consent differs from its enquiry's is
 * set as the enquiry says, so the audience never mails on a consent the
 * enquiry does not hold. An enquiry stored meanwhile has its address
 * written by the API; the repair's insert of it (when the walk met it
 * first) and the API's are the same document, and the second is left alone.
 */
export async function beginContactAddressRepair(
  redis: Redis,
  held: string,
): Promise<ContactAddressRepair> {
  await holdAddressIds(redis, held);
  let walked: ContactFacts[] = [];
  let missing: ContactAddressDocument[] = [];
  const consentedNow: string[] = [];
  const notConsentedNow: string[] = [];
  let added = 0;
  const addMissing = async () => {
    const documents = missing;
    missing = [];
    added += await insertAddresses(documents);
  };
  /** Crosses off the enquiries walked since the last chunk; notes those with no address or another consent. */
  const claim = async () => {
    const contacts = walked;
    walked = [];
    if (contacts.length === 0) return;
    const ids = contacts.map(({ id }) => id);
    const replies =
      (await redis
        .pipeline()
        .hmget(held, ...ids)
        .hdel(held, ...ids)
        .exec()) ?? [];
    const failed = replies.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
    const flags = (replies[0]?.[1] ?? []) as (string | null)[];
    contacts.forEach((contact, index) => {
      const flag = flags[index];
      if (flag === null || flag === undefined) missing.push(contactAddressOf(contact));
      else if ((flag === '1') !== contact.consented) {
        (contact.consented ? consentedNow : notConsentedNow).push(contact.id);
      }
    });
    if (missing.length >= CHUNK) await addMissing();
  };
  const discard = async () => {
    await redis.del(held);
  };
  return {
    async expect(contact) {
      // Anonymised: no address to copy, and a copy left behind goes as an orphan.
      if (contact.email === '') return;
      walked.push(contact);
      if (walked.length >= CHUNK) await claim();
    },
    async finish() {
      await claim();
      await addMissing();
      const consentCorrected = await correctConsent(consentedNow, notConsentedNow);
      let removed = 0;
      // Deleting an orphan twice (an id the scan gave twice) deletes nothing the second time.
      for await (const orphans of heldIds(redis, held)) {
        removed += await deleteByIds(contactAddresses(), orphans);
      }
      await discard();
      return { added, removed, consentCorrected };
    },
    discard,
  };
}
