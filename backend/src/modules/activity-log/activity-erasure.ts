import { trusted } from 'mongoose';
import { ActivityLogModel } from './activity-log.model';

/**
 * Erasing a person: the activity log names addresses in some entries (a
 * suppression or a list member added or removed, by address). Those entries
 * stay, since the log says what staff did, but the address in them becomes
 * `token` (the erasure's keyed digest). The one change the log ever takes.
 */
export async function redactAddressInActivity(address: string, token: string): Promise<number> {
  const escaped = address.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(escaped, 'gi');
  const holding = trusted({ $regex: new RegExp(escaped, 'i') });
  const entries = await ActivityLogModel.find({
    $or: [
      { 'target.label': holding },
      { 'target.id': holding },
      { 'changes.before': holding },
      { 'changes.after': holding },
    ],
  }).lean();
  for (const entry of entries) {
    const redacted = JSON.parse(JSON.stringify(entry).replace(pattern, token)) as Record<
      string,
      unknown
    >;
    await ActivityLogModel.updateOne(
      { _id: entry._id },
      { $set: { target: redacted.target, changes: redacted.changes } },
    );
  }
  return entries.length;
}
