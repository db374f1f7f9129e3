import {
  IMPORT_FIELDS,
  importStartSchema,
  type ImportDto,
  type ImportField,
} from '@agency/contracts';
import { useFormik, type FormikErrors } from 'formik';
import { ValidationError } from 'yup';
import { apiErrorMessage, fieldErrorsOf } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useStartImportMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** The form holds text: a column's index, or '' for a field not imported. */
export type MappingValues = Record<ImportField, string> & { listId: string; hasHeader: boolean };

function toInput(values: MappingValues) {
  const mapping: Partial<Record<ImportField, number>> = {};
  for (const field of IMPORT_FIELDS) {
    if (values[field] !== '') mapping[field] = Number(values[field]);
  }
  // No list chosen is a missing list, not a malformed one.
  return { listId: values.listId || undefined, hasHeader: values.hasHeader, mapping };
}

/** The contracts schema on what will be sent, its `mapping.<field>` reasons put under each field. */
async function validate(values: MappingValues): Promise<FormikErrors<MappingValues>> {
  try {
    await importStartSchema.validate(toInput(values), { abortEarly: false });
    return {};
  } catch (error: unknown) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: Record<string, string> = {};
    for (const inner of error.inner) {
      const name = (inner.path ?? '').replace(/^mapping\./, '');
      if (name && !errors[name]) errors[name] = inner.message;
    }
    return errors as FormikErrors<MappingValues>;
  }
}

/** The API's `listId` and `mapping.<field>` reasons, keyed by the form's own field names. */
function serverFieldErrors(error: unknown): FormikErrors<MappingValues> | undefined {
  const reasons = fieldErrorsOf(error, ['listId', ...IMPORT_FIELDS.map((f) => `mapping.${f}`)]);
  if (!reasons) return undefined;
  return Object.fromEntries(
    Object.entries(reasons).map(([name, reason]) => [name.replace(/^mapping\./, ''), reason]),
  ) as FormikErrors<MappingValues>;
}

/** The mapping form: the file's suggested columns to start from, and the import's start on submit. */
export function useImportMappingForm(file: ImportDto, listId: string | undefined) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const toast = useToast();
  const [start] = useStartImportMutation();
  const initial = Object.fromEntries(
    IMPORT_FIELDS.map((field) => [field, String(file.suggestedMapping[field] ?? '')]),
  ) as Record<ImportField, string>;
  return useFormik<MappingValues>({
    initialValues: { ...initial, listId: listId ?? '', hasHeader: file.hasHeader },
    validate,
    onSubmit: async (values, helpers) => {
      try {
        const body = await importStartSchema.validate(toInput(values), { stripUnknown: true });
        await start({ id: file.id, body }).unwrap();
      } catch (error: unknown) {
        const reasons = serverFieldErrors(error);
        if (reasons) helpers.setErrors(reasons);
        toast({
          title: t('import.startFailed'),
          description: apiErrorMessage(error),
          variant: 'destructive',
        });
      }
    },
  });
}
