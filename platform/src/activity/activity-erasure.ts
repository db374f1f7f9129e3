import { trusted } from 'mongoose';
import { addressCandidatePattern, addressInTextPattern } from '../mail/address-in-text';
import { ActivityLogModel } from './activity-log.model';

/**
 * Erasing a person: the activity log names addresses in some entries (a
 * suppression or a list member added or removed, by address). Those entries
 * stay, since the log says what staff did, but the address in them becomes
 * `token` (the erasure's keyed digest). The one change the log ever takes.
 */
export async function redactAddressInActivity(address: string, token: string): Promise<number> {
  const pattern = addressInTextPattern(address, 'gi');
  const holding = trusted({ $regex: addressCandidatePattern(address) });
  const entries = await ActivityLogModel.find({
    $or: [
      { 'target.label': holding },
      { 'target.id': holding },
      { 'changes.before': holding },
      { 'changes.after': holding },
    ],
  }).lean();
  let changed = 0;
  for (const entry of entries) {
    const text = JSON.stringify(entry);
    const redactedText = text.replace(pattern, token);
    // A longer address that contains this one was a candidate only.
    if (redactedText === text) continue;
    const redacted = JSON.parse(redactedText) as Record<string, unknown>;
    changed += 1;
    await ActivityLogModel.updateOne(
      { _id: entry._id },
      { $set: { target: redacted.target, changes: redacted.changes } },
    );
  }
  return changed;
}
