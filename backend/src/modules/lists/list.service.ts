import {
  LOCALES,
  type Locale,
  type PublicListTextDto,
  type ListMemberConsentBasis,
  type ListMemberDto,
  type ListMemberInput,
  type ListMemberQuery,
  type MailingListDto,
  type MailingListInput,
  type MailingListQuery,
  type Page,
} from '@agency/contracts';
import {
  addMailingList,
  addStaffMemberToList,
  excludedAmong,
  findListDeletionState,
  findListMembersPage,
  findMailingList,
  findMailingListsPage,
  isImportRunningInto,
  listBeingDeleted,
  listNotFound,
  mailingListExists,
  markListDeleting,
  removeMemberFromList,
  renameMailingList,
  type ListMember,
  type MailingList,
  isoOrNull,
  pageOf,
  isErasedAddress,
  type ErasureKey,
} from '@agency/platform';
import { HttpError } from '../../errors';

type StoredList = MailingList & { _id: unknown };

/** The list's name and description in each language; empty where none was written. */
function localizedOf(list: StoredList): Record<Locale, PublicListTextDto> {
  const entries = LOCALES.map((locale) => {
    const text = list.localized?.[locale];
    return [locale, { name: text?.name ?? '', description: text?.description ?? null }] as const;
  });
  return Object.fromEntries(entries) as Record<Locale, PublicListTextDto>;
}

export function toMailingListDto(list: StoredList): MailingListDto {
  const { deletion } = list;
  return {
    id: String(list._id),
    name: list.name,
    description: list.description ?? null,
    public: list.public,
    localized: localizedOf(list),
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

export async function listMailingLists(query: MailingListQuery): Promise<Page<MailingListDto>> {
  const { lists, total } = await findMailingListsPage(query);
  return pageOf(lists.map(toMailingListDto), total, query);
}

export async function getMailingList(id: string): Promise<MailingListDto> {
  const list = await findMailingList(id);
  if (!list) throw listNotFound();
  return toMailingListDto(list);
}

export async function createMailingList(
  input: MailingListInput,
  createdBy: string,
): Promise<MailingListDto> {
  return toMailingListDto(await addMailingList(input, createdBy));
}

export async function updateMailingList(
  id: string,
  input: MailingListInput,
): Promise<MailingListDto> {
  const list = await renameMailingList(id, input);
  if (list) return toMailingListDto(list);
  throw (await mailingListExists(id)) ? listBeingDeleted() : listNotFound();
}

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
  const current = await findListDeletionState(id);
  if (!current) throw listNotFound();
  if (!current.deleting && (await isImportRunningInto(id))) {
    throw new HttpError('CONFLICT', 'A file is being imported into this list');
  }
  const marked = await markListDeleting(id);
  if (!marked) throw listNotFound();
  return { list: toMailingListDto(marked.list), outcome: marked.outcome };
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
      basis: consent.basis as ListMemberConsentBasis,
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
  if (!(await mailingListExists(listId))) throw listNotFound();
  const { members, total } = await findListMembersPage(listId, query);
  const excluded = await excludedAmong(members.map((member) => member.key));
  return pageOf(
    members.map((member) => toMemberDto(member, excluded.has(member.key))),
    total,
    query,
  );
}

/** One address added by staff: its consent record names them. */
/**
 * One address added by staff. An erased address is refused: the person asked
 * for their data to go, and only their own new sign-up may bring it back.
 */
export async function addListMember(
  listId: string,
  input: ListMemberInput,
  by: { id: string; username: string },
  erasureKey: ErasureKey,
): Promise<ListMemberDto> {
  if (await isErasedAddress(erasureKey, input.email)) {
    throw new HttpError('CONFLICT', 'This address was erased at its owner’s request', {
      email: 'This address was erased at its owner’s request: it cannot be added back',
    });
  }
  const member = await addStaffMemberToList(listId, input, by);
  const excluded = await excludedAmong([member.key]);
  return toMemberDto(member, excluded.has(member.key));
}

export async function removeListMember(listId: string, email: string): Promise<ListMemberDto> {
  const member = await removeMemberFromList(listId, email);
  if (!member) throw new HttpError('NOT_FOUND', 'This address is not in the list');
  return toMemberDto(member, false);
}
