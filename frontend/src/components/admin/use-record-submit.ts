import type { FormikErrors, FormikHelpers } from 'formik';
import { apiErrorMessage, fieldErrorsOf } from '../../lib/api-errors';
import { useToast } from '../../lib/use-toast';

export interface RecordSubmitOptions<Values, Field extends keyof Values & string> {
  /** The form's fields: the API's reasons for these are shown under them. */
  fields: readonly Field[];
  /** Validates with the contracts schema and creates or updates the record (RTK Query, unwrapped). */
  save: (values: Values) => Promise<unknown>;
  /** The success toast's title. */
  saved: string;
  /** The error toast: its title, and the description when the API gives no reason. */
  failed: { title: string; fallback?: string };
  onSaved: () => void;
}

/**
 * A record modal's formik `onSubmit`: saves, says so and closes; on failure
 * puts the API's per-field reasons under the fields and its message in an
 * error toast, and keeps what was typed.
 */
export function useRecordSubmit<Values, Field extends keyof Values & string>({
  fields,
  save,
  saved,
  failed,
  onSaved,
}: RecordSubmitOptions<Values, Field>) {
  const toast = useToast();
  return async (values: Values, helpers: FormikHelpers<Values>) => {
    try {
      await save(values);
      toast({ title: saved, variant: 'success' });
      onSaved();
    } catch (error: unknown) {
      const reasons = fieldErrorsOf(error, fields);
      if (reasons) helpers.setErrors(reasons as FormikErrors<Values>);
      toast({
        title: failed.title,
        description: apiErrorMessage(error) ?? failed.fallback,
        variant: 'destructive',
      });
    }
  };
}
