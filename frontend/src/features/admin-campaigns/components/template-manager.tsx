import type { CampaignTemplateDto } from '@agency/contracts';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { LoadError } from '../../../components/admin/load-error';
import { RowActions } from '../../../components/admin/row-actions';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useAdminCan } from '../../../lib/admin-session';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useDeleteTemplateMutation,
  useDuplicateTemplateMutation,
  useTemplateListQuery,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { TemplateDialog } from './template-dialog';

type Editing = { template?: CampaignTemplateDto } | null;

/** A template's brand, background and text colours, as dots (the card's name says which template). */
function ColourDots({ template }: { template: CampaignTemplateDto }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ mb: 1 }} aria-hidden>
      {[template.brandColor, template.backgroundColor, template.textColor].map((colour, index) => (
        <Box
          key={`${colour}-${index}`}
          sx={{
            width: 20,
            height: 20,
            borderRadius: '50%',
            bgcolor: colour,
            border: 1,
            borderColor: 'divider',
          }}
        />
      ))}
    </Stack>
  );
}

interface TemplateCardProps {
  template: CampaignTemplateDto;
  /** The role may write: the card offers its edit, copy and delete. */
  canWrite: boolean;
  duplicating: boolean;
  onEdit: () => void;
  onCopy: () => void;
  onDelete: () => void;
}

/** One template: its colours, how many campaigns use it, and what the role may do to it. */
function TemplateCard({
  template,
  canWrite,
  duplicating,
  onEdit,
  onCopy,
  onDelete,
}: TemplateCardProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <Card role="listitem" variant="outlined" aria-label={template.name}>
      <Box sx={{ height: 8, bgcolor: template.brandColor }} />
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flex: 1 }}>
            {template.builtIn ? t('templates.defaultName') : template.name}
          </Typography>
          {template.builtIn ? <Chip size="small" label={t('templates.builtIn')} /> : null}
        </Stack>
        <ColourDots template={template} />
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {template.builtIn
            ? t('templates.builtInHint')
            : t('templates.usedBy', { count: template.usedBy })}
        </Typography>
        {canWrite ? (
          <RowActions
            actions={[
              !template.builtIn && {
                label: t('templates.edit', { name: template.name }),
                icon: <EditIcon fontSize="small" />,
                onClick: onEdit,
              },
              {
                label: t('templates.duplicate', { name: template.name }),
                icon: <ContentCopyIcon fontSize="small" />,
                onClick: onCopy,
                disabled: duplicating,
              },
              !template.builtIn && {
                label: t('templates.delete', { name: template.name }),
                icon: <DeleteIcon fontSize="small" />,
                onClick: onDelete,
                disabled: template.usedBy > 0,
                disabledReason: t('templates.inUse', { count: template.usedBy }),
              },
            ]}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Copies a template, saying in a toast how it went. */
function useCopyTemplate() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const [duplicate, { isLoading: duplicating }] = useDuplicateTemplateMutation();
  const copy = async (template: CampaignTemplateDto) => {
    try {
      const created = await duplicate(template.id).unwrap();
      toast({ title: t('templates.duplicated', { name: created.name }), variant: 'success' });
    } catch (error) {
      toast({
        title: t('templates.duplicateFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  return { copy, duplicating };
}

/**
 * The campaign templates: the built-in default and the agency's own, each
 * with its colours and how many campaigns use it; new ones, edits, copies,
 * and deletes (refused by the server while a campaign uses one).
 */
export function TemplateManager() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const canWrite = useAdminCan('campaigns:write');
  const query = useTemplateListQuery(undefined);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CampaignTemplateDto | null>(null);
  const { copy, duplicating } = useCopyTemplate();
  const [deleteTemplate] = useDeleteTemplateMutation();

  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  if (!query.data) return <CircularProgress aria-label={t('templates.loading')} />;

  return (
    <>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
          {t('templates.description')}
        </Typography>
        {canWrite ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({})}>
            {t('templates.add')}
          </Button>
        ) : null}
      </Stack>
      <Box
        role="list"
        aria-label={t('templates.listLabel')}
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            sm: 'repeat(auto-fill, minmax(260px, 1fr))',
          },
        }}
      >
        {query.data.items.map((template) => (
          <TemplateCard
            key={template.id}
            template={template}
            canWrite={canWrite}
            duplicating={duplicating}
            onEdit={() => setEditing({ template })}
            onCopy={() => void copy(template)}
            onDelete={() => setDeleting(template)}
          />
        ))}
      </Box>
      {editing ? (
        <TemplateDialog template={editing.template} onClose={() => setEditing(null)} />
      ) : null}
      <DeleteConfirmDialog
        item={deleting}
        title={(item) => t('templates.confirmDelete', { name: item.name })}
        description={t('templates.confirmDeleteDescription')}
        confirmLabel={t('templates.confirmDeleteButton')}
        remove={deleteTemplate}
        deleted={t('templates.deleted')}
        failed={{ title: t('templates.deleteFailed') }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
