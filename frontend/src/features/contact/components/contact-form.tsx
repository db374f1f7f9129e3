import {
  EMPTY_CONTACT_FORM,
  SERVICE_SLUGS,
  contactSchema,
  type ContactFormValues,
} from '@agency/contracts';
import SendIcon from '@mui/icons-material/Send';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useFormik, type FormikProps } from 'formik';
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useErrorText } from '../../../lib/api-errors';
import { useLocale } from '../../../lib/locale';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useSubmitContactMutation } from '../api/contact-api';
import { CONTACT_NAMESPACE } from '../contact-namespace';
import {
  CONTACT_FIELDS,
  serverFieldErrors,
  toContactRequest,
  type ContactField,
} from '../contact-submission';

const AUTOCOMPLETE: Partial<Record<ContactField, string>> = {
  firstName: 'given-name',
  lastName: 'family-name',
  email: 'email',
  phone: 'tel',
};

const REQUIRED: ReadonlySet<ContactField> = new Set([
  'firstName',
  'lastName',
  'email',
  'service',
  'message',
]);

/**
 * The form's state: formik with the API's schema, quiet until the first
 * submit and re-validating as the visitor corrects things afterwards. A sent
 * enquiry goes to the thank-you page; a refused one keeps its values and
 * shows the API's reasons under their fields.
 */
