import type { MediaDto } from '@agency/contracts';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { useNamespace } from '../../../lib/translations';
import { MEDIA_NAMESPACE } from './media-namespace';

export interface MediaThumbnailGridProps {
  items: readonly MediaDto[];
  onChoose: (item: MediaDto) => void;
}

/** The library as the picker shows it: each image a button that chooses it. */
export function MediaThumbnailGrid({ items, onChoose }: MediaThumbnailGridProps) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  return (
    <Box
      component="ul"
      aria-label={t('gridLabel')}
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gap: 1,
        gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))',
      }}
    >
      {items.map((item) => (
        <li key={item.id}>
          <ButtonBase
            focusRipple
            aria-label={t('picker.choose', { name: item.name })}
            onClick={() => onChoose(item)}
            sx={{
              width: '100%',
              flexDirection: 'column',
              alignItems: 'stretch',
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              overflow: 'hidden',
              '&.Mui-focusVisible': { outline: 3, outlineColor: 'primary.main' },
            }}
          >
            <Box
              component="img"
              src={item.thumbnailUrl}
              alt=""
              loading="lazy"
              sx={{
                width: '100%',
                aspectRatio: '4 / 3',
                objectFit: 'cover',
                bgcolor: 'action.hover',
              }}
            />
            <Typography variant="caption" noWrap sx={{ px: 0.5, py: 0.25, textAlign: 'start' }}>
              {item.name}
            </Typography>
          </ButtonBase>
        </li>
      ))}
    </Box>
  );
}
