import type { ImportCounts, ImportDto } from '@agency/contracts';
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
import { audienceApi, useImportsQuery } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { IMPORT_STATUS_COLORS } from './import-progress';

const RECENT = { page: 1, pageSize: 10 } as const;

/** What a row says after the file and the date: rows read, then each outcome that happened. */
const OUTCOMES: readonly (keyof ImportCounts)[] = [
  'created',
  'updated',
  'unchanged',
  'skipped',
  'invalid',
];

/**
 * One import of the list. The import open above is polled while it runs:
 * its row shows the polled state, not the list's older copy, so the two
 * never disagree. Counts of 0 are left out, so a re-run that changed
 * nothing reads "Unchanged: 30,000" rather than "Created: 0".
 */
function RecentImportRow({ listed, onOpen }: { listed: ImportDto; onOpen: (id: string) => void }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const polled = audienceApi.endpoints.importDetail.useQueryState(listed.id).data;
  // A copy cached from an earlier visit may be older than the list's.
  const item = polled && polled.counts.read >= listed.counts.read ? polled : listed;
  const counted = (name: keyof ImportCounts) =>
    `${t(`import.counts.${name}`)}: ${format.number(item.counts[name])}`;
  return (
    <ListItem divider disablePadding>
      {/* Named by what it shows (file, status, counts): a shorter label would hide
          the counts from a screen reader and break "name what you see" for voice control. */}
      <ListItemButton onClick={() => onOpen(item.id)}>
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
            counted('read'),
            ...OUTCOMES.filter((name) => item.counts[name] > 0).map(counted),
          ]
            .filter(Boolean)
            .join(' · ')}
        />
      </ListItemButton>
    </ListItem>
  );
}

/** The latest imports, newest first: each opens again (its progress or its report). */
export function RecentImports({ onOpen }: { onOpen: (id: string) => void }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
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
              <RecentImportRow key={item.id} listed={item} onOpen={onOpen} />
            ))}
          </List>
        </Paper>
      ) : null}
    </section>
  );
}
