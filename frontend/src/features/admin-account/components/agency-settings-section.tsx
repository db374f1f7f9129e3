import {
  ACTIVITY_RETENTION_MONTHS_MAX,
  ACTIVITY_RETENTION_MONTHS_MIN,
  ENQUIRY_RETENTION_MONTHS_MAX,
  ENQUIRY_RETENTION_MONTHS_MIN,
  LOCALES,
  TRACKING_KEY_RETENTION_DAYS_MAX,
  TRACKING_KEY_RETENTION_DAYS_MIN,
  agencySettingsSchema,
  isApiErrorBody,
  type AgencySettingsDto,
  type AgencySettingsInput,
  type Locale,
} from '@agency/contracts';
import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { getIn, setIn, useFormik, type FormikErrors } from 'formik';
import { LoadError } from '../../../components/admin/load-error';
import { apiErrorMessage, useErrorText } from '../../../lib/api-errors';
import { schemaValidator } from '../../../lib/form-validation';
import { useNamespace } from '../../../lib/translations';
import { useFormatters } from '../../../lib/use-formatters';
import { useToast } from '../../../lib/use-toast';
import { AGENCY_SETTINGS_NAMESPACE } from '../agency-settings-namespace';
import { RetentionSettingsFieldset } from './retention-settings-fieldset';
import { TrackingSettingsFieldset } from './tracking-settings-fieldset';
import { useAgencySettingsQuery, useSaveAgencySettingsMutation } from '../api/agency-settings-api';

type AgencyFormValues = AgencySettingsInput;

const validate = schemaValidator(agencySettingsSchema, (values: AgencyFormValues) => values);

function formValuesOf(settings: AgencySettingsDto): AgencyFormValues {
  return {
    languages: settings.languages,
    senders: settings.senders,
    defaultFrom: settings.defaultFrom,
    replyTo: settings.replyTo,
    postalAddress: settings.postalAddress,
    timeZone: settings.timeZone,
    defaultLocale: settings.defaultLocale,
    tracking: settings.tracking,
    retention: settings.retention,
  };
}

/** The API's field reasons (`languages.fr.footer`, `senders[1].address`) as formik errors. */
function formErrorsOf(error: unknown): FormikErrors<AgencyFormValues> | undefined {
  const body = typeof error === 'object' && error !== null && 'data' in error ? error.data : null;
  if (!isApiErrorBody(body) || !body.error.fields) return undefined;
  let errors: FormikErrors<AgencyFormValues> = {};
  for (const [path, reason] of Object.entries(body.error.fields)) {
    errors = setIn(errors, path, reason) as FormikErrors<AgencyFormValues>;
  }
  return errors;
}

/** One text input's props, wired to formik by its path (`senders[1].address`). */
type FieldOf = (name: string, label: string, hint?: string) => TextFieldProps;

const LTR_INPUT = { htmlInput: { dir: 'ltr', spellCheck: false } };
const FIELDSET_SX = { border: 0, m: 0, p: 0 };
const LEGEND_SX = { fontWeight: 600, mb: 1 };

/**
 * The form's state and its save: on a refusal the API's field reasons land
 * under their fields, and a toast says it failed.
 */
function useAgencySettingsForm(settings: AgencySettingsDto) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const toast = useToast();
  const errorText = useErrorText();
  const [save] = useSaveAgencySettingsMutation();

  const formik = useFormik<AgencyFormValues>({
    initialValues: formValuesOf(settings),
    enableReinitialize: true,
    validate,
    onSubmit: async (values, helpers) => {
      try {
        await save(values).unwrap();
        toast({ title: t('saved'), variant: 'success' });
      } catch (error: unknown) {
        const errors = formErrorsOf(error);
        if (errors) helpers.setErrors(errors);
        toast({
          title: t('failed'),
          description: apiErrorMessage(error),
          variant: 'destructive',
        });
      }
    },
  });

  const errorOf = (name: string): string | undefined => {
    const shown = formik.submitCount > 0 || Boolean(getIn(formik.touched, name));
    return shown ? errorText(getIn(formik.errors, name)) : undefined;
  };
  const field: FieldOf = (name, label, hint) => {
    const error = errorOf(name);
    return {
      id: `agency-${name.replace(/[.[\]]+/g, '-')}`,
      name,
      label,
      value: (getIn(formik.values, name) as string | number | undefined) ?? '',
      onChange: formik.handleChange,
      onBlur: formik.handleBlur,
      error: Boolean(error),
      helperText: error ?? hint,
      fullWidth: true,
    };
  };
  return { formik, field, errorOf };
}

