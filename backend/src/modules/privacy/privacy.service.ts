import { Queue } from 'bullmq';
import {
  QUEUE_NAMES,
  personErasureJobId,
  type ErasureDto,
  type PersonDataExportDto,
  type PersonErasureJob,
} from '@agency/contracts';
import {
  erasedAddressToken,
  erasureKeyOf,
  erasedAddressDigest,
  findErasure,
  gatherPersonData,
  markErasureEnded,
  normalizeEmail,
  requestPersonErasure,
  withTimeout,
  type ErasureKey,
  type Redis,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { redactAddressInActivity } from '../activity-log';

/**
 * The job carries the address: it is removed as soon as it ends, done or
 * failed, so the address does not stay in Redis. Its 10 attempts spread
 * over about 85 minutes: a campaign batch holding the address may have to
 * be sent first.
 */
const ERASURE_JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;

const ENQUEUE_TIMEOUT_MS = 2000;

export interface PrivacyService {
  /** The address's keyed digest: what the activity log names the person by. */
  digestOf(address: string): string;
  exportPersonData(address: string): Promise<PersonDataExportDto>;
  requestErasure(address: string): Promise<ErasureDto>;
  erasure(id: string): Promise<ErasureDto>;
}

export function createPrivacyService({
  redis,
  queuePrefix,
  mailLinkSecret,
}: {
  redis: Redis;
  queuePrefix: string;
  mailLinkSecret: string;
}): PrivacyService {
  const erasureKey: ErasureKey = erasureKeyOf(mailLinkSecret);
  const queue = new Queue<PersonErasureJob>(QUEUE_NAMES.personErasure, {
    connection: redis,
    prefix: queuePrefix,
  });
  queue.on('error', () => undefined);
  const digestOf = (address: string) => erasedAddressDigest(erasureKey, address);

  return {
    digestOf,
    exportPersonData: (address) => gatherPersonData(address),
    /**
     * Records the request, then queues the job under the digest (asking again
     * while it waits or runs adds nothing). The activity log is the API's to
     * write, so its entries that name the address are redacted here, first.
     */
    async requestErasure(address) {
      const email = normalizeEmail(address);
      await redactAddressInActivity(email, erasedAddressToken(digestOf(email)));
      const stored = await requestPersonErasure(erasureKey, email);
      try {
        await withTimeout(
          queue.add(
            QUEUE_NAMES.personErasure,
            { erasureId: stored._id, email },
            { jobId: personErasureJobId(stored._id), ...ERASURE_JOB_OPTIONS },
          ),
          ENQUEUE_TIMEOUT_MS,
        );
      } catch {
        // Nothing would run it: the dashboard shows it failed, and asking again queues it.
        await markErasureEnded(stored._id, 'failed');
        throw new HttpError('UNAVAILABLE', 'The erasure could not be queued; try again shortly');
      }
      return (await findErasure(stored._id)) as ErasureDto;
    },
    async erasure(id) {
      const found = await findErasure(id);
      if (!found) throw new HttpError('NOT_FOUND', 'No erasure with this id');
      return found;
    },
  };
}
