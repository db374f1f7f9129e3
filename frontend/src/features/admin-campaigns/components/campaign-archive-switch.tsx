import { Box, FormControlLabel, FormHelperText, Switch } from '@mui/material';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

/**
 * "Publish to the archive": the campaign then appears on the public site's
 * `/newsletter` pages once it is sent, in each language it is written in.
 */
export function CampaignArchiveSwitch({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': 'publish-to-archive-hint' } }}
          />
        }
        label={t('dialog.archive.label')}
      />
      <FormHelperText id="publish-to-archive-hint" sx={{ mt: 0 }}>
        {t('dialog.archive.hint')}
      </FormHelperText>
    </Box>
  );
}
