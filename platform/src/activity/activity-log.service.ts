import { trusted } from 'mongoose';
import type {
  ActivityAction,
  ActivityLogDto,
  ActivityValue,
  ActivityLogListQuery,
  FieldChange,
  KeysetPage,
} from '@agency/contracts';
import { countUpTo, findKeysetPage, keysetPageOf, type SortField } from '../list-pages';
import { ActivityLogModel, type ActivityLog } from './activity-log.model';

const LABEL_MAX = 200;

/** One entry of the log: who did what to which record, from where, and what changed. */
export interface ActivityEntry {
  actor: { id: string; username?: string } | null;
  action: ActivityAction;
  target: { type: string; id?: string; label?: string } | null;
  ip: string;
  /** What the call changed, field by field; never a secret's value. */
  changes?: FieldChange[];
}

export async function recordActivity(entry: ActivityEntry): Promise<void> {
  await ActivityLogModel.create({
    actor: entry.actor,
    action: entry.action,
    target: entry.target && {
      ...entry.target,
      ...(entry.target.label !== undefined && { label: entry.target.label.slice(0, LABEL_MAX) }),
    },
    ip: entry.ip,
    ...(entry.changes && entry.changes.length > 0 ? { changes: entry.changes } : {}),
  });
}

function toActivityLogDto(entry: ActivityLog & { _id: unknown }): ActivityLogDto {
  return {
    id: String(entry._id),
    actor: entry.actor ? { id: entry.actor.id, username: entry.actor.username ?? '' } : null,
    action: entry.action as ActivityAction,
    target: entry.target
      ? {
          type: entry.target.type ?? '',
          ...(entry.target.id ? { id: entry.target.id } : {}),
          ...(entry.target.label ? { label: entry.target.label } : {}),
        }
      : null,
    time: entry.time.toISOString(),
    ip: entry.ip,
    ...(entry.changes && entry.changes.length > 0
      ? {
          changes: entry.changes.map((change) => ({
            field: change.field,
            ...(change.redacted
              ? { redacted: true as const }
              : {
                  ...(change.before !== undefined
                    ? { before: change.before as ActivityValue }
                    : {}),
                  ...(change.after !== undefined ? { after: change.after as ActivityValue } : {}),
                }),
          })),
        }
      : {}),
  };
}

const ACTIVITY_SORTS: Readonly<Record<string, SortField>> = {
  time: { field: 'time', kind: 'date' },
};

/** Past this many matching entries the total reads "10,000+": counting further reads them all. */
export const ACTIVITY_COUNT_CAP = 10_000;

/**
 * The store filter of a validated query. Every value has been checked for
 * its shape (an id, a known action, an instant); the range operators are
 * ours, so they are marked trusted for sanitizeFilter.
 */
function activityFilter(query: ActivityLogListQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (query.actor) filter['actor.id'] = query.actor;
  if (query.action) filter.action = query.action;
  if (query.from || query.to) {
    filter.time = trusted({
      ...(query.from ? { $gte: new Date(query.from) } : {}),
      ...(query.to ? { $lt: new Date(query.to) } : {}),
    });
  }
  if (query.search) {
    // Exact words only: actions and usernames are short identifiers.
    const word = query.search.toLowerCase();
    filter.$or = [{ action: word }, { 'actor.username': word }, { 'target.label': query.search }];
  }
  return filter;
}

/**
 * Newest first by default, one keyset page at a time: a page deep in a
 * long log costs what the first one does.
 */
export async function listActivity(
  query: ActivityLogListQuery,
): Promise<KeysetPage<ActivityLogDto>> {
  const filter = activityFilter(query);
  const [window, total] = await Promise.all([
    findKeysetPage(ActivityLogModel, filter, query, ACTIVITY_SORTS),
    countUpTo(ActivityLogModel, filter, ACTIVITY_COUNT_CAP),
  ]);
  return keysetPageOf(window.rows.map(toActivityLogDto), window, total, query.pageSize);
}
