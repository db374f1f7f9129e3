import mongoose from 'mongoose';
import { withTimeout } from './timeout';

/**
 * Filters built from request data must never carry query operators: with
 * sanitizeFilter, `{ email: { $gt: "" } }` is matched literally, not as a query.
 */
mongoose.set('sanitizeFilter', true);
mongoose.set('strictQuery', true);

export async function connectDatabase(uri: string): Promise<typeof mongoose> {
  return mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000, autoIndex: true });
}

export async function disconnectDatabase(): Promise<void> {
  await mongoose.disconnect();
}

/** Pings MongoDB; false when it does not answer within the timeout. */
export async function isDatabaseUp(timeoutMs = 2000): Promise<boolean> {
  const db = mongoose.connection.db;
  if (mongoose.connection.readyState !== mongoose.ConnectionStates.connected || !db) return false;
  return withTimeout(db.admin().ping(), timeoutMs).then(
    () => true,
    () => false,
  );
}
