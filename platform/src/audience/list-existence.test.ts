import { Types } from 'mongoose';
import { useFileDatabase } from '../testing/file-database';
import { countExistingLists, findExistingListIds } from './list-existence';
import { MailingListModel } from './mailing-list.model';

/**
 * Which of the lists a campaign names still exist: a draft may name only
 * lists not being deleted, a copy keeps every list still stored.
 */
describe('the existence of mailing lists', () => {
  useFileDatabase('list-existence');

  let kept: string;
  let deleting: string;
  const gone = String(new Types.ObjectId());

  beforeAll(async () => {
    const [one, two] = await MailingListModel.create([
      { name: 'Clients' },
      { name: 'Old prospects', deletion: { total: 3, startedAt: new Date() } },
    ]);
    kept = String(one?._id);
    deleting = String(two?._id);
  });

  it('counts only the lists that exist and are not being deleted', async () => {
    expect(await countExistingLists([kept])).toBe(1);
    expect(await countExistingLists([kept, deleting])).toBe(1);
    expect(await countExistingLists([kept, gone])).toBe(1);
    expect(await countExistingLists([])).toBe(0);
  });

  it('finds every list still stored, one being deleted included, by its id as a string', async () => {
    const found = await findExistingListIds([kept, new Types.ObjectId(deleting), gone]);
    expect(found.sort()).toEqual([kept, deleting].sort());
  });
});
