import mongoose from 'mongoose';
import { isEmbeddedStore } from './embedded-store';
import { useFileDatabase } from './testing/file-database';
import { ON_AND_OFF, withStoreWorkarounds } from './testing/store-workarounds';
import { deleteByIds, updateByIds } from './writes-by-id';

useFileDatabase('writes-by-id');

interface Numbered {
  _id: mongoose.Types.ObjectId;
  index: number;
  marked?: boolean;
}

const things = () => mongoose.connection.collection<Numbered>('numbered_things');

async function storeThings(count: number): Promise<Numbered[]> {
  const documents = Array.from({ length: count }, (_, index) => ({
    _id: new mongoose.Types.ObjectId(),
    index,
  }));
  await things().deleteMany({});
  await things().insertMany(documents);
  return documents;
}

describe.each(ON_AND_OFF)('writes by id, one `_id` per statement %s', (_, on) => {
  withStoreWorkarounds({ readsByIdOnly: on });

  it('deletes exactly the documents named, over several commands, and counts them', async () => {
    const stored = await storeThings(130);
    const named = stored.filter(({ index }) => index % 2 === 0).map(({ _id }) => _id);
    const unknown = new mongoose.Types.ObjectId();

    await expect(deleteByIds(things(), [...named, unknown])).resolves.toBe(65);
    const left = await things().find({}).sort({ index: 1 }).toArray();
    expect(left.map(({ index }) => index)).toEqual(
      stored.filter(({ index }) => index % 2 === 1).map(({ index }) => index),
    );
    await expect(deleteByIds(things(), [])).resolves.toBe(0);
  });

  it('updates exactly the documents named, and counts those it changed', async () => {
    const stored = await storeThings(120);
    const named = stored.slice(10, 110).map(({ _id }) => _id);

    await expect(updateByIds(things(), named, { $set: { marked: true } })).resolves.toBe(100);
    // Already so: nothing changes the second time.
    await expect(
      updateByIds(things(), named.slice(0, 5), { $set: { marked: true } }),
    ).resolves.toBe(0);
    const marked = await things().find({ marked: true }).sort({ index: 1 }).toArray();
    expect(marked.map(({ index }) => index)).toEqual(
      stored.slice(10, 110).map(({ index }) => index),
    );
  });
});

describe('why the embedded store writes one `_id` at a time', () => {
  it('serves one `_id` from the index, and a `$in` of ids from it only on MongoDB', async () => {
    const stored = await storeThings(20);
    const db = mongoose.connection.db;
    if (!db) throw new Error('not connected');
    const plan = async (filter: Record<string, unknown>) => {
      const explained = (await db.command({
        explain: { find: 'numbered_things', filter },
      })) as { queryPlanner?: { Plan?: string[]; winningPlan?: unknown } };
      const planner = explained.queryPlanner ?? {};
      return planner.Plan ? planner.Plan.join('\n') : JSON.stringify(planner.winningPlan);
    };
    const ids = stored.slice(0, 3).map(({ _id }) => _id);
    expect(await plan({ _id: ids[0] })).toMatch(/USING INDEX|IDHACK|IXSCAN|EXPRESS/);
    const inPlan = await plan({ _id: { $in: ids } });
    if (await isEmbeddedStore()) expect(inPlan).toMatch(/\bSCAN\b/);
    else expect(inPlan).toMatch(/IXSCAN/);
  });
});
