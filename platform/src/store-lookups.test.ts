import mongoose from 'mongoose';
import { useFileDatabase } from './testing/file-database';

/**
 * The mail path reads and writes receipts, outbox entries and campaign
 * ledgers by `_id` only, counting on that being an index lookup. On the
 * embedded FerretDB the SQLite query plan says so; stock FerretDB 1.24.2
 * scans the table instead (scripts/lib/system-deps.mjs patches its build).
 * Against mongod the winning plan must not be a collection scan either.
 */
useFileDatabase('lookups');

interface Explained {
  serverInfo?: { ferretdbVersion?: string };
  queryPlanner?: { Plan?: string[]; winningPlan?: unknown };
}

async function planOfFind(collection: string, filter: Record<string, unknown>): Promise<string> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('not connected');
  const explained = (await db.command({ explain: { find: collection, filter } })) as Explained;
  const planner = explained.queryPlanner ?? {};
  return explained.serverInfo?.ferretdbVersion
    ? (planner.Plan ?? []).join('\n')
    : JSON.stringify(planner.winningPlan);
}

describe('the store behind the tests', () => {
  it.each([
    ['a string `_id`', 'mail-receipt', (index: number) => `contact-notification:${index}`],
    ['an ObjectId', 'contact', () => new mongoose.Types.ObjectId()],
  ])('finds a document by %s through the `_id` index', async (_kind, collection, idOf) => {
    const documents = Array.from({ length: 50 }, (_, index) => ({ _id: idOf(index), index }));
    await mongoose.connection
      .collection<{ _id: string | mongoose.Types.ObjectId; index: number }>(collection)
      .insertMany(documents);

    const plan = await planOfFind(collection, { _id: documents[49]?._id });

    expect(plan).not.toMatch(/\bSCAN\b|COLLSCAN/);
    expect(plan).toMatch(/USING INDEX|IDHACK|IXSCAN|EXPRESS/);
  });
});
