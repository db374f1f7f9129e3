import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { SxProps, Theme } from '@mui/material/styles';
import { useNamespace } from '../../../lib/translations';
import { MEDIA_NAMESPACE } from './media-namespace';
import type { MediaBrowser } from './use-media-browser';

/** Arrows point the way the page reads: mirrored right to left. */
const MIRRORED_IN_RTL: SxProps<Theme> = { '[dir="rtl"] &': { transform: 'scaleX(-1)' } };

/** Previous and next pages of the library, shown only when there is one to go to. */
export function MediaPager({ browser }: { browser: Pick<MediaBrowser, 'next' | 'previous'> }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  if (!browser.next && !browser.previous) return null;
  return (
    <Stack
      component="nav"
      aria-label={t('gridLabel')}
      direction="row"
      spacing={1}
      sx={{ justifyContent: 'center' }}
    >
      <Button
        startIcon={<NavigateBeforeIcon sx={MIRRORED_IN_RTL} />}
        disabled={!browser.previous}
        onClick={browser.previous}
      >
        {t('previousPage')}
      </Button>
      <Button
        endIcon={<NavigateNextIcon sx={MIRRORED_IN_RTL} />}
        disabled={!browser.next}
        onClick={browser.next}
      >
        {t('nextPage')}
      </Button>
    </Stack>
  );
}
