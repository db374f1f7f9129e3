import type { InferType } from 'yup';
import { keysetListQuerySchema } from './list-query';
import { isoInstant } from '../validation/dates';
import { message, oneOfText, recordId } from '../validation/fields';

/** What a staff member did; one entry per state-changing call, sign-ins included. */
export const ACTIVITY_ACTIONS = [
  'auth.login',
  'auth.login-failed',
  'auth.password-change',
  'auth.password-reset',
  'auth.logout',
  'auth.second-factor-failed',
  'auth.reauthentication-failed',
  'auth.recovery-code-used',
  'auth.two-factor-enable',
  'auth.two-factor-disable',
  'auth.recovery-codes-renew',
  'auth.session-end',
  'auth.sessions-end-others',
  'user.create',
  'user.update',
  'user.delete',
  'user.two-factor-reset',
  'user.sessions-end',
  'contact.status',
  'contact.delete',
  'contact.convert',
  'contact.export',
  'client.create',
  'client.update',
  'client.delete',
  'lead.create',
  'lead.update',
  'lead.delete',
  'campaign.create',
  'campaign.update',
  'campaign.delete',
  'campaign.send',
  'campaign.pause',
  'campaign.resume',
  'campaign.cancel',
  'campaign.resend',
  'campaign.test',
  'list.create',
  'list.update',
  'list.delete',
  'list.member-add',
  'list.member-remove',
  'list.import-upload',
  'list.import-start',
  'list.import-cancel',
  'suppression.add',
  'suppression.remove',
  'suppression.export',
  'campaign.schedule',
  'campaign.unschedule',
  'campaign.archive',
  'campaign.duplicate',
  'campaign.results-export',
  'template.create',
  'template.update',
  'template.delete',
  'settings.test-recipients',
  'settings.agency',
  /** A person's data downloaded by staff; the entry names the address by its keyed digest. */
  'person.data-export',
  /** A person's erasure asked by staff; the entry names the address by its keyed digest. */
  'person.erase',
  /** A person's erasure confirmed by the person through a mailed link; named by the keyed digest. */
  'person.erase-self',
  'people.bulk',
  'people.export',
  'segment.create',
  'segment.update',
  'segment.delete',
  'media.upload',
  'media.update',
  'media.delete',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** A value as the activity log keeps it: long texts are cut. */
export type ActivityValue = string | number | boolean | null | string[];

/**
 * One field a change touched, with its value before and after. A secret
 * field (a password) is listed as changed, never with its values.
 */
export interface FieldChange {
  field: string;
  before?: ActivityValue;
  after?: ActivityValue;
  redacted?: true;
}

export interface ActivityLogDto {
  id: string;
  /** Who acted; null for a failed sign-in of an unknown user. */
  actor: { id: string; username: string } | null;
  action: ActivityAction;
  /** What was acted on: a record, or a username tried at sign-in. */
  target: { type: string; id?: string; label?: string } | null;
  time: string;
  ip: string;
  /** What changed: every field on a create or delete, the changed ones on an edit. */
  changes?: FieldChange[];
}

/**
 * The activity log's query: keyset pages, newest first, filtered by who
 * acted, what they did and when (`from` included, `to` excluded, both
 * instants). Every filter is text of a known shape: an operator object or an
 * unknown action is a 400 naming the field, never a query of the store.
 */
export const activityLogListQuerySchema = keysetListQuerySchema({
  sortFields: ['time'] as const,
  defaultSort: '-time',
  filters: {
    actor: recordId().optional(),
    action: oneOfText(ACTIVITY_ACTIONS).optional(),
    from: isoInstant().optional(),
    to: isoInstant()
      .optional()
      .test('after-from', (value, context) => {
        const { from } = context.parent as { from?: unknown };
        if (!value || typeof from !== 'string' || Date.parse(value) > Date.parse(from)) {
          return true;
        }
        return context.createError({ message: message('rangeEndBeforeStart', { start: from }) });
      }),
  },
});
export type ActivityLogListQuery = InferType<typeof activityLogListQuerySchema>;
