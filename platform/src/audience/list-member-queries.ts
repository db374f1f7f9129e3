import { Types } from 'mongoose';
import type { ListMemberQuery } from '@agency/contracts';
import { findPage, searchFilter } from '../list-pages';
import { normalizeEmail } from '../mail/email-address';
import { ListMemberModel, type ListMember } from './list-member.model';

/** One page of a list's members as the dashboard asks for it, and how many match. */
export async function findListMembersPage(
  listId: string,
  query: ListMemberQuery,
): Promise<{ members: ListMember[]; total: number }> {
  const filter = {
    list: new Types.ObjectId(listId),
    ...searchFilter(query.search, ['email', 'firstName', 'lastName']),
  };
  // By the normalised address: the typed one sorts capitals apart.
  const { docs, total } = await findPage(ListMemberModel, filter, {
    ...query,
    sort: query.sort.replace('email', 'key'),
  });
  return { members: docs, total };
}

/** The lists an address is in, by id. */
export async function findListIdsOfAddress(email: string): Promise<string[]> {
  const members = await ListMemberModel.find({ key: normalizeEmail(email) }, { list: 1 }).lean();
  return members.map((member) => String(member.list));
}
