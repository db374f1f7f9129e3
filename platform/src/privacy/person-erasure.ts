import { isLocale, type Locale } from '@agency/contracts';
import { findEnquiryLocaleOf } from '../contact/contact-erasure';
import { normalizeEmail } from '../mail/email-address';
import { findSubscriberLocaleOf } from '../newsletter/subscriber-erasure';
import { erasedAddressDigest, erasedAddressToken, type ErasureKey } from './erasure-key';
import {
  markErasureRunning,
  markErasureStepDone,
  recordErasureRequest,
  type StoredErasure,
} from './erasure-records';
import { ERASURE_STEPS, runErasureStep, type ErasureContext } from './erasure-steps';

/** The step that mails the person, after every record is gone. */
export const CONFIRMATION_STEP = 'confirmation';

/** The erasure's id for an address, with its request recorded (queued). */
export async function requestPersonErasure(
  key: ErasureKey,
  address: string,
): Promise<StoredErasure> {
  return recordErasureRequest(erasedAddressDigest(key, address));
}

/** The language the person last chose: their subscription's, else their latest enquiry's. */
async function personLocaleOf(key: string): Promise<Locale> {
  const locale = (await findSubscriberLocaleOf(key)) ?? (await findEnquiryLocaleOf(key));
  return locale && isLocale(locale) ? locale : 'en';
}

export interface PersonErasureDeps {
  erasureKey: ErasureKey;
  redis: ErasureContext['redis'];
  contactChanges: ErasureContext['contactChanges'];
}

/**
 * Runs the steps of one erasure not yet recorded as done, each recorded once
 * it finishes; answers the stored erasure, with the confirmation's language.
 */
export async function runPersonErasureSteps(
  deps: PersonErasureDeps,
  address: string,
): Promise<StoredErasure> {
  const key = normalizeEmail(address);
  const id = erasedAddressDigest(deps.erasureKey, key);
  const stored = await markErasureRunning(id, () => personLocaleOf(key));
  const context: ErasureContext = {
    key,
    token: erasedAddressToken(id),
    redis: deps.redis,
    contactChanges: deps.contactChanges,
  };
  const done = new Set(stored.steps);
  for (const step of ERASURE_STEPS) {
    if (done.has(step)) continue;
    await runErasureStep(step, context);
    await markErasureStepDone(id, step);
    done.add(step);
  }
  return { ...stored, steps: [...done] };
}
