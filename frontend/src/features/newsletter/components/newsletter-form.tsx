import {
  EMPTY_NEWSLETTER_FORM,
  NEWSLETTER_CONFIRMATION_TTL_DAYS,
  newsletterSchema,
  type NewsletterFormValues,
} from '@agency/contracts';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { useState, type FormEvent } from 'react';
import { useErrorText } from '../../../lib/api-errors';
import { useLocale } from '../../../lib/locale';
import { useToast } from '../../../lib/use-toast';
import { usePublicListsQuery, useSubscribeNewsletterMutation } from '../api/newsletter-api';
import { useNamespace } from '../../../lib/translations';
import { NEWSLETTER_NAMESPACE } from '../newsletter-namespace';
import { PublicListChoice } from './public-list-choice';

/**
 * The form's state: formik with the API's schema, quiet until the first
 * submit. A subscription the API took clears the field and asks the visitor
 * to check their inbox; a refused one keeps the address.
 */
function useNewsletterFormState() {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const locale = useLocale();
  const toast = useToast();
  const [subscribe, { isLoading: subscribing }] = useSubscribeNewsletterMutation();
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [awaitingConfirmation, setAwaitingConfirmation] = useState(false);
  const formik = useFormik<NewsletterFormValues>({
    initialValues: EMPTY_NEWSLETTER_FORM,
    validationSchema: newsletterSchema,
    validateOnChange: submitAttempted,
    validateOnBlur: submitAttempted,
    onSubmit: async (values, helpers) => {
      try {
        // No list ticked: the request is the plain subscription it always was.
        const listIds = values.listIds.length > 0 ? values.listIds : undefined;
        const input = await newsletterSchema.validate(
          { ...values, listIds, locale },
          { stripUnknown: true },
        );
        await subscribe(input).unwrap();
      } catch {
        toast({
          title: t('errorTitle'),
          description: t('errorDescription'),
          variant: 'destructive',
        });
        return;
      }
      toast({ title: t('successTitle'), description: t('successDescription'), variant: 'success' });
      helpers.resetForm();
      setSubmitAttempted(false);
      setAwaitingConfirmation(true);
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (subscribing) {
      event.preventDefault();
      return;
    }
    setSubmitAttempted(true);
    setAwaitingConfirmation(false);
    formik.handleSubmit(event);
  };
  return { formik, subscribing, awaitingConfirmation, onSubmit };
}

/**
 * The public lists offered with the sign-up, named in the page language:
 * one confirmation mail confirms the subscription and every list ticked.
 */
function PublicListOptions({
  selected,
  onChange,
}: {
  selected: readonly string[];
  onChange: (listIds: string[]) => void;
}) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const locale = useLocale();
  const { data } = usePublicListsQuery(locale);
  return (
    <PublicListChoice
      lists={data?.items ?? []}
      selected={selected}
      onChange={onChange}
      legend={t('lists.legend')}
    />
  );
}

/**
 * The newsletter's form: an e-mail field and a subscribe button. It
 * posts the address with the page language; the confirmation mail follows
 * in that language, and nothing is sent until the visitor confirms it.
 */
export function NewsletterForm() {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const errorText = useErrorText();
  const { formik, subscribing, awaitingConfirmation, onSubmit } = useNewsletterFormState();
  const emailError = errorText(formik.errors.email);

  return (
    <>
      <form noValidate onSubmit={onSubmit}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'flex-start' }, justifyContent: 'center' }}
        >
          <TextField
            id="newsletter-email"
            name="email"
            type="email"
            autoComplete="email"
            label={t('emailLabel')}
            placeholder={t('emailPlaceholder')}
            value={formik.values.email}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={Boolean(emailError)}
            helperText={emailError ?? t('consent')}
            slotProps={{ htmlInput: { 'aria-required': true } }}
            sx={{ flexGrow: 1, maxWidth: { sm: 420 } }}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={subscribing}
            sx={{ py: 1.75, whiteSpace: 'nowrap' }}
          >
            {subscribing ? t('subscribing') : t('subscribe')}
          </Button>
        </Stack>
        <PublicListOptions
          selected={formik.values.listIds}
          onChange={(listIds) => void formik.setFieldValue('listIds', listIds)}
        />
      </form>
      {awaitingConfirmation ? (
        <Alert
          icon={<MarkEmailReadIcon fontSize="inherit" />}
          severity="info"
          role="status"
          sx={{ mt: 3, textAlign: 'start' }}
        >
          {t('checkInbox', { days: NEWSLETTER_CONFIRMATION_TTL_DAYS })}
        </Alert>
      ) : null}
    </>
  );
}
