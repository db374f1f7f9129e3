import {
  ACTIVITY_RETENTION_MONTHS_MAX,
  ACTIVITY_RETENTION_MONTHS_MIN,
  ENQUIRY_RETENTION_MONTHS_MAX,
  ENQUIRY_RETENTION_MONTHS_MIN,
  UNCONFIRMED_SIGNUP_DAYS,
  type RetentionReportDto,
  type RetentionSettings,
} from '@agency/contracts';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useNamespace } from '../../../lib/translations';
import { useFormatters } from '../../../lib/use-formatters';
import { AGENCY_SETTINGS_NAMESPACE } from '../agency-settings-namespace';

const FIELDSET_SX = { border: 0, m: 0, p: 0 };
const LEGEND_SX = { fontWeight: 600, mb: 1 };
/** What the enquiries' switch proposes when it is turned on. */
const ENQUIRY_MONTHS_PROPOSED = 24;

export interface RetentionSettingsFieldsetProps {
  retention: RetentionSettings;
  setRetention: (retention: RetentionSettings) => void;
  /** The two month fields' props, wired to the form. */
  fieldOf: (name: 'enquiryMonths' | 'activityMonths') => TextFieldProps;
  report: RetentionReportDto | null;
}

const monthsInput = (min: number, max: number) => ({
  htmlInput: { min, max, step: 1, inputMode: 'numeric' as const },
});

/** What the last daily pass removed, or that it has not run yet. */
function LastRun({ report }: { report: RetentionReportDto | null }) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const format = useFormatters();
  return (
    <Typography variant="body2" sx={{ color: 'text.secondary' }} role="status">
      {report
        ? t('retention.lastRun', {
            date: format.dateTime(report.ranAt),
            signups: report.unconfirmedSignups,
            enquiries: report.anonymisedEnquiries,
            activity: report.activityEntries,
          })
        : t('retention.neverRun')}
    </Typography>
  );
}

/**
 * How long personal details are kept: the sign-ups' fixed week, the
 * enquiries' anonymisation (off unless turned on), the activity log's
 * months, and what the last daily pass removed.
 */
export function RetentionSettingsFieldset({
  retention,
  setRetention,
  fieldOf,
  report,
}: RetentionSettingsFieldsetProps) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const enquiriesOn = retention.enquiryMonths !== null;
  return (
    <Stack component="fieldset" spacing={2} sx={FIELDSET_SX}>
      <Typography component="legend" variant="subtitle1" sx={LEGEND_SX}>
        {t('retention.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('retention.hint')}
      </Typography>
      <Typography variant="body2">
        {t('retention.signups', { days: UNCONFIRMED_SIGNUP_DAYS })}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={enquiriesOn}
            onChange={(event) =>
              setRetention({
                ...retention,
                enquiryMonths: event.target.checked ? ENQUIRY_MONTHS_PROPOSED : null,
              })
            }
          />
        }
        label={t('retention.enquiries')}
      />
      {enquiriesOn ? (
        <TextField
          {...fieldOf('enquiryMonths')}
          type="number"
          required
          slotProps={monthsInput(ENQUIRY_RETENTION_MONTHS_MIN, ENQUIRY_RETENTION_MONTHS_MAX)}
        />
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('retention.enquiriesHint')}
        </Typography>
      )}
      <TextField
        {...fieldOf('activityMonths')}
        type="number"
        required
        slotProps={monthsInput(ACTIVITY_RETENTION_MONTHS_MIN, ACTIVITY_RETENTION_MONTHS_MAX)}
      />
      <Alert severity="warning">{t('retention.irreversible')}</Alert>
      <LastRun report={report} />
    </Stack>
  );
}
