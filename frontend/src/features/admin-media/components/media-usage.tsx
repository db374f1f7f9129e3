import type { MediaUseDto } from '@agency/contracts';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { MEDIA_NAMESPACE } from '../../../components/admin/media/media-namespace';
import { ADMIN_PATHS } from '../../../lib/admin-paths';
import { useNamespace } from '../../../lib/translations';

/** Where a use is edited: the campaigns list, or its templates view. */
function editPathOf(use: MediaUseDto): string {
  return use.kind === 'template'
    ? `${ADMIN_PATHS.campaigns}?view=templates`
    : ADMIN_PATHS.campaigns;
}

/** "campaign Spring sale", "template Brand", each a link to where it is edited. */
export function MediaUseLinks({ uses }: { uses: readonly MediaUseDto[] }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  return uses.map((use, index) => (
    <Fragment key={`${use.kind}-${use.id}`}>
      {index > 0 ? t('listSeparator') : null}
      <Link component={RouterLink} to={editPathOf(use)}>
        {t(`use.${use.kind}`, { name: use.name })}
      </Link>
    </Fragment>
  ));
}

/** "Used in: …" or "Not used", under an image of the grid. */
export function MediaUsage({ uses }: { uses: readonly MediaUseDto[] }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  if (uses.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('notUsed')}
      </Typography>
    );
  }
  return (
    <Typography variant="body2">
      {t('usedIn')} <MediaUseLinks uses={uses} />
    </Typography>
  );
}