/** The agency's name, mail header and footer in one language. */
function LanguageTextsFieldset({ locale, field }: { locale: Locale; field: FieldOf }) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const slotProps = { htmlInput: { lang: locale, dir: locale === 'ar' ? 'rtl' : 'ltr' } };
  return (
    <Stack component="fieldset" spacing={2} sx={FIELDSET_SX}>
      <Typography component="legend" variant="subtitle1" sx={LEGEND_SX}>
        {t('languageTexts', { language: t(`languages.${locale}`) })}
      </Typography>
      <TextField
        {...field(`languages.${locale}.agencyName`, t('agencyName'), t('agencyNameHint'))}
        required
        slotProps={slotProps}
      />
      <TextField
        {...field(`languages.${locale}.header`, t('header'), t('headerHint'))}
        slotProps={slotProps}
      />
      <TextField
        {...field(`languages.${locale}.footer`, t('footer'), t('footerHint'))}
        multiline
        minRows={2}
        slotProps={slotProps}
      />
    </Stack>
  );
}

type Sender = AgencyFormValues['senders'][number];

interface SendersFieldsetProps {
  senders: AgencyFormValues['senders'];
  setSenders: (senders: AgencyFormValues['senders']) => void;
  sendersError: string | undefined;
  field: FieldOf;
}

/** One From address: its name, its address, and a button that removes it. */
function SenderRow({
  index,
  senders,
  setSenders,
  field,
  sender,
}: Omit<SendersFieldsetProps, 'sendersError'> & { index: number; sender: Sender }) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'flex-start' } }}
    >
      <TextField {...field(`senders[${index}].name`, t('senderName'))} required />
      <TextField
        {...field(`senders[${index}].address`, t('senderAddress'))}
        required
        inputMode="email"
        slotProps={LTR_INPUT}
      />
      <IconButton
        onClick={() => setSenders(senders.filter((_kept, kept) => kept !== index))}
        disabled={senders.length <= 1}
        aria-label={t('removeSender', { address: sender.address || sender.name })}
        sx={{ alignSelf: { xs: 'flex-end', sm: 'center' } }}
      >
        <DeleteIcon />
      </IconButton>
    </Stack>
  );
}

/** The From addresses campaigns may use, the default one, and the Reply-To. */
function SendersFieldset({ senders, setSenders, sendersError, field }: SendersFieldsetProps) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  return (
    <Stack component="fieldset" spacing={2} sx={FIELDSET_SX}>
      <Typography component="legend" variant="subtitle1" sx={LEGEND_SX}>
        {t('senders')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('sendersHint')}
      </Typography>
      {senders.map((sender, index) => (
        // Rows have no id of their own: their place is their identity while editing.
        <SenderRow
          key={index}
          index={index}
          sender={sender}
          senders={senders}
          setSenders={setSenders}
          field={field}
        />
      ))}
      {sendersError ? (
        <Typography role="alert" variant="body2" sx={{ color: 'error.main' }}>
          {sendersError}
        </Typography>
      ) : null}
      <Button
        variant="outlined"
        onClick={() => setSenders([...senders, { name: '', address: '' }])}
        sx={{ alignSelf: 'flex-start' }}
      >
        {t('addSender')}
      </Button>
      <TextField {...field('defaultFrom', t('defaultFrom'), t('defaultFromHint'))} select required>
        {senders
          .filter((sender) => sender.address)
          .map((sender) => (
            <MenuItem key={sender.address} value={sender.address} dir="ltr">
              {sender.name ? `${sender.name} <${sender.address}>` : sender.address}
            </MenuItem>
          ))}
      </TextField>
      <TextField
        {...field('replyTo', t('replyTo'), t('replyToHint'))}
        required
        inputMode="email"
        slotProps={LTR_INPUT}
      />
    </Stack>
  );
}

