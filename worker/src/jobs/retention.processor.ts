import {
  QUEUE_NAMES,
  RETENTION_EVERY_MS,
  RETENTION_SCHEDULER_ID,
  monthsBefore,
} from '@agency/contracts';
import {
  allContactChanges,
  peopleContactChanges,
  PEOPLE_REFRESHED_AT_ONCE,
  anonymiseEnquiriesBefore,
  createContactAddressChanges,
  createContactIndexSets,
  readAgencySettings,
  removeActivityBefore,
  removeUnconfirmedSignups,
  saveRetentionReport,
  type ContactChanges,
  type Logger,
  type Redis,
  type RetentionCounts,
} from '@agency/platform';
import { startScheduledJob, type ScheduledJob, type StartWorker } from '../job-schedulers';

export interface RetentionDeps {
  logger: Logger;
  /** The views kept beside the enquiries (figures, list index, campaign addresses). */
  contactChanges: ContactChanges;
  /** Page size of each rule's reads and deletes (tests make it small). */
  pageSize?: number;
}

/**
 * One pass of the retention rules as the agency's settings say now (an admin
 * may have changed them): unconfirmed sign-ups, enquiries (only when an
 * admin set a limit) and the activity log. Its report is logged and kept for
 * the settings screen.
 */
export async function runRetention(deps: RetentionDeps, now: Date): Promise<RetentionCounts> {
  const { retention } = await readAgencySettings();
  const { pageSize } = deps;
  const unconfirmedSignups = await removeUnconfirmedSignups(now, pageSize);
  const anonymisedEnquiries =
    retention.enquiryMonths === null
      ? 0
      : await anonymiseEnquiriesBefore(
          monthsBefore(now, retention.enquiryMonths),
          now,
          deps.contactChanges,
          pageSize,
        );
  const activityEntries = await removeActivityBefore(
    monthsBefore(now, retention.activityMonths),
    pageSize,
  );
  const counts = { unconfirmedSignups, anonymisedEnquiries, activityEntries };
  await saveRetentionReport(now, counts);
  deps.logger.info({ ...counts, ...retention }, 'retention pass done');
  return counts;
}

/** The enquiries' views as the worker keeps them, for the anonymisation. */
export function retentionContactChanges(options: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  keptContactChanges: ContactChanges;
}): ContactChanges {
  const { connection, queuePrefix: prefix, logger } = options;
  return allContactChanges(
    options.keptContactChanges,
    createContactIndexSets(connection, { prefix, logger }).changes,
    createContactAddressChanges({ logger }),
    // The person of an anonymised enquiry no longer holds it.
    peopleContactChanges(PEOPLE_REFRESHED_AT_ONCE),
  );
}

/** The retention rules' job scheduler: daily, on whichever worker is free. */
export function startRetention({
  connection,
  queuePrefix,
  logger,
  startWorker,
  keptContactChanges,
  everyMs = RETENTION_EVERY_MS,
}: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  startWorker: StartWorker<Record<string, never>>;
  /** The figures' view of the enquiries (the worker's kept counts). */
  keptContactChanges: ContactChanges;
  everyMs?: number;
}): Promise<ScheduledJob> {
  const contactChanges = retentionContactChanges({
    connection,
    queuePrefix,
    logger,
    keptContactChanges,
  });
  return startScheduledJob({
    name: QUEUE_NAMES.retention,
    schedulerId: RETENTION_SCHEDULER_ID,
    everyMs,
    processor: () => runRetention({ logger, contactChanges }, new Date()),
    connection,
    queuePrefix,
    logger,
    startWorker,
  });
}
