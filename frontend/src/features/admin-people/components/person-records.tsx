import type { PersonDetailDto } from '@agency/contracts';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { StatusChip } from '../../../components/admin/status-chip';
import { adminCampaignReportPath, adminContactPath } from '../../../lib/admin-paths';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { PEOPLE_NAMESPACE } from '../people-namespace';
import { Details, PersonSection, RecordTable } from './person-section';

type Detail = PersonDetailDto;

/** The enquiries the address sent, each a link to it on the contacts screen. */
export function EnquiriesSection({ enquiries }: { enquiries: Detail['enquiries'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  return (
    <PersonSection
      title={t('person.enquiries.title')}
      empty={t('person.enquiries.empty')}
      isEmpty={enquiries.length === 0}
    >
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {enquiries.map((enquiry) => (
          <li key={enquiry.id}>
            <Link component={RouterLink} to={adminContactPath(enquiry.id)}>
              {format.dateTime(enquiry.createdAt)}
            </Link>
            {' · '}
            {tShell(`serviceNames.${enquiry.service}`)}
            {' · '}
            {tCommon(`contactStatus.${enquiry.status}`, { defaultValue: enquiry.status })}
          </li>
        ))}
      </Box>
    </PersonSection>
  );
}

/** The newsletter subscription: where it stands and when it moved. */
export function SubscriptionSection({ subscription }: { subscription: Detail['subscription'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  const when = (at: string | null) => (at ? format.dateTime(at) : t('person.none'));
  return (
    <PersonSection
      title={t('person.subscription.title')}
      empty={t('person.subscription.empty')}
      isEmpty={subscription === null}
    >
      {subscription ? (
        <Details
          items={[
            {
              label: t('person.subscription.status'),
              value: t(`person.subscription.statuses.${subscription.status}`),
            },
            {
              label: t('person.subscription.language'),
              value: t(`languages.${subscription.locale}`),
            },
            { label: t('person.subscription.created'), value: when(subscription.createdAt) },
            { label: t('person.subscription.confirmed'), value: when(subscription.confirmedAt) },
            {
              label: t('person.subscription.unsubscribed'),
              value: when(subscription.unsubscribedAt),
            },
          ]}
        />
      ) : null}
    </PersonSection>
  );
}

/** The lists the address is in, with its tags there and why it is there. */
export function MembershipsSection({ memberships }: { memberships: Detail['memberships'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  return (
    <PersonSection
      title={t('person.memberships.title')}
      empty={t('person.memberships.empty')}
      isEmpty={memberships.length === 0}
    >
      <RecordTable
        label={t('person.memberships.tableLabel')}
        headers={[
          t('person.memberships.list'),
          t('person.memberships.tags'),
          t('person.memberships.basis'),
          t('person.memberships.at'),
        ]}
        rows={memberships.map((membership) => ({
          key: membership.list.id,
          cells: [
            membership.list.name,
            membership.tags.length > 0
              ? membership.tags.join(', ')
              : t('person.memberships.noTags'),
            t(`person.memberships.bases.${membership.basis}`),
            format.dateTime(membership.at),
          ],
        }))}
      />
    </PersonSection>
  );
}

/** Whether the address is never mailed, why and since when. */
export function SuppressionSection({ suppression }: { suppression: Detail['suppression'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  return (
    <PersonSection
      title={t('person.suppression.title')}
      empty={t('person.suppression.empty')}
      isEmpty={suppression === null}
    >
      {suppression ? (
        <Details
          items={[
            {
              label: t('person.suppression.reason'),
              value: t(`person.suppression.reasons.${suppression.reason}`),
            },
            { label: t('person.suppression.at'), value: format.dateTime(suppression.at) },
            {
              label: t('person.suppression.detail'),
              value: suppression.detail ?? t('person.none'),
            },
          ]}
        />
      ) : null}
    </PersonSection>
  );
}

/** Every agreement and withdrawal, in the order the API gives them, each dated. */
export function ConsentEventsSection({ events }: { events: Detail['consentEvents'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  return (
    <PersonSection
      title={t('person.consentEvents.title')}
      empty={t('person.consentEvents.empty')}
      isEmpty={events.length === 0}
    >
      <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
        {events.map((event, index) => (
          <Box component="li" key={`${event.kind}-${event.at}-${index}`} sx={{ mb: 0.5 }}>
            <Box component="time" dateTime={event.at} sx={{ color: 'text.secondary' }}>
              {format.dateTime(event.at)}
            </Box>
            {' · '}
            {t(`person.consentEvents.kinds.${event.kind}`)}
            {event.detail ? ` (${event.detail})` : null}
          </Box>
        ))}
      </Box>
    </PersonSection>
  );
}

const LEDGER_COLORS = { pending: 'warning', sent: 'success', failed: 'error' } as const;

/** The campaign mails sent to the address: each campaign a link to its report. */
export function MailsSection({ mails }: { mails: Detail['mails'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  return (
    <PersonSection
      title={t('person.mails.title')}
      empty={t('person.mails.empty')}
      isEmpty={mails.length === 0}
    >
      <RecordTable
        label={t('person.mails.tableLabel')}
        headers={[
          t('person.mails.campaign'),
          t('person.mails.state'),
          t('person.mails.at'),
          t('person.mails.reason'),
        ]}
        rows={mails.map((mail) => ({
          key: `${mail.campaign.id}-${mail.at}`,
          cells: [
            <Link component={RouterLink} to={adminCampaignReportPath(mail.campaign.id)}>
              {mail.campaign.name}
            </Link>,
            <StatusChip
              label={t(`person.mails.states.${mail.state}`)}
              color={LEDGER_COLORS[mail.state]}
            />,
            format.dateTime(mail.at),
            mail.reason ?? '',
          ],
        }))}
      />
    </PersonSection>
  );
}

/** Bounces and complaints of the address, with the campaign each answered when known. */
export function EventsSection({ events }: { events: Detail['events'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  return (
    <PersonSection
      title={t('person.events.title')}
      empty={t('person.events.empty')}
      isEmpty={events.length === 0}
    >
      <RecordTable
        label={t('person.events.tableLabel')}
        headers={[
          t('person.events.kind'),
          t('person.events.at'),
          t('person.events.campaign'),
          t('person.events.detail'),
        ]}
        rows={events.map((event, index) => ({
          key: `${event.kind}-${event.at}-${index}`,
          cells: [
            t(`person.events.kinds.${event.kind}`),
            format.dateTime(event.at),
            event.campaign ? (
              <Link component={RouterLink} to={adminCampaignReportPath(event.campaign.id)}>
                {event.campaign.name ?? event.campaign.id}
              </Link>
            ) : (
              t('person.events.noCampaign')
            ),
            event.detail ?? '',
          ],
        }))}
      />
    </PersonSection>
  );
}
