import type { PersonConsentState, PersonDto } from '@agency/contracts';
import Stack from '@mui/material/Stack';
import { StatusChip } from '../../../components/admin/status-chip';
import { useNamespace } from '../../../lib/translations';
import { PEOPLE_NAMESPACE } from '../people-namespace';

const CONSENT_COLORS = { given: 'success', withdrawn: 'warning', none: 'default' } as const;

/** Whether the person agreed to news, as a badge. */
export function ConsentChip({ consent }: { consent: PersonConsentState }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return <StatusChip label={t(`consent.${consent}`)} color={CONSENT_COLORS[consent]} />;
}

/** Whether the person is on the suppression list: only "yes" stands out. */
export function SuppressedChip({ suppressed }: { suppressed: boolean }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return (
    <StatusChip
      label={suppressed ? t('filters.yes') : t('filters.no')}
      color={suppressed ? 'error' : 'default'}
      highlighted={suppressed}
    />
  );
}

/** The records that hold the address (enquiry, newsletter, list), one chip each. */
export function SourceChips({ sources }: { sources: PersonDto['sources'] }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {sources.map((source) => (
        <StatusChip key={source} label={t(`sources.${source}`)} />
      ))}
    </Stack>
  );
}
