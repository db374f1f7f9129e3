import {
  campaignTestSendSchema,
  type Locale,
  type CampaignDto,
  type CampaignTestSendInput,
} from '@agency/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormik } from 'formik';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { useRecordSubmit } from '../../../components/admin/use-record-submit';
import { useAdminSession } from '../../../lib/admin-session';
import { useNamespace } from '../../../lib/translations';
import { useSendCampaignTestMutation } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

export interface TestSendDialogProps {
  campaign: CampaignDto;
  onClose: () => void;
}

/**
 * Sends the campaign to one address, to see it in a real inbox before (or
 * while) it goes out; the test is outside the campaign's counts and ledger.
 */
export function TestSendDialog({ campaign, onClose }: TestSendDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const session = useAdminSession();
  const [sendTest] = useSendCampaignTestMutation();

  const submit = useRecordSubmit({
    fields: ['email', 'locale'] as const,
    save: async (values: CampaignTestSendInput) => {
      const body = await campaignTestSendSchema.validate(values, { stripUnknown: true });
      return sendTest({ id: campaign.id, body }).unwrap();
    },
    saved: t('toasts.testSent'),
    failed: { title: t('toasts.testFailed') },
    onSaved: onClose,
  });
  const formik = useFormik<CampaignTestSendInput>({
    // Most often one sends the test to oneself.
    initialValues: { email: session?.user.email ?? '', locale: campaign.defaultLocale },
    validationSchema: campaignTestSendSchema,
    onSubmit: submit,
  });
  const field = useFormFields(formik);

  return (
    <FormDialog
      open
      title={t('testSend.title', { name: campaign.name })}
      submitLabel={t('testSend.submit')}
      busy={formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <DialogFields>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('testSend.description')}
        </Typography>
        <TextField
          {...field('email', t('testSend.email'))}
          type="email"
          autoComplete="email"
          required
          autoFocus
        />
        <TextField {...field('locale', t('testSend.language'))} select>
          {languagesOf(campaign).map((locale) => (
            <MenuItem key={locale} value={locale}>
              {t(`languages.${locale}`)}
            </MenuItem>
          ))}
        </TextField>
      </DialogFields>
    </FormDialog>
  );
}

/** The languages a campaign is written in, its default first. */
function languagesOf(campaign: CampaignDto): Locale[] {
  return [campaign.defaultLocale, ...campaign.translations.map(({ locale }) => locale)];
}
