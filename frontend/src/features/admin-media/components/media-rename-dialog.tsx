import { mediaUpdateSchema, type MediaDto, type MediaUpdateInput } from '@agency/contracts';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { MEDIA_NAMESPACE } from '../../../components/admin/media/media-namespace';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { useRecordSubmit } from '../../../components/admin/use-record-submit';
import { useRenameMediaMutation } from '../../../lib/media-api';
import { useNamespace } from '../../../lib/translations';

export interface MediaRenameDialogProps {
  item: MediaDto;
  onClose: () => void;
}

/**
 * Renames an image of the library. Only the name staff search and see
 * changes: the file and its address stay, so mails already showing it are
 * untouched.
 */
export function MediaRenameDialog({ item, onClose }: MediaRenameDialogProps) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const [rename] = useRenameMediaMutation();
  const submit = useRecordSubmit({
    fields: ['name'] as const,
    save: async (values: MediaUpdateInput) => {
      const body = await mediaUpdateSchema.validate(values, { stripUnknown: true });
      return rename({ id: item.id, body }).unwrap();
    },
    saved: t('renamed'),
    failed: { title: t('renameFailed') },
    onSaved: onClose,
  });
  const formik = useFormik<MediaUpdateInput>({
    initialValues: { name: item.name },
    validationSchema: mediaUpdateSchema,
    onSubmit: submit,
  });
  const field = useFormFields(formik);

  return (
    <FormDialog
      open
      title={t('renameTitle', { name: item.name })}
      submitLabel={t('renameSave')}
      busy={formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <DialogFields>
        <TextField
          {...field('name', t('renameName'))}
          required
          autoFocus
          onFocus={(event) => event.target.select()}
        />
      </DialogFields>
    </FormDialog>
  );
}
