import type { Locale } from '@agency/contracts';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

export interface CopyFromDefaultProps {
  /** The language whose tab this is, filled by the copy. */
  locale: Locale;
  /** The campaign's default language, copied from. */
  defaultLocale: Locale;
  /** Something is written in `locale` already: replacing it is asked first. */
  hasText: boolean;
  /** Nothing is written in the default language yet: there is nothing to copy. */
  disabled: boolean;
  onCopy: () => void;
}

/**
 * "Copy from English" on a translation's tab: the default language's subject
 * and content become the starting point to translate. Text already written
 * in the tab is only replaced once the user confirms; the confirmation gives
 * focus back to the button when it closes.
 */
export function CopyFromDefault({
  locale,
  defaultLocale,
  hasText,
  disabled,
  onCopy,
}: CopyFromDefaultProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [confirming, setConfirming] = useState(false);
  const hintId = useId();
  const language = t(`languages.${locale}`);
  const source = t(`languages.${defaultLocale}`);

  const copy = () => {
    setConfirming(false);
    onCopy();
  };

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<ContentCopyIcon />}
        disabled={disabled}
        aria-describedby={hintId}
        onClick={() => (hasText ? setConfirming(true) : copy())}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('dialog.copyFromDefault', { language: source })}
      </Button>
      <span id={hintId} hidden>
        {t('dialog.copyFromDefaultHint', { language: source })}
      </span>
      <ConfirmDialog
        open={confirming}
        title={t('dialog.replaceTitle', { language })}
        description={t('dialog.replaceDescription', { language, source })}
        confirmLabel={t('dialog.replaceConfirm')}
        destructive
        onConfirm={copy}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
