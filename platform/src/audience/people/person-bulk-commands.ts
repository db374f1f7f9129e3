import { trusted } from 'mongoose';
import { MEMBER_TAGS_MAX, type PeopleBulkInput, type PeopleBulkResultDto } from '@agency/contracts';
import { DomainError } from '../../domain-error';
import { normalizeEmail } from '../../mail/email-address';
import { addStaffMemberToList, removeMemberFromList } from '../list-member-commands';
import { ListMemberModel, listMemberId } from '../list-member.model';
import { findListDeletionState } from '../mailing-list-queries';
import { refreshPeopleAfterWrite } from './person-refresh';
import { PersonModel, type StoredPerson } from './person.model';

type Staff = { id: string; username: string };

/** The list a bulk action names, refused with the field when it is gone or being deleted. */
async function assertListTakesChanges(listId: string): Promise<void> {
  const state = await findListDeletionState(listId);
  if (!state) {
    throw new DomainError('NOT_FOUND', 'No list with this id', { listId: 'No list with this id' });
  }
  if (state.deleting) {
    throw new DomainError('CONFLICT', 'This list is being deleted', {
      listId: 'This list is being deleted',
    });
  }
}

async function knownPeople(keys: readonly string[]): Promise<Map<string, StoredPerson>> {
  const found = await PersonModel.find({ _id: trusted({ $in: keys }) }).lean<StoredPerson[]>();
  return new Map(found.map((person) => [person._id, person]));
}

async function alreadyMembers(listId: string, keys: readonly string[]): Promise<Set<string>> {
  const ids = keys.map((key) => listMemberId(listId, key));
  const found = await ListMemberModel.find({ _id: trusted({ $in: ids }) }, { key: 1 }).lean();
  return new Set(found.map(({ key }) => key));
}

/** Each address not in the list yet, added as staff would add it, with the name the product holds. */
async function addToList(listId: string, keys: string[], by: Staff): Promise<number> {
  const [present, people] = await Promise.all([alreadyMembers(listId, keys), knownPeople(keys)]);
  let added = 0;
  for (const key of keys.filter((candidate) => !present.has(candidate))) {
    const person = people.get(key);
    const input = {
      email: person?.email ?? key,
      firstName: person?.firstName ?? '',
      lastName: person?.lastName ?? '',
      locale: person?.locale ?? 'en',
    };
    try {
      await addStaffMemberToList(listId, input, by, { refreshPeople: false });
      added += 1;
    } catch (error: unknown) {
      // Added by someone else meanwhile: unchanged. A list deleted meanwhile stops the action.
      if (!(error instanceof DomainError) || error.code !== 'CONFLICT') throw error;
      await assertListTakesChanges(listId);
    }
  }
  return added;
}

async function removeFromList(listId: string, keys: string[]): Promise<number> {
  let removed = 0;
  for (const key of keys) {
    if (await removeMemberFromList(listId, key, { refreshPeople: false })) removed += 1;
  }
  return removed;
}

/** Adds a tag to the members that lack it and have room for one more. */
async function tagMembers(listId: string, keys: string[], tag: string): Promise<number> {
  const { modifiedCount } = await ListMemberModel.updateMany(
    {
      _id: trusted({ $in: keys.map((key) => listMemberId(listId, key)) }),
      tags: trusted({ $ne: tag }),
      [`tags.${MEMBER_TAGS_MAX - 1}`]: trusted({ $exists: false }),
    },
    { $addToSet: { tags: tag } },
  );
  return modifiedCount;
}

async function untagMembers(listId: string, keys: string[], tag: string): Promise<number> {
  const { modifiedCount } = await ListMemberModel.updateMany(
    { _id: trusted({ $in: keys.map((key) => listMemberId(listId, key)) }), tags: tag },
    { $pull: { tags: tag } },
  );
  return modifiedCount;
}

function changeOf(input: PeopleBulkInput, keys: string[], by: Staff): Promise<number> {
  switch (input.action) {
    case 'add-to-list':
      return addToList(input.listId, keys, by);
    case 'remove-from-list':
      return removeFromList(input.listId, keys);
    case 'tag':
      return tagMembers(input.listId, keys, input.tag as string);
    case 'untag':
      return untagMembers(input.listId, keys, input.tag as string);
  }
}

/**
 * One action on people chosen on the screen, through the list members'
 * own commands (the list's count follows each add and remove), then one
 * refresh of their people. An address already as asked (in the list, not
 * in it, tagged already, or with no room for another tag) is unchanged.
 */
export async function applyPeopleBulk(
  input: PeopleBulkInput,
  by: Staff,
): Promise<PeopleBulkResultDto> {
  await assertListTakesChanges(input.listId);
  const keys = [...new Set(input.emails.map(normalizeEmail))];
  const changed = await changeOf(input, keys, by);
  await refreshPeopleAfterWrite(keys);
  return { changed, unchanged: keys.length - changed };
}