/** The postal address, the agency's clock and its default language. */
function AgencyFieldset({ field }: { field: FieldOf }) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  return (
    <Stack component="fieldset" spacing={2} sx={FIELDSET_SX}>
      <Typography component="legend" variant="subtitle1" sx={LEGEND_SX}>
        {t('agency')}
      </Typography>
      <TextField
        {...field('postalAddress', t('postalAddress'), t('postalAddressHint'))}
        multiline
        minRows={2}
      />
      <TextField
        {...field('timeZone', t('timeZone'), t('timeZoneHint'))}
        required
        slotProps={LTR_INPUT}
      />
      <TextField
        {...field('defaultLocale', t('defaultLocale'), t('defaultLocaleHint'))}
        select
        required
      >
        {LOCALES.map((locale) => (
          <MenuItem key={locale} value={locale}>
            {t(`languages.${locale}`)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

/** One of the retention's two month fields, with its label and range. */
function retentionField(
  field: FieldOf,
  t: (key: string, values?: Record<string, number>) => string,
  name: 'enquiryMonths' | 'activityMonths',
): TextFieldProps {
  const [min, max] =
    name === 'enquiryMonths'
      ? [ENQUIRY_RETENTION_MONTHS_MIN, ENQUIRY_RETENTION_MONTHS_MAX]
      : [ACTIVITY_RETENTION_MONTHS_MIN, ACTIVITY_RETENTION_MONTHS_MAX];
  return field(
    `retention.${name}`,
    t(`retention.${name}`),
    t(`retention.${name}Hint`, { min, max }),
  );
}

/** The save button, and who saved last and when (or that nobody has yet). */
function SaveBar({
  settings,
  isSubmitting,
}: {
  settings: AgencySettingsDto;
  isSubmitting: boolean;
}) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const format = useFormatters();
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ alignItems: { sm: 'center' } }}
    >
      <Button
        type="submit"
        variant="contained"
        disabled={isSubmitting}
        sx={{ alignSelf: 'flex-start' }}
      >
        {isSubmitting ? t('saving') : t('save')}
      </Button>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {settings.updatedAt && settings.updatedBy
          ? t('updated', {
              username: settings.updatedBy,
              date: format.dateTime(settings.updatedAt),
            })
          : t('firstRun')}
      </Typography>
    </Stack>
  );
}

function AgencySettingsForm({ settings }: { settings: AgencySettingsDto }) {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const { formik, field, errorOf } = useAgencySettingsForm(settings);
  const { senders } = formik.values;
  const sendersError = typeof formik.errors.senders === 'string' ? errorOf('senders') : undefined;
  return (
    <Stack
      component="form"
      noValidate
      onSubmit={formik.handleSubmit}
      spacing={3}
      aria-labelledby="agency-settings-title"
    >
      {LOCALES.map((locale: Locale) => (
        <LanguageTextsFieldset key={locale} locale={locale} field={field} />
      ))}
      <SendersFieldset
        senders={senders}
        setSenders={(next) => void formik.setFieldValue('senders', next)}
        sendersError={sendersError}
        field={field}
      />
      <AgencyFieldset field={field} />
      <TrackingSettingsFieldset
        tracking={formik.values.tracking ?? settings.tracking}
        setTracking={(next) => void formik.setFieldValue('tracking', next)}
        retentionField={field(
          'tracking.keyRetentionDays',
          t('tracking.retention'),
          t('tracking.retentionHint', {
            min: TRACKING_KEY_RETENTION_DAYS_MIN,
            max: TRACKING_KEY_RETENTION_DAYS_MAX,
          }),
        )}
      />
      <RetentionSettingsFieldset
        retention={formik.values.retention ?? settings.retention}
        setRetention={(next) => void formik.setFieldValue('retention', next)}
        fieldOf={(name) => retentionField(field, t, name)}
        report={settings.retentionReport}
      />
      <SaveBar settings={settings} isSubmitting={formik.isSubmitting} />
    </Stack>
  );
}

/**
 * Settings, for admins: the agency's name and mail texts per language, the
 * From addresses campaigns may use, the Reply-To, the postal address every
 * campaign mail carries, the agency's clock and its default language,
 * what campaigns track, and how long personal details are kept.
 */
export function AgencySettingsSection() {
  const { t } = useNamespace(AGENCY_SETTINGS_NAMESPACE);
  const { data, isError, refetch } = useAgencySettingsQuery(undefined);
  let body;
  if (isError && !data) {
    body = <LoadError title={t('loadError')} onRetry={() => void refetch()} />;
  } else if (!data) {
    body = <Skeleton height={240} aria-busy />;
  } else {
    body = <AgencySettingsForm settings={data} />;
  }
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id="agency-settings-title">
          {t('title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('description')}
        </Typography>
        {body}
      </Stack>
    </Paper>
  );
}
