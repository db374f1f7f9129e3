import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoadError } from '../../../components/admin/load-error';
import { StatusChip } from '../../../components/admin/status-chip';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useImportsQuery } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { IMPORT_STATUS_COLORS } from './import-progress';

const RECENT = { page: 1, pageSize: 10 } as const;

/** The latest imports, newest first: each opens again (its progress or its report). */
export function RecentImports({ onOpen }: { onOpen: (id: string) => void }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const query = useImportsQuery(RECENT);
  const items = query.data?.items ?? [];

  return (
    <section aria-labelledby="recent-imports">
      <Typography id="recent-imports" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('import.recent')}
      </Typography>
      {query.isError && !query.data ? <LoadError onRetry={() => void query.refetch()} /> : null}
      {query.data && items.length === 0 ? (
        <Typography sx={{ color: 'text.secondary' }}>{t('import.noImports')}</Typography>
      ) : null}
      {items.length > 0 ? (
        <Paper variant="outlined">
          <List aria-label={t('import.recentLabel')} disablePadding>
            {items.map((item) => (
              <ListItem key={item.id} divider disablePadding>
                <ListItemButton
                  onClick={() => onOpen(item.id)}
                  aria-label={t('import.open', { file: item.fileName })}
                >
                  <ListItemText
                    primary={
                      <Stack
                        direction="row"
                        spacing={1}
                        sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
                      >
                        <span style={{ wordBreak: 'break-all' }}>{item.fileName}</span>
                        <StatusChip
                          label={t(`import.status.${item.status}`)}
                          color={IMPORT_STATUS_COLORS[item.status]}
                        />
                      </Stack>
                    }
                    secondary={[
                      item.list?.name,
                      format.date(item.createdAt),
                      `${t('import.counts.created')}: ${format.number(item.counts.created)}`,
                      `${t('import.counts.skipped')}: ${format.number(item.counts.skipped)}`,
                      `${t('import.counts.invalid')}: ${format.number(item.counts.invalid)}`,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
      ) : null}
    </section>
  );
}
