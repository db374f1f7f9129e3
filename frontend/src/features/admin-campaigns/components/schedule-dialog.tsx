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
import { useFormik } from 'formik';
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

/**
 * When a draft goes, or when a scheduled campaign goes now (moved), on the
 * agency's clock; a scheduled one can also go back to being a draft.
 */
export function ScheduleDialog({ campaign, timeZone, onClose }: ScheduleDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const errorText = useErrorText();
  const [schedule] = useScheduleCampaignMutation();
  const [unschedule, { isLoading: unscheduling }] = useUnscheduleCampaignMutation();
  const scheduled = campaign.status === 'scheduled' && campaign.scheduledAt;

  const formik = useFormik<ScheduleValues>({
    initialValues: scheduled
      ? dateAndTime(campaign.scheduledAt ?? '', timeZone)
      : nextHour(timeZone),
    validateOnChange: false,
    validate: async (values) => {
      const fieldErrors = await validateFields(values);
      if (Object.keys(fieldErrors).length > 0) return fieldErrors;
      try {
        await campaignScheduleSchema.validate({ scheduledAt: scheduledAtOf(values, timeZone) });
        return {};
      } catch (error) {
        if (error instanceof ValidationError) return { time: error.message };
        throw error;
      }
    },
    onSubmit: async (values, helpers) => {
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
    },
  });

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

  const shown = (field: keyof ScheduleValues) =>
    formik.submitCount > 0 || formik.touched[field] ? errorText(formik.errors[field]) : undefined;
  const dateError = shown('date');
  const timeError = shown('time');
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
        <Stack direction="row" spacing={2}>
          <TextField
            id="schedule-date"
            name="date"
            label={t('schedule.date')}
            type="date"
            value={formik.values.date}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={Boolean(dateError)}
            helperText={dateError}
            required
            fullWidth
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            id="schedule-time"
            name="time"
            label={t('schedule.time')}
            type="time"
            value={formik.values.time}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={Boolean(timeError)}
            helperText={timeError}
            required
            fullWidth
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
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
