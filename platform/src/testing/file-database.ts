import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { withDatabaseName } from '@agency/contracts';
import { connectDatabase, disconnectDatabase } from '../db';

/** A name of the test's own: databases and queue prefixes never meet another file's. */
export function uniqueName(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

/**
 * For tests of a module's store calls without the HTTP app: mongoose is
 * connected to a database of the file's own on the shared server before the
 * file's tests, and the database is dropped after them.
 */
export function useFileDatabase(label: string): void {
  beforeAll(async () => {
    const uri = process.env.MONGODB_URI;
    if (!uri) throw new Error('MONGODB_URI must be set for tests');
    await connectDatabase(withDatabaseName(uri, uniqueName(label).replace('-', '_')));
  });
  afterAll(async () => {
    await mongoose.connection.db?.dropDatabase().catch(() => undefined);
    await disconnectDatabase();
  });
}
