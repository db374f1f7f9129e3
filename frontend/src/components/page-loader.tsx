import { keyframes } from '@emotion/react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

const spin = keyframes`to { transform: rotate(360deg); }`;

/**
 * Shown while a page's code or texts load; tall, so the footer stays out of
 * view. A plain CSS spinner: this sits in the first load.
 */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: 16, minHeight: '100vh' }}>
      <Box
        role="progressbar"
        aria-label={t('common.loading')}
        sx={{
          width: 40,
          height: 40,
          borderRadius: '50%',
          border: 4,
          borderColor: 'primary.main',
          borderTopColor: 'transparent',
          animation: `${spin} 800ms linear infinite`,
        }}
      />
    </Box>
  );
}
