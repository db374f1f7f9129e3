import type { Types, mongo } from 'mongoose';
import { ListMemberModel } from '../list-member.model';
import { PEOPLE_REFRESH_BATCH, refreshPeople, refreshQuietly } from './person-refresh';

const members = () =>
  ListMemberModel.collection as unknown as mongo.Collection<{
    _id: string;
    list: Types.ObjectId;
    key: string;
    updatedAt: Date;
  }>;

async function refreshMembersWrittenSince(list: Types.ObjectId, since: Date): Promise<void> {
  let batch: string[] = [];
  const written = members()
    .find({ list, updatedAt: { $gte: since } }, { projection: { key: 1 } })
    .batchSize(PEOPLE_REFRESH_BATCH);
  for await (const { key } of written) {
    batch.push(key);
    if (batch.length === PEOPLE_REFRESH_BATCH) {
      await refreshPeople(batch);
      batch = [];
    }
  }
  await refreshPeople(batch);
}

/**
 * Refreshes, once an import has ended (done, cancelled or failed), the
 * people of the members it created or changed: those of its list written
 * since it was uploaded, a batch at a time. Once per import rather than per
 * chunk: on the embedded store each refresh's reads scan their collections,
 * so a refresh per chunk of a growing list made a 10,000-row import three
 * times slower. A staff change in the list meanwhile is refreshed again,
 * harmlessly.
 */
export function refreshPeopleOfImport(list: Types.ObjectId, uploadedAt: Date): Promise<void> {
  return refreshQuietly(() => refreshMembersWrittenSince(list, uploadedAt));
}
