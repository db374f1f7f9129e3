import { suppressionSchema } from '@agency/contracts';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { useRecordSubmit } from '../../../components/admin/use-record-submit';
import { useNamespace } from '../../../lib/translations';
import { useAddSuppressionMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

interface SuppressionFormValues {
  email: string;
  note: string;
}

/** Staff suppressing one address by hand, with a note saying why. */
export function SuppressionDialog({ onClose }: { onClose: () => void }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const [addSuppression] = useAddSuppressionMutation();
  const onSubmit = useRecordSubmit({
    fields: ['email', 'note'] as const,
    save: async (values: SuppressionFormValues) =>
      addSuppression(await suppressionSchema.validate(values, { stripUnknown: true })).unwrap(),
    saved: t('suppression.toasts.created'),
    failed: {
      title: t('suppression.toasts.errorTitle'),
      fallback: t('suppression.toasts.createFailed'),
    },
    onSaved: onClose,
  });
  const formik = useFormik<SuppressionFormValues>({
    initialValues: { email: '', note: '' },
    validationSchema: suppressionSchema,
    onSubmit,
  });
  const field = useFormFields(formik);

  return (
    <FormDialog
      open
      title={t('suppression.dialog.addTitle')}
      submitLabel={t('suppression.dialog.create')}
      busy={formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <DialogFields>
        <TextField
          {...field('email', t('suppression.dialog.email'))}
          type="email"
          required
          autoFocus
        />
        <TextField
          {...field('note', t('suppression.dialog.note'))}
          helperText={field('note', '').helperText ?? t('suppression.dialog.noteHint')}
        />
      </DialogFields>
    </FormDialog>
  );
}
