import { yupToFormErrors, type FormikErrors, type FormikValues } from 'formik';
import { ValidationError, type ISchema } from 'yup';

/**
 * A formik `validate` that runs a contracts schema on what the form will
 * send. Forms hold text (a number field's value is a string); `toInput`
 * turns it into the request body, so the browser checks exactly what the
 * API will check, with the same schema.
 */
export function schemaValidator<Values extends FormikValues, Input>(
  schema: ISchema<Input>,
  toInput: (values: Values) => unknown,
) {
  return async (values: Values): Promise<FormikErrors<Values>> => {
    try {
      await schema.validate(toInput(values), { abortEarly: false });
      return {};
    } catch (error: unknown) {
      if (error instanceof ValidationError) return yupToFormErrors<Values>(error);
      throw error;
    }
  };
}

/**
 * What a number field holds (formik gives a number once one is typed, '' when
 * blank) as a JSON number, or undefined when left blank.
 */
export type NumberFieldValue = number | '';

export function optionalNumber(value: NumberFieldValue | string): number | undefined {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}