function useContactFormState() {
  const { t } = useNamespace(CONTACT_NAMESPACE);
  const locale = useLocale();
  const navigate = useNavigate();
  const toast = useToast();
  const [submitContact, { isLoading: sending }] = useSubmitContactMutation();
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const formik = useFormik<ContactFormValues>({
    initialValues: EMPTY_CONTACT_FORM,
    validationSchema: contactSchema,
    validateOnChange: submitAttempted,
    validateOnBlur: submitAttempted,
    onSubmit: async (values, helpers) => {
      try {
        await submitContact(await toContactRequest(values, locale)).unwrap();
      } catch (error) {
        toast({
          title: t('contact.form.errorTitle'),
          description: t('contact.form.errorDescription'),
          variant: 'destructive',
        });
        // The values stay; the API's own field reasons go under the fields they concern.
        const fieldErrors = serverFieldErrors(error);
        if (fieldErrors) helpers.setErrors(fieldErrors);
        return;
      }
      helpers.resetForm();
      setSubmitAttempted(false);
      await navigate('/thank-you');
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (sending) {
      event.preventDefault();
      return;
    }
    setSubmitAttempted(true);
    formik.handleSubmit(event);
  };
  return { formik, sending, onSubmit };
}

/** Once per submit attempt, when it has settled: moves focus to the first field to fix. */
function useFocusFirstInvalid(
  formRef: RefObject<HTMLFormElement | null>,
  { submitCount, isSubmitting, errors }: FormikProps<ContactFormValues>,
) {
  const focusedAttempt = useRef(0);
  useEffect(() => {
    if (isSubmitting || submitCount === focusedAttempt.current) return;
    focusedAttempt.current = submitCount;
    const firstInvalid = CONTACT_FIELDS.find((name) => errors[name]);
    if (!firstInvalid) return;
    const element = formRef.current?.elements.namedItem(firstInvalid);
    if (element instanceof HTMLElement) element.focus();
  }, [formRef, submitCount, isSubmitting, errors]);
}

/** What every text field of the form shares: its name, label, value, error and autofill. */
function useFieldProps(formik: FormikProps<ContactFormValues>) {
  const { t } = useNamespace(CONTACT_NAMESPACE);
  const errorMessage = useErrorText();
  return (name: ContactField): TextFieldProps => {
    const error = errorMessage(formik.errors[name]);
    return {
      id: name,
      name,
      label: t(`contact.form.${name}`),
      value: formik.values[name],
      onChange: formik.handleChange,
      onBlur: formik.handleBlur,
      error: Boolean(error),
      helperText: error,
      fullWidth: true,
      autoComplete: AUTOCOMPLETE[name],
      slotProps: { htmlInput: { 'aria-required': REQUIRED.has(name) || undefined } },
    };
  };
}

function ServiceField(props: TextFieldProps) {
  const { t } = useNamespace(CONTACT_NAMESPACE);
  const { t: tShell } = useTranslation();
  return (
    <TextField
      {...props}
      select
      // A native select works with any keyboard, screen reader and test driver.
      slotProps={{
        select: { native: true },
        inputLabel: { shrink: true },
        htmlInput: { 'aria-required': true },
      }}
    >
      <option value="">{t('contact.form.servicePlaceholder')}</option>
      {SERVICE_SLUGS.map((slug) => (
        <option key={slug} value={slug}>
          {tShell(`serviceNames.${slug}`)}
        </option>
      ))}
    </TextField>
  );
}

/**
 * The optional "send me news" box, unticked until the visitor ticks it. Its
 * label says what they agree to, as the consent recorded with the enquiry
 * names its wording (CONTACT_CONSENT_WORDING_VERSION): change both together.
 */
function NewsletterConsentField({ formik }: { formik: FormikProps<ContactFormValues> }) {
  const { t } = useNamespace(CONTACT_NAMESPACE);
  const errorMessage = useErrorText();
  const error = errorMessage(formik.errors.newsletterConsent);
  return (
    <>
      <FormControlLabel
        control={
          <Checkbox
            id="newsletterConsent"
            name="newsletterConsent"
            checked={formik.values.newsletterConsent}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            slotProps={{
              input: {
                'aria-invalid': Boolean(error),
                'aria-describedby': error ? 'newsletterConsent-error' : undefined,
              },
            }}
          />
        }
        label={t('contact.form.newsletterConsent')}
        // The label wraps on a phone: the box stays beside its first line.
        sx={{ alignItems: 'flex-start', '& .MuiCheckbox-root': { mt: -1 } }}
      />
      {error && (
        <FormHelperText id="newsletterConsent-error" error>
          {error}
        </FormHelperText>
      )}
    </>
  );
}

function SendButton({ sending }: { sending: boolean }) {
  const { t } = useNamespace(CONTACT_NAMESPACE);
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      fullWidth
      disabled={sending}
      endIcon={
        // The paper plane points the way the text reads.
        <SendIcon
          sx={{ transform: (theme) => (theme.direction === 'rtl' ? 'scaleX(-1)' : 'none') }}
        />
      }
    >
      {sending ? t('contact.form.sending') : t('contact.form.submit')}
    </Button>
  );
}

/** The enquiry form, validated by the same yup schema the API uses. */
export function ContactForm() {
  const { t } = useNamespace(CONTACT_NAMESPACE);
  const { formik, sending, onSubmit } = useContactFormState();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, formik);
  const fieldProps = useFieldProps(formik);

  // No accessible name on the form itself: "…message" would collide with the Message
  // field's label for label-based lookups (screen readers' and the e2e suite's).
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...fieldProps('firstName')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...fieldProps('lastName')} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...fieldProps('email')} type="email" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...fieldProps('phone')} type="tel" />
        </Grid>
        <Grid size={12}>
          <ServiceField {...fieldProps('service')} />
        </Grid>
        <Grid size={12}>
          <TextField
            {...fieldProps('message')}
            multiline
            rows={5}
            placeholder={t('contact.form.messagePlaceholder')}
            // A plain textarea the visitor can resize: MUI's auto-growing one measures
            // its layout after every render of the form, i.e. on each keystroke in any field.
            slotProps={{
              input: { inputComponent: 'textarea' },
              htmlInput: { 'aria-required': true, style: { resize: 'vertical' } },
            }}
          />
        </Grid>
        <Grid size={12}>
          <NewsletterConsentField formik={formik} />
        </Grid>
        <Grid size={12}>
          <SendButton sending={sending} />
        </Grid>
      </Grid>
    </form>
  );
}
