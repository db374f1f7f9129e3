import type { Context, Middleware } from 'koa';
import type { ActivityAction, FieldChange } from '@agency/contracts';
import type { SessionUser } from './authenticate';

export interface AuditTarget {
  type: string;
  id?: string;
  label?: string;
}

export interface AuditEntry {
  actor: Pick<SessionUser, 'id' | 'username'> | null;
  action: ActivityAction;
  target: AuditTarget | null;
  ip: string;
  /** What the call changed, field by field; never a secret's value. */
  changes?: FieldChange[];
}

export type AuditRecorder = (entry: AuditEntry) => Promise<void>;

declare module 'koa' {
  interface DefaultState {
    /** What a state-changing admin call did, written to the activity log once it succeeds. */
    audit?: { action: ActivityAction; target: AuditTarget | null; changes?: FieldChange[] };
    /** Set by a route whose change is not worth an entry of its own (see unaudited()). */
    unaudited?: boolean;
    /** Set by a route that takes a POST body but changes nothing (see changesNothing). */
    changesNothing?: boolean;
  }
}

/** Called by a route once its change is made; auditTrail() writes it. */
export function audit(
  ctx: Context,
  action: ActivityAction,
  target: AuditTarget | null,
  changes?: FieldChange[],
): void {
  ctx.state.audit = { action, target, ...(changes && changes.length > 0 ? { changes } : {}) };
}

/**
 * Called by a state-changing route whose change the log need not show on
 * its own: a second-factor set-up begun, whose confirmation is logged.
 */
export function unaudited(ctx: Context): void {
  ctx.state.unaudited = true;
}

/**
 * Put before a POST route that only reads: a preview whose draft is too long
 * for a query string. The trail judges a call by its method, so without this
 * such a route looks like a change that forgot its entry.
 */
export const changesNothing: Middleware = async (ctx, next) => {
  ctx.state.changesNothing = true;
  await next();
};

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a call claims to change something: its method, unless its route says it only reads. */
function changesState(ctx: Context): boolean {
  return STATE_CHANGING.has(ctx.method) && !ctx.state.changesNothing;
}

/**
 * Writes one activity-log entry for every admin call that changed something
 * and succeeded. A state-changing route that forgets to say what it did is a
 * bug: it is logged loudly rather than left out silently.
 */
export function auditTrail(record: AuditRecorder): Middleware {
  return async (ctx, next) => {
    await next();
    const entry = ctx.state.audit;
    if (!entry) {
      if (ctx.state.unaudited) return;
      if (changesState(ctx) && ctx.status < 300 && ctx.state.user) {
        ctx.state.log.error({ path: ctx.path }, 'state-changing admin call left no audit entry');
      }
      return;
    }
    const user = ctx.state.user;
    try {
      await record({
        ...entry,
        actor: user ? { id: user.id, username: user.username } : null,
        ip: ctx.ip,
      });
    } catch (error: unknown) {
      // The change is made; failing the answer now would invite a repeat.
      ctx.state.log.error({ err: error, audit: entry }, 'activity log entry could not be written');
    }
  };
}
