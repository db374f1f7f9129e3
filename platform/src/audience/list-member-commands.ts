import type { ListMemberInput } from '@agency/contracts';
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
