/**
 * The privacy module: a person's data download and erasure, reaching every
 * module that holds an address through that module's own commands, and the
 * erasures collection (keyed digests, no address) that keeps an erased
 * address out of imports and staff additions.
 */
export * from './erasure-key';
export {
  erasedAddressDigests,
  erasedAmong,
  findErasure,
  findStoredErasure,
  isErasedAddress,
  markErasureEnded,
  markErasureStepDone,
  type StoredErasure,
} from './erasure-records';
export { ERASURE_STEPS, type ErasureStep } from './erasure-steps';
export { CampaignBatchInFlight } from './queued-job-erasure';
export * from './person-data-export';
export * from './person-erasure';
export * from './privacy-link-token';
