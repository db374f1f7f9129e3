import {
  RECIPIENT_TYPES,
  campaignSchema,
  type CampaignDto,
  type RecipientType,
} from '@agency/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { saveRecord, useRecordSubmit } from '../../../components/admin/use-record-submit';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import {
  useCampaignAudienceQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

interface CampaignFormValues {
  name: string;
  subject: string;
  content: string;
  recipientType: RecipientType;
}

const CAMPAIGN_FIELDS = ['name', 'subject', 'content', 'recipientType'] as const;
/** The spec's content box. */
export const CONTENT_ROWS = 10;

export interface CampaignDialogProps {
  /** A draft being edited; none to write a new campaign. */
  campaign?: CampaignDto;
  onClose: () => void;
}

/** The campaign modal: name, subject, content (10 rows) and recipients. */
export function CampaignDialog({ campaign, onClose }: CampaignDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const { data: audience } = useCampaignAudienceQuery(undefined);
  const [createCampaign] = useCreateCampaignMutation();
  const [updateCampaign] = useUpdateCampaignMutation();

  const submit = useRecordSubmit({
    fields: CAMPAIGN_FIELDS,
    save: (values: CampaignFormValues) =>
      saveRecord({
        record: campaign,
        values: values,
        schema: campaignSchema,
        create: createCampaign,
        update: updateCampaign,
      }),
    saved: campaign ? t('toasts.updated') : t('toasts.created'),
    failed: { title: campaign ? t('toasts.updateFailed') : t('toasts.createFailed') },
    onSaved: onClose,
  });

  const formik = useFormik<CampaignFormValues>({
    initialValues: {
      name: campaign?.name ?? '',
      subject: campaign?.subject ?? '',
      content: campaign?.content ?? '',
      recipientType: campaign?.recipientType ?? 'all',
    },
    validationSchema: campaignSchema,
    onSubmit: submit,
  });
  const field = useFormFields(formik);

  return (
    <FormDialog
      open
      title={campaign ? t('dialog.editTitle') : t('dialog.addTitle')}
      submitLabel={campaign ? t('dialog.save') : t('dialog.create')}
      busy={formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <DialogFields>
        <TextField {...field('name', t('dialog.name'))} required autoFocus />
        <TextField {...field('subject', t('dialog.subject'))} required />
        <TextField
          {...field('content', t('dialog.content'))}
          required
          multiline
          rows={CONTENT_ROWS}
          helperText={field('content', '').helperText ?? t('dialog.contentHint')}
          // A plain textarea of fixed rows: the auto-growing one re-measures on every keystroke.
          slotProps={{
            input: { inputComponent: 'textarea' },
            htmlInput: {
              rows: CONTENT_ROWS,
              style: { resize: 'vertical', fontFamily: 'monospace' },
            },
          }}
        />
        <TextField {...field('recipientType', t('dialog.recipientType'))} select>
          {RECIPIENT_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {audience
                ? t('dialog.recipientCount', {
                    label: t(`recipients.${type}`),
                    people: format.number(audience[type]),
                  })
                : t(`recipients.${type}`)}
            </MenuItem>
          ))}
        </TextField>
      </DialogFields>
    </FormDialog>
  );
}
