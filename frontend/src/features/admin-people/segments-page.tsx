import { PEOPLE_PERMISSION, type SegmentDto } from '@agency/contracts';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { DeleteConfirmDialog } from '../../components/admin/delete-confirm-dialog';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useNamespace } from '../../lib/translations';
import { useDeleteSegmentMutation, useSegmentListQuery } from './api/segments-api';
import { SegmentBuilder } from './components/segment-builder';
import { PEOPLE_NAMESPACE } from './people-namespace';

/** What the screen shows beside the list: nothing, a new segment, or one being edited. */
type Editing = { segment: SegmentDto | null } | null;

/** The saved segments, each to edit or delete. */
function SegmentList({
  onEdit,
  onDelete,
}: {
  onEdit: (segment: SegmentDto) => void;
  onDelete: (segment: SegmentDto) => void;
}) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const { data } = useSegmentListQuery(undefined);
  const segments = data?.items ?? [];
  if (data && segments.length === 0) return <Typography>{t('segments.none')}</Typography>;
  return (
    <List aria-label={t('segments.listLabel')}>
      {segments.map((segment) => (
        <ListItem key={segment.id} divider sx={{ flexWrap: 'wrap', gap: 1 }} secondaryAction={null}>
          <ListItemText
            primary={segment.name}
            secondary={t('segments.conditions', { count: segment.rule.conditions.length })}
          />
          <Stack direction="row" spacing={1}>
            <Button
              size="small"
              aria-label={t('segments.editNamed', { name: segment.name })}
              onClick={() => onEdit(segment)}
            >
              {t('segments.edit')}
            </Button>
            <Button
              size="small"
              color="error"
              aria-label={t('segments.deleteNamed', { name: segment.name })}
              onClick={() => onDelete(segment)}
            >
              {t('segments.delete')}
            </Button>
          </Stack>
        </ListItem>
      ))}
    </List>
  );
}

/** /admin/people/segments: saved rules over the people, built with their count in view. */
export function SegmentsPage() {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<SegmentDto | null>(null);
  const [remove] = useDeleteSegmentMutation();
  return (
    <RequirePermission permission={PEOPLE_PERMISSION}>
      <PageHeading title={t('segments.title')} subtitle={t('segments.subtitle')} />
      <Stack spacing={3}>
        {editing ? (
          <Paper sx={{ p: { xs: 2, sm: 3 } }}>
            <SegmentBuilder
              key={editing.segment?.id ?? 'new'}
              segment={editing.segment}
              onDone={() => setEditing(null)}
            />
          </Paper>
        ) : (
          <Button
            variant="contained"
            sx={{ alignSelf: 'flex-start' }}
            onClick={() => setEditing({ segment: null })}
          >
            {t('segments.new')}
          </Button>
        )}
        <SegmentList onEdit={(segment) => setEditing({ segment })} onDelete={setDeleting} />
      </Stack>
      <DeleteConfirmDialog
        item={deleting}
        title={(segment) => t('segments.deleteTitle', { name: segment.name })}
        description={t('segments.deleteDescription')}
        confirmLabel={t('segments.delete')}
        remove={remove}
        deleted={t('segments.deleted')}
        failed={{ title: t('segments.deleteFailed') }}
        onClose={() => setDeleting(null)}
      />
    </RequirePermission>
  );
}
