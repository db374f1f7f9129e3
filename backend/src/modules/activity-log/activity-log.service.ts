import type {
  ActivityAction,
  ActivityLogDto,
  ActivityValue,
  ActivityLogListQuery,
  Page,
} from '@agency/contracts';
import { pageOf, findPage } from '../../list-query';
import type { AuditEntry } from '../../middleware/audit';
import { ActivityLogModel, type ActivityLog } from './activity-log.model';

const LABEL_MAX = 200;

export async function recordActivity(entry: AuditEntry): Promise<void> {
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

/** Newest first by default; the search matches the action or the actor's name. */
export async function listActivity(query: ActivityLogListQuery): Promise<Page<ActivityLogDto>> {
  const filter: Record<string, unknown> = {};
  if (query.actor) filter['actor.id'] = query.actor;
  if (query.search) {
    // Exact words only: actions and usernames are short identifiers.
    const word = query.search.toLowerCase();
    filter.$or = [{ action: word }, { 'actor.username': word }, { 'target.label': query.search }];
  }
  const { docs: entries, total } = await findPage(ActivityLogModel, filter, query);
  return pageOf(entries.map(toActivityLogDto), total, query);
}
