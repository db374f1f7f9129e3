import type { ErasureDto, ErasureState } from '@agency/contracts';
import { trusted } from 'mongoose';
import { isDuplicateKeyError } from '../database-errors';
import { normalizeEmail } from '../mail/email-address';
import { erasedAddressDigest, type ErasureKey } from './erasure-key';
import { ErasureModel } from './erasure.model';
import { ERASURE_STEPS } from './erasure-steps';

export interface StoredErasure {
  _id: string;
  state: ErasureState;
  requestedAt: Date;
  finishedAt?: Date | null;
  steps: string[];
  locale?: string | null;
}

/**
 * Records the request, queued. An erasure that ended (done or failed) is
 * queued again from its first step: the address may have come back since by
 * the person's own sign-up. One queued or running is left as it is.
 */
export async function recordErasureRequest(id: string): Promise<StoredErasure> {
  const now = new Date();
  try {
    await ErasureModel.create({ _id: id, state: 'queued', requestedAt: now, steps: [] });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await ErasureModel.updateOne(
      { _id: id, state: trusted({ $in: ['done', 'failed'] }) },
      {
        $set: { state: 'queued', requestedAt: now, steps: [] },
        $unset: { finishedAt: 1, locale: 1 },
      },
    );
  }
  return (await findStoredErasure(id)) as StoredErasure;
}

export async function findStoredErasure(id: string): Promise<StoredErasure | null> {
  return ErasureModel.findById(id).lean<StoredErasure>();
}

/** Marks it running, and keeps the confirmation's language the first time (`localeOf` reads it). */
export async function markErasureRunning(
  id: string,
  localeOf: () => Promise<string>,
): Promise<StoredErasure> {
  const stored = await findStoredErasure(id);
  const locale = stored?.locale ?? (await localeOf());
  await ErasureModel.updateOne(
    { _id: id },
    { $set: { state: 'running', startedAt: new Date(), locale } },
    { upsert: true, setDefaultsOnInsert: true },
  );
  await ErasureModel.updateOne(
    { _id: id, requestedAt: null },
    { $set: { requestedAt: new Date() } },
  );
  return (await findStoredErasure(id)) as StoredErasure;
}

export async function markErasureStepDone(id: string, step: string): Promise<void> {
  await ErasureModel.updateOne({ _id: id }, { $addToSet: { steps: step } });
}

export async function markErasureEnded(id: string, state: 'done' | 'failed'): Promise<void> {
  await ErasureModel.updateOne({ _id: id }, { $set: { state, finishedAt: new Date() } });
}

/** An erasure as the dashboard follows it. */
export async function findErasure(id: string): Promise<ErasureDto | null> {
  const stored = await findStoredErasure(id);
  if (!stored) return null;
  const known = new Set<string>(ERASURE_STEPS);
  return {
    id: stored._id,
    state: stored.state,
    requestedAt: stored.requestedAt.toISOString(),
    finishedAt: stored.finishedAt ? stored.finishedAt.toISOString() : null,
    stepsDone: stored.steps.filter((step) => known.has(step)).length,
    stepsTotal: ERASURE_STEPS.length,
  };
}

/** Whether this address was erased (or is being): an import or a staff addition must not take it back. */
export async function isErasedAddress(key: ErasureKey, address: string): Promise<boolean> {
  return Boolean(await ErasureModel.exists({ _id: erasedAddressDigest(key, address) }));
}

/**
 * Which of these addresses were erased (or are being), normalised, in one
 * read: a bulk action leaves them out.
 */
export async function erasedAmong(
  key: ErasureKey,
  addresses: readonly string[],
): Promise<Set<string>> {
  const byDigest = new Map(
    addresses.map((address) => [erasedAddressDigest(key, address), normalizeEmail(address)]),
  );
  const found = await ErasureModel.find(
    { _id: trusted({ $in: [...byDigest.keys()] }) },
    { _id: 1 },
  ).lean<{ _id: string }[]>();
  return new Set(found.map(({ _id }) => byDigest.get(_id) ?? ''));
}

/** Every erased address's digest, for an import to check each row against without a read per row. */
export async function erasedAddressDigests(): Promise<Set<string>> {
  const digests = new Set<string>();
  const cursor = ErasureModel.collection.find<{ _id: string }>({}, { projection: { _id: 1 } });
  for await (const { _id } of cursor) digests.add(_id);
  return digests;
}
