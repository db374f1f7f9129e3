import { useFormik, type FormikConfig, type FormikValues } from 'formik';
import type { FormDialogProps } from './form-dialog';
import { useFormFields } from './use-form-fields';
import { useRecordSubmit, type RecordSubmitOptions } from './use-record-submit';
import { useNamespace, type Namespace } from '../../lib/translations';

export interface RecordFormOptions<Values extends FormikValues, Field extends keyof Values & string>
  extends
    Pick<RecordSubmitOptions<Values, Field>, 'fields' | 'save'>,
    Pick<FormikConfig<Values>, 'initialValues' | 'validate' | 'validationSchema'> {
  /** The record being edited; none when a new one is written. */
  record: unknown;
  /**
   * The feature's catalogue. It holds the modal's texts under the keys every
   * record modal uses: dialog.addTitle / editTitle / create / save and
   * toasts.created / updated / errorTitle / createFailed / updateFailed.
   */
  namespace: Namespace;
  /** The error toast, when it is not "Error" with the create/update failure as its fallback. */
  failed?: RecordSubmitOptions<Values, Field>['failed'];
  onClose: () => void;
}

/** The parts of a record modal the hook wires: FormDialog's props without its fields. */
export type RecordDialogProps = Omit<FormDialogProps, 'children'>;

/**
 * One Add/Edit record modal's form: formik with the contracts schema, the
 * save with its toasts and the API's per-field reasons, the fields' props,
 * and the dialog's title, submit label and busy state for a new record or
 * an edited one.
 */
export function useRecordForm<Values extends FormikValues, Field extends keyof Values & string>({
  record,
  namespace,
  fields,
  save,
  failed,
  initialValues,
  validate,
  validationSchema,
  onClose,
}: RecordFormOptions<Values, Field>) {
  const { t } = useNamespace(namespace);
  const editing = record !== undefined;
  const onSubmit = useRecordSubmit({
    fields,
    save,
    saved: editing ? t('toasts.updated') : t('toasts.created'),
    failed: failed ?? {
      title: t('toasts.errorTitle'),
      fallback: editing ? t('toasts.updateFailed') : t('toasts.createFailed'),
    },
    onSaved: onClose,
  });
  const formik = useFormik<Values>({ initialValues, validate, validationSchema, onSubmit });
  const field = useFormFields(formik);
  const dialog: RecordDialogProps = {
    open: true,
    title: editing ? t('dialog.editTitle') : t('dialog.addTitle'),
    submitLabel: editing ? t('dialog.save') : t('dialog.create'),
    busy: formik.isSubmitting,
    onSubmit: formik.handleSubmit,
    onClose,
  };
  return { formik, field, dialog, editing };
}
