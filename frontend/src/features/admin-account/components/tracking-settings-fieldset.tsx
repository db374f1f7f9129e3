import {
  TRACKING_KEY_RETENTION_DAYS_MAX,
  TRACKING_KEY_RETENTION_DAYS_MIN,
  TRACKING_MODES,
  type TrackingSettings,
} from '@agency/contracts';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNamespace } from '../../../lib/translations';
import { AGENCY_SETTINGS_NAMESPACE } from '../agency-settings-namespace';

const FIELDSET_SX = { border: 0, m: 0, p: 0 };
const LEGEND_SX = { fontWeight: 600, mb: 1 };

export interface TrackingSettingsFieldsetProps {
  tracking: TrackingSettings;
  setTracking: (tracking: TrackingSettings) => void;
  /** The retention field's props, wired to the form. */
  retentionField: TextFieldProps;
}

/** One of the two modes, with the sentence that says what it keeps. */
function ModeOption({ mode }: { mode: TrackingSettings['mode'] }) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  return (
    <FormControlLabel
      value={mode}
      control={
        <Radio slotProps={{ input: { 'aria-describedby': `tracking-mode-${mode}-hint` } }} />
      }
      label={
        <span>
          {t(`tracking.modes.${mode}`)}
          <Typography
            id={`tracking-mode-${mode}-hint`}
            component="span"
            variant="body2"
            sx={{ display: 'block', color: 'text.secondary' }}
          >
            {t(`tracking.modes.${mode}Hint`)}
          </Typography>
        </span>
      }
      sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { pt: 0.5 } }}
    />
  );
}

/**
 * What new campaigns track by default, how events name people (anonymous or
 * individual) and how long an anonymous campaign's key is kept.
 */
export function TrackingSettingsFieldset({
  tracking,
  setTracking,
  retentionField,
}: TrackingSettingsFieldsetProps) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const toggle = (kind: 'opens' | 'clicks') => (
    <FormControlLabel
      control={
        <Switch
          checked={tracking[kind]}
          onChange={(event) => setTracking({ ...tracking, [kind]: event.target.checked })}
        />
      }
      label={t(`tracking.${kind}`)}
    />
  );
  return (
    <Stack component="fieldset" spacing={2} sx={FIELDSET_SX}>
      <Typography component="legend" variant="subtitle1" sx={LEGEND_SX}>
        {t('tracking.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('tracking.hint')}
      </Typography>
      <Stack>
        {toggle('opens')}
        {toggle('clicks')}
      </Stack>
      <Stack component="fieldset" sx={FIELDSET_SX}>
        <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
          {t('tracking.mode')}
        </Typography>
        <RadioGroup
          name="tracking.mode"
          value={tracking.mode}
          onChange={(_event, mode) =>
            setTracking({ ...tracking, mode: mode as TrackingSettings['mode'] })
          }
        >
          {TRACKING_MODES.map((mode) => (
            <ModeOption key={mode} mode={mode} />
          ))}
        </RadioGroup>
        {tracking.mode === 'individual' ? (
          <Alert severity="warning">{t('tracking.individualWarning')}</Alert>
        ) : null}
      </Stack>
      <TextField
        {...retentionField}
        type="number"
        required
        slotProps={{
          htmlInput: {
            min: TRACKING_KEY_RETENTION_DAYS_MIN,
            max: TRACKING_KEY_RETENTION_DAYS_MAX,
            step: 1,
            inputMode: 'numeric',
          },
        }}
      />
    </Stack>
  );
}
