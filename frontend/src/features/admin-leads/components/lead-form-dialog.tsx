import {
  LEAD_SOURCES,
  LEAD_STATUSES,
  leadSchema,
  type LeadDto,
  type LeadSource,
  type LeadStatus,
} from '@agency/contracts';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DialogFields, FULL_ROW } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { optionItems } from '../../../components/admin/option-items';
import { useRecordForm } from '../../../components/admin/use-record-form';
import { saveRecord } from '../../../components/admin/use-record-submit';
import { useAdminCan, useAdminSession } from '../../../lib/admin-session';
import {
  optionalNumber,
  schemaValidator,
  type NumberFieldValue,
} from '../../../lib/form-validation';
import { useNamespace } from '../../../lib/translations';
import {
  useAssignableUsersQuery,
  useCreateLeadMutation,
  useUpdateLeadMutation,
} from '../api/leads-api';
import { LEADS_NAMESPACE } from '../leads-namespace';
import { LeadEnquiry } from './lead-enquiry';

interface LeadFormValues {
  name: string;
  email: string;
  phone: string;
  company: string;
  source: LeadSource;
  status: LeadStatus;
  estimatedValue: NumberFieldValue;
  notes: string;
  assigneeId: string;
}

const LEAD_FIELDS = [
  'name',
  'email',
  'phone',
  'company',
  'source',
  'status',
  'estimatedValue',
  'notes',
  'assigneeId',
] as const;

function valuesOf(lead: LeadDto | undefined): LeadFormValues {
  return {
    name: lead?.name ?? '',
    email: lead?.email ?? '',
    phone: lead?.phone ?? '',
    company: lead?.company ?? '',
    source: lead?.source ?? 'manual',
    status: lead?.status ?? 'new',
    estimatedValue: lead?.estimatedValue ?? '',
    notes: lead?.notes ?? '',
    assigneeId: lead?.assignee?.id ?? '',
  };
}

function toLeadInput(values: LeadFormValues) {
  return { ...values, estimatedValue: optionalNumber(values.estimatedValue) };
}

const validate = schemaValidator(leadSchema, toLeadInput);

/** The people a lead can be assigned to: every user for an admin, otherwise oneself. */
function useAssigneeOptions(lead: LeadDto | undefined) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const session = useAdminSession();
  const canListUsers = useAdminCan('users:read');
  const { data: users } = useAssignableUsersQuery(undefined, { skip: !canListUsers });
  const options = new Map<string, string>();
  if (canListUsers) {
    for (const user of users?.items ?? []) options.set(user.id, user.username);
  } else if (session?.user.id) {
    options.set(session.user.id, t('dialog.me', { username: session.user.username }));
  }
  if (lead?.assignee && !options.has(lead.assignee.id)) {
    options.set(lead.assignee.id, lead.assignee.username);
  }
  return [...options];
}

export interface LeadFormDialogProps {
  lead?: LeadDto;
  onClose: () => void;
}

/** Add Lead / Edit Lead, with the originating enquiry of a converted lead. */
export function LeadFormDialog({ lead, onClose }: LeadFormDialogProps) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const [createLead] = useCreateLeadMutation();
  const [updateLead] = useUpdateLeadMutation();
  const assignees = useAssigneeOptions(lead);
  const { field, dialog } = useRecordForm({
    record: lead,
    namespace: LEADS_NAMESPACE,
    fields: LEAD_FIELDS,
    initialValues: valuesOf(lead),
    validate,
    save: (values: LeadFormValues) =>
      saveRecord({
        record: lead,
        values: toLeadInput(values),
        schema: leadSchema,
        create: createLead,
        update: updateLead,
      }),
    onClose,
  });

  return (
    <FormDialog {...dialog}>
      <DialogFields columns={2}>
        {lead?.contactId ? (
          <Box sx={FULL_ROW}>
            <LeadEnquiry contactId={lead.contactId} />
          </Box>
        ) : null}
        <TextField {...field('name', t('dialog.name'))} required autoFocus />
        <TextField {...field('company', t('dialog.company'))} />
        <TextField {...field('email', t('dialog.email'))} type="email" />
        <TextField {...field('phone', t('dialog.phone'))} type="tel" />
        <TextField {...field('status', t('dialog.status'))} select>
          {optionItems(LEAD_STATUSES, (status) => t(`status.${status}`))}
        </TextField>
        <TextField {...field('source', t('dialog.source'))} select>
          {optionItems(LEAD_SOURCES, (source) => t(`source.${source}`))}
        </TextField>
        <TextField
          {...field('estimatedValue', t('dialog.estimatedValue'))}
          type="number"
          slotProps={{ htmlInput: { min: 0, step: 0.01, inputMode: 'decimal' } }}
        />
        <TextField {...field('assigneeId', t('dialog.assignee'))} select>
          <MenuItem value="">{t('unassigned')}</MenuItem>
          {assignees.map(([id, label]) => (
            <MenuItem key={id} value={id}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={FULL_ROW}>
          <TextField
            {...field('notes', t('dialog.notes'))}
            multiline
            rows={3}
            slotProps={{ input: { inputComponent: 'textarea' } }}
          />
        </Box>
      </DialogFields>
    </FormDialog>
  );
}
