import type { MediaDto } from '@agency/contracts';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { EmptyState } from '../../components/admin/empty-state';
import { LoadError } from '../../components/admin/load-error';
import { MediaPager } from '../../components/admin/media/media-pager';
import { MEDIA_NAMESPACE } from '../../components/admin/media/media-namespace';
import { UploadDropZone } from '../../components/admin/media/upload-drop-zone';
import { UploadProgressList } from '../../components/admin/media/upload-progress-list';
import {
  MEDIA_LIST_OPTIONS,
  useMediaBrowser,
} from '../../components/admin/media/use-media-browser';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { SearchField } from '../../components/admin/search-field';
import { useAdminCan } from '../../lib/admin-session';
import { useMediaUploads } from '../../lib/media-upload';
import { useListParams } from '../../lib/use-list-params';
import { useNamespace } from '../../lib/translations';
import { MediaCard } from './components/media-card';
import { MediaDeleteDialog } from './components/media-delete-dialog';
import { MediaRenameDialog } from './components/media-rename-dialog';

/** The grid of images, or why there is none. */
function MediaGrid({
  browser,
  onRename,
  onDelete,
  onUpload,
}: {
  browser: ReturnType<typeof useMediaBrowser>;
  onRename?: (item: MediaDto) => void;
  onDelete?: (item: MediaDto) => void;
  onUpload?: () => void;
}) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  if (browser.failed) return <LoadError onRetry={browser.retry} />;
  if (browser.loading) return <Typography role="status">{t('loading')}</Typography>;
  if (browser.items.length === 0) {
    return browser.search ? (
      <EmptyState icon={<PhotoLibraryIcon />} title={t('empty.noResults')} />
    ) : (
      <EmptyState
        icon={<PhotoLibraryIcon />}
        title={t('empty.title')}
        description={t('empty.description')}
        action={
          onUpload ? (
            <Button variant="contained" startIcon={<CloudUploadOutlinedIcon />} onClick={onUpload}>
              {t('upload.button')}
            </Button>
          ) : undefined
        }
      />
    );
  }
  return (
    <Box
      component="ul"
      aria-label={t('gridLabel')}
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
      }}
    >
      {browser.items.map((item) => (
        <li key={item.id}>
          <MediaCard item={item} onRename={onRename} onDelete={onDelete} />
        </li>
      ))}
    </Box>
  );
}

/** /admin/media: the images staff uploaded, searched, renamed, copied into mails and deleted. */
export function AdminMediaPage() {
  return (
    <RequirePermission permission="campaigns:read">
      <MediaLibrary />
    </RequirePermission>
  );
}

function MediaLibrary() {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const canWrite = useAdminCan('campaigns:write');
  const browser = useMediaBrowser(useListParams(MEDIA_LIST_OPTIONS));
  const { entries, upload } = useMediaUploads();
  const [renaming, setRenaming] = useState<MediaDto | null>(null);
  const [deleting, setDeleting] = useState<MediaDto | null>(null);
  const zone = useRef<{ open: () => void }>(null);
  const openChooser = () => zone.current?.open();

  return (
    <>
      <PageHeading
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          canWrite ? (
            <Button
              variant="contained"
              startIcon={<CloudUploadOutlinedIcon />}
              onClick={openChooser}
            >
              {t('upload.button')}
            </Button>
          ) : undefined
        }
      />
      <Stack spacing={2}>
        {canWrite ? (
          <>
            <UploadDropZone openRef={zone} onFiles={(files) => void upload(files)} />
            <UploadProgressList entries={entries} />
          </>
        ) : null}
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' } }}
        >
          <SearchField
            value={browser.search}
            onSearch={browser.onSearch}
            label={t('searchLabel')}
          />
          {browser.total !== undefined ? (
            <Typography sx={{ color: 'text.secondary' }}>
              {t('total', { count: browser.total })}
            </Typography>
          ) : null}
        </Stack>
        <MediaGrid
          browser={browser}
          onRename={canWrite ? setRenaming : undefined}
          onDelete={canWrite ? setDeleting : undefined}
          onUpload={canWrite ? openChooser : undefined}
        />
        <MediaPager browser={browser} />
      </Stack>
      {renaming ? <MediaRenameDialog item={renaming} onClose={() => setRenaming(null)} /> : null}
      {deleting ? <MediaDeleteDialog item={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
