import { PEOPLE_PERMISSION, type PersonDetailDto } from '@agency/contracts';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { EmptyState } from '../../components/admin/empty-state';
import { LoadError } from '../../components/admin/load-error';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { ADMIN_PATHS } from '../../lib/admin-paths';
import { useAdminCan } from '../../lib/admin-session';
import { errorStatusOf } from '../../lib/api-errors';
import { useFormatters } from '../../lib/use-formatters';
import { useNamespace } from '../../lib/translations';
import { usePersonDetailQuery } from './api/people-api';
import { fullName } from './components/person-columns';
import { ConsentChip, SuppressedChip } from './components/person-chips';
import { PersonPrivacyActions } from './components/person-privacy-actions';
import {
  ConsentEventsSection,
  EnquiriesSection,
  EventsSection,
  MailsSection,
  MembershipsSection,
  SubscriptionSection,
  SuppressionSection,
} from './components/person-records';
import { Details, PersonSection } from './components/person-section';
import { PEOPLE_NAMESPACE } from './people-namespace';

function BackToPeople() {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return (
    <Button component={RouterLink} to={ADMIN_PATHS.people} startIcon={<ArrowBackIcon />}>
      {t('person.back')}
    </Button>
  );
}

/** The person's language, consent, suppression and dates, under the address. */
function PersonSummary({ person }: { person: PersonDetailDto['person'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  return (
    <PersonSection title={t('person.summary')} empty="" isEmpty={false}>
      <Details
        items={[
          { label: t('person.language'), value: t(`languages.${person.locale}`) },
          { label: t('person.consent'), value: <ConsentChip consent={person.consent} /> },
          {
            label: t('person.suppressed'),
            value: <SuppressedChip suppressed={person.suppressed} />,
          },
          { label: t('person.firstSeen'), value: format.dateTime(person.firstSeenAt) },
          { label: t('person.lastSeen'), value: format.dateTime(person.lastSeenAt) },
        ]}
      />
    </PersonSection>
  );
}

/** Every record that holds the address, one section each. */
function PersonRecords({ detail }: { detail: PersonDetailDto }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const name = fullName(detail.person);
  // Downloading everything held and erasing it are an admin's: other roles do not see them.
  const canAnswerRequests = useAdminCan('people:privacy');
  return (
    <>
      {/* The address is the page's title: a name is not always known, the address always is. */}
      <PageHeading
        title={detail.person.email}
        subtitle={name || t('noName')}
        actions={<BackToPeople />}
      />
      <Stack spacing={2}>
        <PersonSummary person={detail.person} />
        <EnquiriesSection enquiries={detail.enquiries} />
        <SubscriptionSection subscription={detail.subscription} />
        <MembershipsSection memberships={detail.memberships} />
        <SuppressionSection suppression={detail.suppression} />
        <ConsentEventsSection events={detail.consentEvents} />
        <MailsSection mails={detail.mails} />
        <EventsSection events={detail.events} />
        {canAnswerRequests && <PersonPrivacyActions email={detail.person.key} />}
      </Stack>
    </>
  );
}

/** The page while it loads, when nobody holds the address, or when it could not be read. */
function PersonState({ query }: { query: ReturnType<typeof usePersonDetailQuery> }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const { email = '' } = useParams();
  if (query.isError && errorStatusOf(query.error) === 404) {
    return (
      <EmptyState
        titleComponent="h1"
        icon={<PersonOffIcon />}
        title={t('person.notFound')}
        description={t('person.notFoundHint')}
        action={<BackToPeople />}
      />
    );
  }
  return (
    <>
      <PageHeading title={email} actions={<BackToPeople />} />
      {query.isError ? (
        <LoadError title={t('person.loadError')} onRetry={() => void query.refetch()} />
      ) : (
        <Stack spacing={2} aria-busy>
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} variant="rounded" height={96} />
          ))}
        </Stack>
      )}
    </>
  );
}

/** /admin/people/:email: one person, every record that holds their address. */
export function PersonPage() {
  const { email = '' } = useParams();
  const query = usePersonDetailQuery(email);
  return (
    <RequirePermission permission={PEOPLE_PERMISSION}>
      {query.currentData && !query.isError ? (
        <PersonRecords detail={query.currentData} />
      ) : (
        <PersonState query={query} />
      )}
    </RequirePermission>
  );
}
