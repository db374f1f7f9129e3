import { Types, trusted } from 'mongoose';
import type {
  ImportStatus,
  ListMemberDto,
  ListMemberInput,
  ListMemberQuery,
  MailingListDto,
  MailingListInput,
  MailingListQuery,
  Page,
} from '@agency/contracts';
import {
  ListImportModel,
  ListMemberModel,
  MailingListModel,
  SubscriberModel,
  SuppressionModel,
  ACTIVE_LIST_FILTER,
  isDuplicateKeyError,
  listMemberId,
  markListDeleting,
  normalizeEmail,
  type ListMember,
  type MailingList,
  findPage,
  isoOrNull,
  pageOf,
  searchFilter,
} from '@agency/platform';
import { HttpError } from '../../errors';

type StoredList = MailingList & { _id: unknown };

export function toMailingListDto(list: StoredList): MailingListDto {
  const { deletion } = list;
  return {
    id: String(list._id),
    name: list.name,
    description: list.description ?? null,
    memberCount: list.memberCount,
    state: deletion ? 'deleting' : 'active',
    deletion: deletion
      ? {
          total: deletion.total,
          // A member removed by hand meanwhile is not in `total`: progress never passes the end.
          removed: Math.min(deletion.removed, deletion.total),
          startedAt: deletion.startedAt.toISOString(),
        }
      : null,
    createdAt: list.createdAt.toISOString(),
    updatedAt: list.updatedAt.toISOString(),
  };
}

const notFound = () => new HttpError('NOT_FOUND', 'No list with this id');
const beingDeleted = () => new HttpError('CONFLICT', 'This list is being deleted');

/** `active`: lists without a deletion; `deleting`: those with one. */
function stateFilter(state: MailingListQuery['state']): Record<string, unknown> {
  if (!state) return {};
  return { deletion: trusted({ $exists: state === 'deleting' }) };
}

export async function listMailingLists(query: MailingListQuery): Promise<Page<MailingListDto>> {
  const filter = {
    ...searchFilter(query.search, ['name', 'description']),
    ...stateFilter(query.state),
  };
  const { docs, total } = await findPage(MailingListModel, filter, query);
  return pageOf(docs.map(toMailingListDto), total, query);
}

export async function getMailingList(id: string): Promise<MailingListDto> {
  const list = await MailingListModel.findById(id).lean();
  if (!list) throw notFound();
  return toMailingListDto(list);
}

export async function createMailingList(
  input: MailingListInput,
  createdBy: string,
): Promise<MailingListDto> {
  const list = await MailingListModel.create({
    name: input.name,
    ...(input.description ? { description: input.description } : {}),
    createdBy,
  });
  return toMailingListDto(list.toObject());
}

export async function updateMailingList(
  id: string,
  input: MailingListInput,
): Promise<MailingListDto> {
  const list = await MailingListModel.findOneAndUpdate(
    { _id: id, deletion: trusted(ACTIVE_LIST_FILTER.deletion) },
    input.description
      ? { $set: { name: input.name, description: input.description } }
      : { $set: { name: input.name }, $unset: { description: 1 } },
    { returnDocument: 'after', runValidators: true },
  ).lean();
  if (list) return toMailingListDto(list);
  throw (await MailingListModel.exists({ _id: id })) ? beingDeleted() : notFound();
}

const IMPORTING: ImportStatus[] = ['queued', 'running'];

/**
 * Asks for a list's deletion: the list is marked at once (it leaves the
 * audience pickers, and takes no campaign, import or member from then on),
 * and the worker's job removes its members chunk by chunk, then the list.
 * Asking again while it is being deleted answers the same state; a list
 * being imported into stays until its import ends.
 */
export async function requestListDeletion(
  id: string,
): Promise<{ list: MailingListDto; outcome: 'started' | 'already' }> {
  const current = await MailingListModel.findById(id, { deletion: 1 }).lean();
  if (!current) throw notFound();
  if (!current.deletion) {
    const importing = await ListImportModel.exists({
      list: new Types.ObjectId(id),
      status: trusted({ $in: IMPORTING }),
    });
    if (importing) throw new HttpError('CONFLICT', 'A file is being imported into this list');
  }
  const marked = await markListDeleting(id);
  if (!marked) throw notFound();
  return { list: toMailingListDto(marked.list), outcome: marked.outcome };
}

/** Which of these addresses no campaign mails: suppressed, or unsubscribed from the newsletter. */
async function excludedAmong(keys: readonly string[]): Promise<Set<string>> {
  const [suppressed, left] = await Promise.all([
    SuppressionModel.find({ _id: trusted({ $in: keys }) }, { _id: 1 }).lean(),
    SubscriberModel.find(
      { email: trusted({ $in: keys }), status: 'unsubscribed' },
      { email: 1 },
    ).lean(),
  ]);
  return new Set([...suppressed.map(({ _id }) => _id), ...left.map(({ email }) => email)]);
}

function toMemberDto(member: ListMember, excluded: boolean): ListMemberDto {
  const { consent } = member;
  return {
    key: member.key,
    email: member.email,
    firstName: member.firstName ?? '',
    lastName: member.lastName ?? '',
    locale: member.locale ?? 'en',
    tags: member.tags ?? [],
    consent: {
      basis: consent.basis as 'import' | 'staff',
      by: consent.byId ? { id: String(consent.byId), username: consent.byName ?? '' } : null,
      at: consent.at.toISOString(),
      file: consent.file ?? null,
      list: { id: String(member.list), name: consent.listName },
    },
    excluded,
    createdAt: isoOrNull(member.createdAt) ?? new Date(0).toISOString(),
  };
}

export async function listMembers(
  listId: string,
  query: ListMemberQuery,
): Promise<Page<ListMemberDto>> {
  if (!(await MailingListModel.exists({ _id: listId }))) throw notFound();
  const filter = {
    list: new Types.ObjectId(listId),
    ...searchFilter(query.search, ['email', 'firstName', 'lastName']),
  };
  // By the normalised address: the typed one sorts capitals apart.
  const { docs, total } = await findPage(ListMemberModel, filter, {
    ...query,
    sort: query.sort.replace('email', 'key'),
  });
  const excluded = await excludedAmong(docs.map((member) => member.key));
  return pageOf(
    docs.map((member) => toMemberDto(member, excluded.has(member.key))),
    total,
    query,
  );
}

/** One address added by staff: its consent record names them. */
export async function addListMember(
  listId: string,
  input: ListMemberInput,
  by: { id: string; username: string },
): Promise<ListMemberDto> {
  const list = await MailingListModel.findById(listId).lean();
  if (!list) throw notFound();
  if (list.deletion) throw beingDeleted();
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
    throw new HttpError('CONFLICT', 'This address is in the list already');
  }
  await MailingListModel.updateOne({ _id: listId }, { $inc: { memberCount: 1 } });
  const excluded = await excludedAmong([key]);
  return toMemberDto(member, excluded.has(key));
}

export async function removeListMember(listId: string, email: string): Promise<ListMemberDto> {
  const key = normalizeEmail(email);
  const member = await ListMemberModel.findByIdAndDelete(listMemberId(listId, key)).lean();
  if (!member) throw new HttpError('NOT_FOUND', 'This address is not in the list');
  await MailingListModel.updateOne({ _id: listId }, { $inc: { memberCount: -1 } });
  return toMemberDto(member, false);
}
