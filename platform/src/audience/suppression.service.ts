import type { SuppressionReason, SuppressionSource } from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import { normalizeEmail } from '../mail/email-address';
import { refreshPeopleAfterWrite } from './people/person-refresh';
import { SuppressionModel } from './suppression.model';
import type { StoredSuppression } from './suppression-queries';

export interface SuppressionRequest {
  email: string;
  reason: SuppressionReason;
  source: SuppressionSource;
  at?: Date;
  campaignId?: string;
  detail?: string;
  by?: { id: string; username: string };
}

/**
 * Adds an address to the suppression list: one insert, the address as its
 * `_id`. An address already there keeps its first entry (the reason it was
 * first stopped for); answers whether this call added it.
 */
export async function suppressAddress(request: SuppressionRequest): Promise<boolean> {
  try {
    await SuppressionModel.create({
      _id: normalizeEmail(request.email),
      email: request.email.trim(),
      reason: request.reason,
      source: request.source,
      at: request.at ?? new Date(),
      ...(request.campaignId ? { campaign: request.campaignId } : {}),
      ...(request.detail ? { detail: request.detail.slice(0, 2000) } : {}),
      ...(request.by ? { byId: request.by.id, byName: request.by.username } : {}),
    });
    await refreshPeopleAfterWrite([normalizeEmail(request.email)]);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/**
 * An address that subscribed again (and confirmed, so asked for mail itself)
 * is no longer held back for having unsubscribed once; a bounce or a
 * complaint still holds it.
 */
export async function liftUnsubscribeSuppression(email: string): Promise<void> {
  const { deletedCount } = await SuppressionModel.deleteOne({
    _id: normalizeEmail(email),
    reason: 'unsubscribe',
  });
  if (deletedCount > 0) await refreshPeopleAfterWrite([normalizeEmail(email)]);
}

/** Takes an address off the suppression list: answers the entry it removed, or null. */
export async function unsuppressAddress(email: string): Promise<StoredSuppression | null> {
  const removed = await SuppressionModel.findByIdAndDelete(
    normalizeEmail(email),
  ).lean<StoredSuppression>();
  if (removed) await refreshPeopleAfterWrite([removed._id]);
  return removed;
}
