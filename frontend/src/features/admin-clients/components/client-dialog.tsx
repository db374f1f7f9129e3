import {
  CLIENT_INDUSTRIES,
  CLIENT_STATUSES,
  clientSchema,
  type ClientDto,
  type ClientStatus,
} from '@agency/contracts';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DialogFields, FULL_ROW } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { optionItems } from '../../../components/admin/option-items';
import { useRecordForm } from '../../../components/admin/use-record-form';
import { saveRecord } from '../../../components/admin/use-record-submit';
import {
  optionalNumber,
  schemaValidator,
  type NumberFieldValue,
} from '../../../lib/form-validation';
import { useNamespace } from '../../../lib/translations';
import { useCreateClientMutation, useUpdateClientMutation } from '../api/clients-api';
import { CLIENTS_NAMESPACE } from '../clients-namespace';

interface ClientFormValues {
  companyName: string;
  contactPerson: string;
  email: string;
  phone: string;
  website: string;
  /** Sent as a number, or left out when blank: a blank budget is no budget, not zero. */
  monthlyBudget: NumberFieldValue;
  industry: string;
  status: ClientStatus;
  notes: string;
}

const CLIENT_FIELDS = [
  'companyName',
  'contactPerson',
  'email',
  'phone',
  'website',
  'monthlyBudget',
  'industry',
  'status',
  'notes',
] as const;

function valuesOf(client: ClientDto | undefined): ClientFormValues {
  return {
    companyName: client?.companyName ?? '',
    contactPerson: client?.contactPerson ?? '',
    email: client?.email ?? '',
    phone: client?.phone ?? '',
    website: client?.website ?? '',
    monthlyBudget: client?.monthlyBudget ?? '',
    industry: client?.industry ?? '',
    status: client?.status ?? 'active',
    notes: client?.notes ?? '',
  };
}

/** What the API receives: the budget as a JSON number, blanks left for the schema to drop. */
function toClientInput(values: ClientFormValues) {
  return {
    ...values,
    monthlyBudget: optionalNumber(values.monthlyBudget),
    industry: values.industry || undefined,
  };
}

const validate = schemaValidator(clientSchema, toClientInput);

export interface ClientDialogProps {
  client?: ClientDto;
  onClose: () => void;
}

/** The spec's client modal, to add a client or edit one. */
export function ClientDialog({ client, onClose }: ClientDialogProps) {
  const { t } = useNamespace(CLIENTS_NAMESPACE);
  const [createClient] = useCreateClientMutation();
  const [updateClient] = useUpdateClientMutation();
  const { field, dialog } = useRecordForm({
    record: client,
    namespace: CLIENTS_NAMESPACE,
    fields: CLIENT_FIELDS,
    initialValues: valuesOf(client),
    validate,
    save: (values: ClientFormValues) =>
      saveRecord({
        record: client,
        values: toClientInput(values),
        schema: clientSchema,
        create: createClient,
        update: updateClient,
      }),
    onClose,
  });

  return (
    <FormDialog {...dialog}>
      <DialogFields columns={2}>
        <TextField {...field('companyName', t('dialog.companyName'))} required autoFocus />
        <TextField {...field('contactPerson', t('dialog.contactPerson'))} required />
        <TextField {...field('email', t('dialog.email'))} type="email" required />
        <TextField {...field('phone', t('dialog.phone'))} type="tel" />
        <TextField
          {...field('website', t('dialog.website'))}
          type="url"
          placeholder="https://"
          helperText={field('website', '').helperText ?? t('dialog.websiteHint')}
        />
        <TextField
          {...field('monthlyBudget', t('dialog.monthlyBudget'))}
          type="number"
          slotProps={{ htmlInput: { min: 0, step: 0.01, inputMode: 'decimal' } }}
        />
        <TextField {...field('industry', t('dialog.industry'))} select>
          <MenuItem value="">{t('dialog.selectIndustry')}</MenuItem>
          {optionItems(CLIENT_INDUSTRIES, (industry) => t(`industries.${industry}`))}
        </TextField>
        <TextField {...field('status', t('dialog.status'))} select>
          {optionItems(CLIENT_STATUSES, (status) => t(`status.${status}`))}
        </TextField>
        <Box sx={FULL_ROW}>
          <TextField
            {...field('notes', t('dialog.notes'))}
            multiline
            rows={3}
            // A plain textarea: MUI's auto-growing one measures its layout on every render.
            slotProps={{ input: { inputComponent: 'textarea' } }}
          />
        </Box>
      </DialogFields>
    </FormDialog>
  );
}
