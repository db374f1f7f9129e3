import type { MediaDto } from '@agency/contracts';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import DriveFileRenameOutlineIcon from '@mui/icons-material/DriveFileRenameOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { MEDIA_NAMESPACE } from '../../../components/admin/media/media-namespace';
import { useMediaFormat } from '../../../components/admin/media/use-media-format';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { MediaUsage } from './media-usage';

export interface MediaCardProps {
  item: MediaDto;
  /** Absent for a role that may not rename. */
  onRename?: (item: MediaDto) => void;
  /** Absent for a role that may not delete. */
  onDelete?: (item: MediaDto) => void;
}

/** Puts the image's public address on the clipboard, and says whether it worked. */
function useCopyUrl() {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const toast = useToast();
  return async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: t('copied'), description: url, variant: 'success' });
    } catch {
      toast({ title: t('copyFailed'), description: url, variant: 'destructive' });
    }
  };
}

/** One image of the library: its thumbnail, name, size, where it is used, and what can be done with it. */
export function MediaCard({ item, onRename, onDelete }: MediaCardProps) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const format = useMediaFormat();
  const copyUrl = useCopyUrl();
  return (
    <Card
      variant="outlined"
      component="article"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <Box
        component="img"
        src={item.thumbnailUrl}
        alt={item.name}
        loading="lazy"
        sx={{ width: '100%', aspectRatio: '4 / 3', objectFit: 'contain', bgcolor: 'action.hover' }}
      />
      <CardContent sx={{ flexGrow: 1 }}>
        <Typography component="h2" variant="subtitle1" sx={{ overflowWrap: 'anywhere' }}>
          {item.name}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {format.dimensions(item)}
          {' · '}
          {format.size(item.size)}
        </Typography>
        <MediaUsage uses={item.usedBy} />
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap' }}>
        <Button
          size="small"
          startIcon={<ContentCopyIcon fontSize="small" />}
          aria-label={t('copyUrlOf', { name: item.name })}
          onClick={() => void copyUrl(item.url)}
        >
          {t('copyUrl')}
        </Button>
        {onRename ? (
          <Button
            size="small"
            startIcon={<DriveFileRenameOutlineIcon fontSize="small" />}
            aria-label={t('renameOf', { name: item.name })}
            onClick={() => onRename(item)}
          >
            {t('rename')}
          </Button>
        ) : null}
        {onDelete ? (
          <Button
            size="small"
            color="error"
            startIcon={<DeleteOutlinedIcon fontSize="small" />}
            aria-label={t('deleteOf', { name: item.name })}
            onClick={() => onDelete(item)}
          >
            {t('delete')}
          </Button>
        ) : null}
      </CardActions>
    </Card>
  );
}
