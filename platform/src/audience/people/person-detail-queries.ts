import { Types, trusted } from 'mongoose';
import type { MailEventKind, MailEventProvider } from '@agency/contracts';
import { normalizeEmail } from '../../mail/email-address';
import { MailEventModel } from '../mail-event.model';
import { MailingListModel } from '../mailing-list.model';
import { readAddressRecords, type AddressRecords } from './person-records';

/** A bounce or complaint of one address, as its page lists it. */
export interface AddressMailEvent {
  kind: MailEventKind;
  provider: MailEventProvider | 'dsn';
  at: Date;
  detail: string | null;
  campaignId: string | null;
}

/** Everything the audience module holds of one address, for its page. */
export interface AddressHoldings extends AddressRecords {
  /** The names of the lists it is a member of, by id. */
  listNames: Map<string, string>;
  /** Its bounces and complaints, newest first. */
  mailEvents: AddressMailEvent[];
}

/** The names of these lists, by id (a list deleted since is left out). */
export async function findListNames(ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const lists = await MailingListModel.find(
    { _id: trusted({ $in: ids.map((id) => new Types.ObjectId(id)) }) },
    { name: 1 },
  ).lean();
  return new Map(lists.map(({ _id, name }) => [String(_id), name]));
}

async function mailEventsOf(key: string, max: number): Promise<AddressMailEvent[]> {
  const events = await MailEventModel.find({ key }).sort({ at: -1 }).limit(max).lean();
  return events.map((event) => ({
    kind: event.kind as MailEventKind,
    provider: event.provider as MailEventProvider | 'dsn',
    at: event.at,
    detail: event.detail ?? null,
    campaignId: event.campaign ? String(event.campaign) : null,
  }));
}

/** The records, list names and mail events of an address (at most `maxEvents` events). */
export async function findAddressHoldings(
  email: string,
  maxEvents: number,
): Promise<AddressHoldings> {
  const key = normalizeEmail(email);
  const [records, mailEvents] = await Promise.all([
    readAddressRecords([key]),
    mailEventsOf(key, maxEvents),
  ]);
  const held = records.get(key) as AddressRecords;
  const listNames = await findListNames([...new Set(held.members.map(({ list }) => String(list)))]);
  return { ...held, listNames, mailEvents };
}
