/** The privacy module's model, for tests' fixtures and assertions only. */
export { ErasureModel } from '../privacy/erasure.model';
