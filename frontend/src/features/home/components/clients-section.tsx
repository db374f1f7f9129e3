import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { PageSection } from '../../../components/page-section';
import { useNamespace } from '../../../lib/translations';
import { CLIENT_SECTORS } from '../home-content';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';

/** Spec 9: the clients section claims over 50 successful companies. */
export function ClientsSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  return (
    <PageSection
      headingId="clients-heading"
      title={t('clients.title')}
      subtitle={t('clients.subtitle')}
      sx={{ py: { xs: 6, md: 8 }, bgcolor: 'action.hover' }}
    >
      <Stack
        component="ul"
        direction="row"
        aria-label={t('clients.sectorsLabel')}
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          gap: 1.5,
          flexWrap: 'wrap',
          justifyContent: 'center',
        }}
      >
        {CLIENT_SECTORS.map((sector) => (
          <li key={sector}>
            <Chip
              label={t(`clients.sectors.${sector}`)}
              variant="outlined"
              sx={{ fontSize: '1rem', py: 2.5, px: 1, bgcolor: 'background.paper' }}
            />
          </li>
        ))}
      </Stack>
    </PageSection>
  );
}
