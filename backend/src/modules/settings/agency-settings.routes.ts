import Router from '@koa/router';
import {
  API_ROUTES,
  LOCALES,
  agencySettingsSchema,
  type AgencySettingsDto,
  type AgencySettingsInput,
} from '@agency/contracts';
import {
  readAgencySettings,
  readRetentionReport,
  saveAgencySettings,
  type AgencySettings,
} from '@agency/platform';
import { fieldChanges } from '../../activity-changes';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { validateBody } from '../../middleware/validate';

export function toAgencySettingsDto(
  settings: AgencySettings,
  retentionReport: AgencySettingsDto['retentionReport'] = null,
): AgencySettingsDto {
  return {
    languages: settings.languages,
    senders: settings.senders,
    defaultFrom: settings.defaultFrom,
    replyTo: settings.replyTo,
    postalAddress: settings.postalAddress,
    timeZone: settings.timeZone,
    defaultLocale: settings.defaultLocale,
    tracking: settings.tracking,
    retention: settings.retention,
    retentionReport,
    updatedAt: settings.updatedAt ? settings.updatedAt.toISOString() : null,
    updatedBy: settings.updatedBy,
  };
}

/** The settings as the activity log lists them: one readable field per text, senders as `Name <address>`. */
function loggedFields(settings: AgencySettings): Record<string, unknown> {
  const texts = Object.fromEntries(
    LOCALES.flatMap((locale) =>
      (['agencyName', 'header', 'footer'] as const).map((field) => [
        `${field}.${locale}`,
        settings.languages[locale][field],
      ]),
    ),
  );
  return {
    ...texts,
    senders: settings.senders.map(({ name, address }) => `${name} <${address}>`),
    defaultFrom: settings.defaultFrom,
    replyTo: settings.replyTo,
    postalAddress: settings.postalAddress,
    timeZone: settings.timeZone,
    defaultLocale: settings.defaultLocale,
    'retention.enquiryMonths': settings.retention.enquiryMonths,
    'retention.activityMonths': settings.retention.activityMonths,
  };
}

/**
 * The agency's settings. Every signed-in staff member reads them (every
 * screen shows times on the agency's clock); only who holds
 * `settings:manage` changes them, since they decide whom the agency's mail
 * claims to come from. Each save is in the activity log, field by field.
 */
export interface AgencySettingsRoutesOptions {
  /**
   * Asks the worker to recount the dashboard's days now: they are kept per
   * zone, and a new zone's days would otherwise read 0 until the next pass.
   */
  recountDays?: () => Promise<unknown>;
}

export function agencySettingsRoutes({ recountDays }: AgencySettingsRoutesOptions = {}): Router {
  const router = new Router();

  // The admin area already requires a session: any role may read.
  router.get(API_ROUTES.agencySettings, async (ctx) => {
    const [settings, report] = await Promise.all([readAgencySettings(), readRetentionReport()]);
    ctx.body = toAgencySettingsDto(settings, report);
  });

  router.put(API_ROUTES.agencySettings, authorize('settings:manage'), async (ctx) => {
    const input = (await validateBody(ctx, agencySettingsSchema)) as AgencySettingsInput;
    const before = await readAgencySettings();
    const saved = await saveAgencySettings(input, sessionUser(ctx.state).username);
    if (saved.timeZone !== before.timeZone && recountDays) {
      // Saved either way: the periodic pass recounts if this request does not reach Redis.
      await recountDays().catch((error: unknown) =>
        ctx.state.log.warn(
          { err: error },
          'the recount of the days in the new zone was not queued',
        ),
      );
    }
    audit(
      ctx,
      'settings.agency',
      { type: 'settings', label: 'agency' },
      fieldChanges(loggedFields(before), loggedFields(saved)),
    );
    ctx.body = toAgencySettingsDto(saved, await readRetentionReport());
  });

  return router;
}
