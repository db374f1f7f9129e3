import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { failureKindOf } from './failure-reason';

/**
 * Why a recipient was not mailed, as a sentence in the reader's language;
 * the server's own words (for the mail provider or the operator) behind a
 * "Details" button, a disclosure that screen readers announce as expanded.
 */
export function FailureReasonText({ reason }: { reason: string }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <Box sx={{ py: 0.5, minWidth: 0 }}>
      <Typography variant="body2">{t(`ledger.reasons.${failureKindOf(reason)}`)}</Typography>
      <Button
        size="small"
        variant="text"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((value) => !value)}
        sx={{ px: 0, minWidth: 0 }}
      >
        {t('ledger.reasonDetails')}
      </Button>
      <Collapse in={open} id={detailsId} unmountOnExit>
        <Typography
          variant="body2"
          component="code"
          dir="ltr"
          sx={{ display: 'block', fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {reason}
        </Typography>
      </Collapse>
    </Box>
  );
}
