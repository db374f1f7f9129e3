import { mailingListSchema, type MailingListDto } from '@agency/contracts';
import TextField from '@mui/material/TextField';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useRecordForm } from '../../../components/admin/use-record-form';
import { saveRecord } from '../../../components/admin/use-record-submit';
import { useNamespace } from '../../../lib/translations';
import { useCreateMailingListMutation, useUpdateMailingListMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

interface ListFormValues {
  name: string;
  description: string;
}

const LIST_FIELDS = ['name', 'description'] as const;

export interface ListDialogProps {
  list?: MailingListDto;
  onClose: () => void;
}

/** A mailing list's name and description, on create and on edit. */
export function ListDialog({ list, onClose }: ListDialogProps) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const [createList] = useCreateMailingListMutation();
  const [updateList] = useUpdateMailingListMutation();
  const { field, dialog } = useRecordForm({
    record: list,
    namespace: AUDIENCE_NAMESPACE,
    fields: LIST_FIELDS,
    initialValues: { name: list?.name ?? '', description: list?.description ?? '' },
    validationSchema: mailingListSchema,
    save: (values: ListFormValues) =>
      saveRecord({
        record: list,
        values,
        schema: mailingListSchema,
        create: createList,
        update: updateList,
      }),
    onClose,
  });

  return (
    <FormDialog {...dialog}>
      <DialogFields>
        <TextField {...field('name', t('dialog.name'))} required autoFocus />
        <TextField
          {...field('description', t('dialog.description'))}
          multiline
          rows={3}
          slotProps={{ input: { inputComponent: 'textarea' } }}
        />
      </DialogFields>
    </FormDialog>
  );
}
