import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import Stack from '@mui/material/Stack';
import Skeleton from '@mui/material/Skeleton';
import { LoadError } from '../../../components/admin/load-error';
import { useAppDispatch } from '../../../lib/hooks';
import { audienceApi, useImportDetailQuery } from '../api/audience-api';
import { ImportMapping } from './import-mapping';
import { ImportProgress } from './import-progress';
import { ImportUpload } from './import-upload';
import { RecentImports } from './recent-imports';

/** How often a running import's progress is asked for. */
export const IMPORT_POLL_MS = 1000;

/**
 * The CSV import, in three steps kept in the address (`?import=<id>`), so a
 * reload or a later visit shows the same import: upload a file, map its
 * columns into a list, then watch it run and download its error report.
 */
export function ImportPanel() {
  const [params, setParams] = useSearchParams();
  const importId = params.get('import');
  const listId = params.get('list') ?? undefined;
  const open = (id: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set('import', id);
      else next.delete('import');
      return next;
    });

  return (
    <Stack spacing={4}>
      {importId ? (
        <ImportDetail id={importId} listId={listId} onClose={() => open(null)} />
      ) : (
        <ImportUpload onUploaded={(id) => open(id)} />
      )}
      <RecentImports onOpen={(id) => open(id)} />
    </Stack>
  );
}

function ImportDetail({
  id,
  listId,
  onClose,
}: {
  id: string;
  listId: string | undefined;
  onClose: () => void;
}) {
  const query = useImportDetailQuery(id);
  const running = query.data?.status === 'queued' || query.data?.status === 'running';
  // Polled while it runs: a second query of the same import, only for as long as it runs.
  useImportDetailQuery(id, { pollingInterval: IMPORT_POLL_MS, skip: !running });
  // The recent imports show its new state (started, ended) as well.
  const dispatch = useAppDispatch();
  const status = query.data?.status;
  useEffect(() => {
    if (!status) return;
    dispatch(audienceApi.util.invalidateTags([{ type: 'Imports', id: 'LIST' }]));
    // A finished import changed its list's member count.
    if (status === 'done') dispatch(audienceApi.util.invalidateTags(['Lists']));
  }, [dispatch, status]);
  if (query.isError && !query.data) return <LoadError onRetry={() => void query.refetch()} />;
  if (!query.data) return <Skeleton variant="rounded" height={240} />;
  return query.data.status === 'uploaded' ? (
    <ImportMapping file={query.data} listId={listId} onDiscarded={onClose} />
  ) : (
    <ImportProgress progress={query.data} onAnother={onClose} />
  );
}
