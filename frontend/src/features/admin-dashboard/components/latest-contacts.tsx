import InboxIcon from '@mui/icons-material/Inbox';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { ContactStatusChip } from '../../../components/admin/contact-status-chip';
import { EmptyState } from '../../../components/admin/empty-state';
import { LoadError } from '../../../components/admin/load-error';
import { useIsMobile } from '../../../components/admin/use-is-mobile';
import { ADMIN_PATHS, adminContactPath } from '../../../lib/admin-paths';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useLatestContactsQuery } from '../api/dashboard-api';
import { DASHBOARD_NAMESPACE } from '../dashboard-namespace';

/** The spec's overview list: 5 latest contacts (3 on a phone), with their status. */
export const LATEST_CONTACTS = { desktop: 5, mobile: 3 } as const;

export function LatestContacts() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  const mobile = useIsMobile();
  const count = mobile ? LATEST_CONTACTS.mobile : LATEST_CONTACTS.desktop;
  const { data, isLoading, isError, refetch } = useLatestContactsQuery(count);

  let body;
  if (isError && !data) {
    body = <LoadError title={t('recent.error')} onRetry={() => void refetch()} />;
  } else if (isLoading || !data) {
    body = (
      <Stack spacing={1} aria-busy>
        {Array.from({ length: count }, (_, index) => (
          <Skeleton key={index} variant="rounded" height={56} />
        ))}
      </Stack>
    );
  } else if (data.items.length === 0) {
    body = (
      <EmptyState
        icon={<InboxIcon />}
        title={t('recent.empty')}
        description={t('recent.emptyHint')}
      />
    );
  } else {
    body = (
      <List disablePadding aria-label={t('recent.title')}>
        {data.items.slice(0, count).map((contact) => (
          // A list holds only list items; the link is inside its item.
          <ListItem key={contact.id} disablePadding divider>
            <ListItemButton
              component={RouterLink}
              to={adminContactPath(contact.id)}
              sx={{ gap: 2, px: 1 }}
            >
              <ListItemText
                primary={`${contact.firstName} ${contact.lastName}`}
                secondary={`${tShell(`serviceNames.${contact.service}`)} · ${format.dateTime(contact.createdAt)}`}
                slotProps={{ primary: { sx: { fontWeight: 600 } } }}
              />
              <ContactStatusChip status={contact.status} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    );
  }

  return (
    <Paper variant="outlined" sx={{ p: 2.5, height: '100%' }}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1.5 }}
      >
        <Typography variant="h6" component="h2">
          {t('recent.title')}
        </Typography>
        <Button component={RouterLink} to={ADMIN_PATHS.contacts} size="small">
          {t('recent.viewAll')}
        </Button>
      </Stack>
      {body}
    </Paper>
  );
}
