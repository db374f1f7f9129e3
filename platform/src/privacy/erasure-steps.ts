import { QUEUE_NAMES } from '@agency/contracts';
import {
  eraseListMembershipsOf,
  eraseMailEventsOf,
  eraseSuppressionOf,
  scrubImportPreviewsOf,
  scrubImportReportsOf,
} from '../audience/person-audience-erasure';
import { createStalePeople, refreshPeople } from '../audience/people';
import { pseudonymiseLedgerOf } from '../campaigns/ledger-erasure';
import { eraseCampaignActivityOf } from '../campaigns/results/campaign-people-queries';
import { dropTestRecipient } from '../campaigns/test-recipients';
import type { ContactChanges } from '../contact/contact-changes';
import { eraseEnquiriesOf } from '../contact/contact-erasure';
import { addressInTextPattern } from '../mail/address-in-text';
import { eraseSubscriberOf } from '../newsletter/subscriber-erasure';
import type { Redis } from '../redis-connection';
import { forgetAddressInKeptCounts } from '../stats/kept-counts-erasure';
import { eraseQueuedJobsOf } from './queued-job-erasure';

/** What every step is given: the address (normalised), what replaces it, and the Redis it reaches. */
export interface ErasureContext {
  key: string;
  /** `erased:<digest>`: what sent-mail records name the person by from now on. */
  token: string;
  redis: { connection: Redis; prefix: string };
  /** The enquiries' views (kept figures, the list's index, the address copies), as the API's deletion tells them. */
  contactChanges: ContactChanges;
}

/**
 * The erasure, one owner's command per step, in this order. Each step is
 * idempotent (a second run finds nothing left to do), and the job records
 * each one finished: a worker that dies mid-erasure is followed by one that
 * runs the steps not yet recorded. The kept figures come after the records
 * they count; the jobs last, since the steps before may be what a job waits on.
 */
const STEPS = {
  enquiries: ({ key, contactChanges }: ErasureContext) => eraseEnquiriesOf(key, contactChanges),
  subscription: ({ key }: ErasureContext) => eraseSubscriberOf(key),
  'list-memberships': ({ key }: ErasureContext) => eraseListMembershipsOf(key),
  'mail-events': ({ key }: ErasureContext) => eraseMailEventsOf(key),
  suppression: ({ key }: ErasureContext) => eraseSuppressionOf(key),
  // Recomputed from the records above, all gone now: the person is removed from the view.
  // (and the address is no longer left marked for a refresh, in Redis).
  people: async ({ key, redis }: ErasureContext) => {
    await createStalePeople(redis.connection, redis.prefix).unmark(key);
    return refreshPeople([key]);
  },
  'sent-mail': ({ key, token, redis }: ErasureContext) => pseudonymiseLedgerOf(key, token, redis),
  'tracking-events': ({ key }: ErasureContext) => eraseCampaignActivityOf(key),
  'import-reports': ({ key, token }: ErasureContext) => scrubImportReportsOf(key, token),
  'import-previews': ({ key, token }: ErasureContext) => scrubImportPreviewsOf(key, token),
  'test-recipients': ({ key }: ErasureContext) => dropTestRecipient(key),
  'kept-figures': ({ key, redis }: ErasureContext) =>
    forgetAddressInKeptCounts(redis.connection, redis.prefix, key),
  'queued-jobs': ({ key, redis }: ErasureContext) =>
    eraseQueuedJobsOf(redis, addressInTextPattern(key), QUEUE_NAMES.personErasure),
} satisfies Record<string, (context: ErasureContext) => Promise<unknown>>;

export type ErasureStep = keyof typeof STEPS;
export const ERASURE_STEPS = Object.keys(STEPS) as ErasureStep[];

export function runErasureStep(step: ErasureStep, context: ErasureContext): Promise<unknown> {
  return STEPS[step](context);
}
