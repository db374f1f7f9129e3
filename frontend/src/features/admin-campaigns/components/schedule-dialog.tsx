import {
  campaignScheduleFormSchema,
  campaignScheduleSchema,
  instantOfWallTime,
  wallTimeOf,
  type CampaignDto,
} from '@agency/contracts';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormik, type FormikHelpers } from 'formik';
import { ValidationError } from 'yup';
import { FormDialog } from '../../../components/admin/form-dialog';
import { apiErrorMessage, fieldErrorsOf, useErrorText } from '../../../lib/api-errors';
import { schemaValidator } from '../../../lib/form-validation';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useCampaignSettingsQuery,
  useScheduleCampaignMutation,
  useUnscheduleCampaignMutation,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

interface ScheduleValues {
  date: string;
  time: string;
}

/** A new schedule is offered for the next whole hour. */
function nextHour(timeZone: string): ScheduleValues {
  const next = Math.ceil((Date.now() + 60_000) / 3_600_000) * 3_600_000;
  const { date, time } = wallTimeOf(next, timeZone);
  return { date, time };
}

function dateAndTime(instant: string, timeZone: string): ScheduleValues {
  const { date, time } = wallTimeOf(new Date(instant), timeZone);
  return { date, time };
}

/** The day and the time as entered, checked by the same rules the API applies to dates. */
const validateFields = schemaValidator(
  campaignScheduleFormSchema,
  (values: ScheduleValues) => values,
);

/** The instant the agency's clock shows at the values, as the API takes it. */
const scheduledAtOf = (values: ScheduleValues, timeZone: string) => {
  const instant = instantOfWallTime(values.date, values.time, timeZone);
  return Number.isNaN(instant.getTime()) ? '' : instant.toISOString();
};

export interface ScheduleDialogProps {
  campaign: CampaignDto;
  timeZone: string;
  onClose: () => void;
}

/** Settings first: the date and time are entered on the agency's clock. */
export function ScheduleDialogLoader(props: Omit<ScheduleDialogProps, 'timeZone'>) {
  const { data: settings, isError } = useCampaignSettingsQuery(undefined);
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  if (isError) {
    return (
      <FormDialog
        open
        title={t('schedule.title', { name: props.campaign.name })}
        submitLabel={t('schedule.submit')}
        busy
        onSubmit={(event) => event.preventDefault()}
        onClose={props.onClose}
      >
        <Alert severity="error">{t('schedule.settingsFailed')}</Alert>
      </FormDialog>
    );
  }
  return settings ? <ScheduleDialog {...props} timeZone={settings.timeZone} /> : null;
}

/** The day and time as entered, then the instant they make, as the API will check it. */
async function validateSchedule(values: ScheduleValues, timeZone: string) {
  const fieldErrors = await validateFields(values);
  if (Object.keys(fieldErrors).length > 0) return fieldErrors;
  try {
    await campaignScheduleSchema.validate({ scheduledAt: scheduledAtOf(values, timeZone) });
    return {};
  } catch (error) {
    if (error instanceof ValidationError) return { time: error.message };
    throw error;
  }
}

/** The schedule's form: it opens on the campaign's time when it has one, else the next hour. */
function useScheduleForm(campaign: CampaignDto, timeZone: string, onClose: () => void) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const [schedule] = useScheduleCampaignMutation();
  const scheduled = campaign.status === 'scheduled' && campaign.scheduledAt;

  const submit = async (values: ScheduleValues, helpers: FormikHelpers<ScheduleValues>) => {
    try {
      const body = await campaignScheduleSchema.validate({
        scheduledAt: scheduledAtOf(values, timeZone),
      });
      await schedule({ id: campaign.id, body }).unwrap();
      toast({
        title: t('toasts.scheduled'),
        description: t('schedule.when', { date: values.date, time: values.time, timeZone }),
        variant: 'success',
      });
      onClose();
    } catch (error) {
      const reasons = fieldErrorsOf(error, ['scheduledAt'] as const);
      if (reasons?.scheduledAt) helpers.setErrors({ time: reasons.scheduledAt });
      toast({
        title: t('toasts.scheduleFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return useFormik<ScheduleValues>({
    initialValues: scheduled
      ? dateAndTime(campaign.scheduledAt ?? '', timeZone)
      : nextHour(timeZone),
    validateOnChange: false,
    validate: (values) => validateSchedule(values, timeZone),
    onSubmit: submit,
  });
}

/** Takes a scheduled campaign back to being a draft, saying in a toast how it went. */
function useBackToDraft(campaign: CampaignDto, onClose: () => void) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const [unschedule, { isLoading: unscheduling }] = useUnscheduleCampaignMutation();
  const backToDraft = async () => {
    try {
      await unschedule(campaign.id).unwrap();
      toast({ title: t('toasts.unscheduled'), variant: 'success' });
      onClose();
    } catch (error) {
      toast({
        title: t('toasts.scheduleFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  return { backToDraft, unscheduling };
}

/** The date and the time fields, each with its error once left or submitted. */
function ScheduleFields({ formik }: { formik: ReturnType<typeof useScheduleForm> }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const errorText = useErrorText();
  const field = (name: keyof ScheduleValues, label: string) => {
    const error =
      formik.submitCount > 0 || formik.touched[name] ? errorText(formik.errors[name]) : undefined;
    return (
      <TextField
        id={`schedule-${name}`}
        name={name}
        label={label}
        // Each field is named after its input type.
        type={name}
        value={formik.values[name]}
        onChange={formik.handleChange}
        onBlur={formik.handleBlur}
        error={Boolean(error)}
        helperText={error}
        required
        fullWidth
        slotProps={{ inputLabel: { shrink: true } }}
      />
    );
  };
  return (
    <Stack direction="row" spacing={2}>
      {field('date', t('schedule.date'))}
      {field('time', t('schedule.time'))}
    </Stack>
  );
}

/**
 * When a draft goes, or when a scheduled campaign goes now (moved), on the
 * agency's clock; a scheduled one can also go back to being a draft.
 */
export function ScheduleDialog({ campaign, timeZone, onClose }: ScheduleDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const formik = useScheduleForm(campaign, timeZone, onClose);
  const { backToDraft, unscheduling } = useBackToDraft(campaign, onClose);
  const scheduled = campaign.status === 'scheduled' && campaign.scheduledAt;
  return (
    <FormDialog
      open
      title={t('schedule.title', { name: campaign.name })}
      submitLabel={scheduled ? t('schedule.move') : t('schedule.submit')}
      busy={formik.isSubmitting || unscheduling}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('schedule.description', { timeZone })}
        </Typography>
        <ScheduleFields formik={formik} />
        {scheduled ? (
          <Button
            startIcon={<EventBusyIcon />}
            onClick={() => void backToDraft()}
            disabled={unscheduling}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('schedule.unschedule')}
          </Button>
        ) : null}
      </Stack>
    </FormDialog>
  );
}
