import type { TextFieldProps } from '@mui/material/TextField';
import type { FormikProps, FormikValues } from 'formik';
import { useErrorText } from '../../lib/api-errors';

/**
 * TextField props wired to a formik field: value, change and blur, and its
 * error (translated) once the field was left or the form submitted.
 */
export function useFormFields<Values extends FormikValues>(formik: FormikProps<Values>) {
  const errorText = useErrorText();
  return (name: keyof Values & string, label: string): TextFieldProps => {
    const shown = formik.submitCount > 0 || Boolean(formik.touched[name]);
    const error = shown ? errorText(formik.errors[name]) : undefined;
    const value: unknown = formik.values[name];
    return {
      id: `field-${name}`,
      name,
      label,
      value: value ?? '',
      onChange: formik.handleChange,
      onBlur: formik.handleBlur,
      error: Boolean(error),
      helperText: error,
      fullWidth: true,
    };
  };
}
