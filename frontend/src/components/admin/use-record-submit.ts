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

/** An RTK Query mutation's trigger, as a save step calls it. */
type SaveTrigger<Arg> = (arg: Arg) => { unwrap: () => Promise<unknown> };

export interface SaveRecordOptions<Body> {
  /** The record being edited; none when a new one is written. */
  record: { id: string } | undefined;
  values: unknown;
  /** The input's one schema in contracts: it checks, converts and strips the values. */
  schema: { validate: (values: unknown, options: { stripUnknown: true }) => Promise<Body> };
  create: SaveTrigger<Body>;
  update: SaveTrigger<{ id: string; body: Body }>;
}

/**
 * The record modals' save step: the body is what the contracts schema makes
 * of the values (the API checks it again), then the record being edited is
 * updated, or a new one created.
 */
export async function saveRecord<Body>({
  record,
  values,
  schema,
  create,
  update,
}: SaveRecordOptions<Body>): Promise<unknown> {
  const body = await schema.validate(values, { stripUnknown: true });
  return record ? update({ id: record.id, body }).unwrap() : create(body).unwrap();
}
