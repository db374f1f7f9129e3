import type { ListMemberInput, Locale } from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import { DomainError } from '../domain-error';
import { normalizeEmail } from '../mail/email-address';
import { ListMemberModel, listMemberId, type ListMember } from './list-member.model';
import { MailingListModel } from './mailing-list.model';
import { listBeingDeleted, listNotFound } from './mailing-list-queries';
import { refreshPeopleAfterWrite } from './people/person-refresh';

/** A caller writing many members at once refreshes their people itself, once. */
export interface MemberWriteOptions {
  refreshPeople?: boolean;
}

/**
 * One address added by staff: its consent record names them, and the
 * list's count follows. Refused when the list is gone or being deleted, or
 * has the address already.
 */
export async function addStaffMemberToList(
  listId: string,
  input: ListMemberInput,
  by: { id: string; username: string },
  { refreshPeople = true }: MemberWriteOptions = {},
): Promise<ListMember> {
  const list = await MailingListModel.findById(listId).lean();
  if (!list) throw listNotFound();
  if (list.deletion) throw listBeingDeleted();
  const key = normalizeEmail(input.email);
  const now = new Date();
  let member: ListMember;
  try {
    const created = await ListMemberModel.create({
      _id: listMemberId(listId, key),
      list: list._id,
      key,
      email: input.email,
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
      locale: input.locale ?? 'en',
      tags: input.tags ?? [],
      consent: { basis: 'staff', byId: by.id, byName: by.username, at: now, listName: list.name },
    });
    member = created.toObject();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    throw new DomainError('CONFLICT', 'This address is in the list already');
  }
  await MailingListModel.updateOne({ _id: listId }, { $inc: { memberCount: 1 } });
  if (refreshPeople) await refreshPeopleAfterWrite([key]);
  return member;
}

/** Takes an address off a list, and one off its count; null when it was not in it. */
export async function removeMemberFromList(
  listId: string,
  email: string,
  { refreshPeople = true }: MemberWriteOptions = {},
): Promise<ListMember | null> {
  const key = normalizeEmail(email);
  const member = await ListMemberModel.findByIdAndDelete(listMemberId(listId, key)).lean();
  if (!member) return null;
  await MailingListModel.updateOne({ _id: listId }, { $inc: { memberCount: -1 } });
  if (refreshPeople) await refreshPeopleAfterWrite([key]);
  return member;
}

/** Who joins a public list by their own choice, and when they confirmed it. */
export interface SelfJoin {
  email: string;
  locale: Locale;
  at: Date;
}

/**
 * A person joining a public list by their own sign-up or preference page:
 * the consent record says so, with the time. A list that is no longer
 * public, or is being deleted, takes no one; joining twice changes nothing.
 */
export async function joinPublicList(
  listId: string,
  join: SelfJoin,
  { refreshPeople = true }: MemberWriteOptions = {},
): Promise<'joined' | 'already' | 'closed'> {
  const list = await MailingListModel.findById(listId).lean();
  if (!list?.public || list.deletion) return 'closed';
  const key = normalizeEmail(join.email);
  try {
    await ListMemberModel.create({
      _id: listMemberId(listId, key),
      list: list._id,
      key,
      email: key,
      locale: join.locale,
      consent: { basis: 'sign-up', at: join.at, listName: list.name },
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) return 'already';
    throw error;
  }
  await MailingListModel.updateOne({ _id: listId }, { $inc: { memberCount: 1 } });
  if (refreshPeople) await refreshPeopleAfterWrite([key]);
  return 'joined';
}

/** The language an address's list mail comes in, in every list it is in. */
export async function setMemberLanguage(email: string, locale: Locale): Promise<void> {
  const key = normalizeEmail(email);
  await ListMemberModel.updateMany({ key }, { $set: { locale } });
  await refreshPeopleAfterWrite([key]);
}
