import {
  RECIPIENT_TYPES,
  campaignSchema,
  type CampaignDto,
  type RecipientType,
} from '@agency/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { optionItems } from '../../../components/admin/option-items';
import { useRecordForm } from '../../../components/admin/use-record-form';
import { saveRecord } from '../../../components/admin/use-record-submit';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import {
  useCampaignAudienceQuery,
  useCampaignListsQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

interface CampaignFormValues {
  name: string;
  subject: string;
  content: string;
  recipientType: RecipientType;
  listIds: string[];
}

const CAMPAIGN_FIELDS = ['name', 'subject', 'content', 'recipientType', 'listIds'] as const;
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
  const { data: lists } = useCampaignListsQuery(undefined);
  const [createCampaign] = useCreateCampaignMutation();
  const [updateCampaign] = useUpdateCampaignMutation();
  const { field, dialog, formik } = useRecordForm({
    record: campaign,
    namespace: CAMPAIGNS_NAMESPACE,
    fields: CAMPAIGN_FIELDS,
    initialValues: {
      name: campaign?.name ?? '',
      subject: campaign?.subject ?? '',
      content: campaign?.content ?? '',
      recipientType: campaign?.recipientType ?? 'all',
      listIds: campaign?.listIds ?? [],
    },
    validationSchema: campaignSchema,
    save: (values: CampaignFormValues) =>
      saveRecord({
        record: campaign,
        values,
        schema: campaignSchema,
        create: createCampaign,
        update: updateCampaign,
      }),
    // The spec's wording: the failure itself is the title, the API's reason below it.
    failed: { title: campaign ? t('toasts.updateFailed') : t('toasts.createFailed') },
    onClose,
  });

  // The count of the lists chosen so far, read again as the choice changes.
  const { data: audience } = useCampaignAudienceQuery(formik.values.listIds);

  const recipientsLabel = (type: RecipientType) =>
    audience
      ? t('dialog.recipientCount', {
          label: t(`recipients.${type}`),
          people: format.number(audience[type]),
        })
      : t(`recipients.${type}`);

  return (
    <FormDialog {...dialog}>
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
          {optionItems(RECIPIENT_TYPES, recipientsLabel)}
        </TextField>
        {formik.values.recipientType === 'lists' ? (
          <TextField
            {...field('listIds', t('dialog.lists'))}
            select
            required
            helperText={
              field('listIds', '').helperText ??
              (lists && lists.items.length === 0 ? t('dialog.noLists') : t('dialog.listsHint'))
            }
            slotProps={{
              select: {
                multiple: true,
                renderValue: (selected) =>
                  (selected as string[])
                    .map((id) => lists?.items.find((list) => list.id === id)?.name ?? id)
                    .join(', '),
              },
            }}
            onChange={(event) => {
              const value = event.target.value as unknown as string[] | string;
              const chosen = typeof value === 'string' ? value.split(',') : value;
              void formik.setFieldValue('listIds', chosen);
            }}
          >
            {(lists?.items ?? []).map((list) => (
              <MenuItem key={list.id} value={list.id}>
                {list.name}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
      </DialogFields>
    </FormDialog>
  );
}
