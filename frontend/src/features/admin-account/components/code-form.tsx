import { twoFactorCodeSchema, type TwoFactorCodeInput } from '@agency/contracts';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { useFormFields } from '../../../components/admin/use-form-fields';

export interface CodeFormProps {
  label: string;
  submitLabel: string;
  busyLabel: string;
  /** A recovery code is letters and digits; an authenticator code six digits. */
  recovery?: boolean;
  /** Sends the code; answers the reason to show under the field when it was refused. */
  onSubmit: (code: string) => Promise<string | undefined>;
}

/** One code: from the authenticator app, or a recovery code. */
export function CodeForm({ label, submitLabel, busyLabel, recovery, onSubmit }: CodeFormProps) {
  const formik = useFormik<TwoFactorCodeInput>({
    initialValues: { code: '' },
    validationSchema: twoFactorCodeSchema,
    onSubmit: async ({ code }, helpers) => {
      const refused = await onSubmit(code.trim());
      if (refused) helpers.setErrors({ code: refused });
    },
  });
  const field = useFormFields(formik);
  const busy = formik.isSubmitting;
  return (
    <Stack component="form" noValidate onSubmit={formik.handleSubmit} spacing={2}>
      <TextField
        {...field('code', label)}
        autoComplete="one-time-code"
        autoFocus
        required
        slotProps={{
          htmlInput: recovery
            ? { autoCapitalize: 'characters', spellCheck: false, dir: 'ltr' }
            : { inputMode: 'numeric', pattern: '[0-9]*', maxLength: 6, dir: 'ltr' },
        }}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </Stack>
  );
}
