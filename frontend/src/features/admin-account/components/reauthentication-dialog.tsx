import { reauthenticationSchema, type ReauthenticationInput } from '@agency/contracts';
import Button from '@mui/material/Button';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useFormik, yupToFormErrors } from 'formik';
import { useState } from 'react';
import { FormDialog } from '../../../components/admin/form-dialog';
import { PasswordField } from '../../../components/admin/password-field';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { useNamespace } from '../../../lib/translations';
import { ACCOUNT_NAMESPACE } from '../account-namespace';

/** The server's reasons, by field, for a proof it refused. */
export type ProofRefusal = Partial<Record<'password' | 'code', string>>;

export interface ReauthenticationDialogProps {
  title: string;
  description: string;
  submitLabel: string;
  /** Two-factor sign-in is on: a current authenticator code may stand in for the password. */
  codeAccepted: boolean;
  /** Sends the proof with the change; answers the reasons to show when it was refused. */
  onSubmit: (proof: ReauthenticationInput) => Promise<ProofRefusal | undefined>;
  onClose: () => void;
}

type Proof = 'password' | 'code';

const EMPTY: Record<Proof, ReauthenticationInput> = {
  password: { password: '' },
  code: { code: '' },
};

/**
 * Asks for the password (or, while two-factor sign-in is on, a current code)
 * before a change that could take the account from its owner: a session
 * alone is not enough for those. Render it only while it is asking, so
 * nothing typed outlives it.
 */
export function ReauthenticationDialog({
  title,
  description,
  submitLabel,
  codeAccepted,
  onSubmit,
  onClose,
}: ReauthenticationDialogProps) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const [proof, setProof] = useState<Proof>('password');
  const formik = useFormik<ReauthenticationInput>({
    initialValues: EMPTY.password,
    // Not `validationSchema`: formik would turn the empty field into
    // undefined first, and the schema could not tell that a code was asked.
    validate: async (values) => {
      try {
        await reauthenticationSchema.validate(values, { abortEarly: false });
        return {};
      } catch (error: unknown) {
        return yupToFormErrors<ReauthenticationInput>(error);
      }
    },
    onSubmit: async (values, helpers) => {
      const refused = await onSubmit(values);
      if (refused) helpers.setErrors(refused);
    },
  });
  const field = useFormFields(formik);

  const switchTo = (next: Proof) => {
    setProof(next);
    formik.resetForm({ values: EMPTY[next] });
  };
  return (
    <FormDialog
      open
      title={title}
      submitLabel={submitLabel}
      busy={formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <Stack spacing={2}>
        <DialogContentText>{description}</DialogContentText>
        {proof === 'password' ? (
          <PasswordField
            {...field('password', t('reauthentication.password'))}
            autoComplete="current-password"
            autoFocus
            required
          />
        ) : (
          <TextField
            {...field('code', t('twoFactor.code'))}
            autoComplete="one-time-code"
            autoFocus
            required
            slotProps={{
              htmlInput: { inputMode: 'numeric', maxLength: 6, dir: 'ltr' },
            }}
          />
        )}
        {codeAccepted ? (
          <Button
            onClick={() => switchTo(proof === 'password' ? 'code' : 'password')}
            sx={{ alignSelf: 'flex-start' }}
          >
            {proof === 'password'
              ? t('reauthentication.useCode')
              : t('reauthentication.usePassword')}
          </Button>
        ) : null}
      </Stack>
    </FormDialog>
  );
}
