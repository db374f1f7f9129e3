import type { CampaignDto, CampaignSettingsDto } from '@agency/contracts';
import { getIn, setIn, useFormik, type FormikErrors, type FormikHelpers } from 'formik';
import { useEffect, useRef } from 'react';
import { apiErrorMessage, fieldErrorsOf, useErrorText } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useCreateCampaignMutation, useUpdateCampaignMutation } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import {
  CAMPAIGN_SERVER_FIELDS,
  campaignBody,
  formPathOf,
  initialCampaignValues,
  validateCampaign,
  type CampaignFormValues,
} from '../components/campaign-form';

/** What a new campaign takes from the agency: its language and what it tracks. */
export type CampaignDefaults = Pick<CampaignSettingsDto, 'defaultLocale' | 'tracking'>;

export type CampaignEditorForm = ReturnType<typeof useFormik<CampaignFormValues>>;

/** formik's `setIn` for errors, typed for the form. */
function setInErrors(
  errors: FormikErrors<CampaignFormValues>,
  path: string,
  reason: string,
): FormikErrors<CampaignFormValues> {
  return setIn(errors, path, reason) as FormikErrors<CampaignFormValues>;
}

/** Creates or saves the campaign; the server's reasons land on the fields they are about. */
function useSaveCampaign(campaign: CampaignDto | undefined, onClose: () => void) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const [createCampaign] = useCreateCampaignMutation();
  const [updateCampaign] = useUpdateCampaignMutation();
  return async (values: CampaignFormValues, helpers: FormikHelpers<CampaignFormValues>) => {
    try {
      const body = await campaignBody(values);
      if (campaign) await updateCampaign({ id: campaign.id, body }).unwrap();
      else await createCampaign(body).unwrap();
      toast({ title: campaign ? t('toasts.updated') : t('toasts.created'), variant: 'success' });
      onClose();
    } catch (error: unknown) {
      const reasons = fieldErrorsOf(error, CAMPAIGN_SERVER_FIELDS);
      if (reasons) {
        let errors: FormikErrors<CampaignFormValues> = {};
        for (const [path, reason] of Object.entries(reasons)) {
          errors = setInErrors(errors, formPathOf(path, values), reason ?? '');
        }
        helpers.setErrors(errors);
      }
      toast({
        title: campaign ? t('toasts.updateFailed') : t('toasts.createFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
}

/**
 * The campaign editor's form. A new campaign starts in the agency's default
 * language and with its tracking defaults, even when the settings arrive
 * after the dialog opened, unless something was typed first.
 */
export function useCampaignEditorForm(
  campaign: CampaignDto | undefined,
  defaults: CampaignDefaults | undefined,
  onClose: () => void,
): CampaignEditorForm {
  const submit = useSaveCampaign(campaign, onClose);
  const formik = useFormik<CampaignFormValues>({
    initialValues: initialCampaignValues(campaign, defaults?.defaultLocale, defaults?.tracking),
    validate: validateCampaign,
    validateOnChange: false,
    onSubmit: submit,
  });
  const { dirty, setValues, values } = formik;
  const defaultsApplied = useRef(Boolean(campaign) || Boolean(defaults));
  useEffect(() => {
    if (defaultsApplied.current || !defaults) return;
    defaultsApplied.current = true;
    if (dirty) return;
    const { opens, clicks } = defaults.tracking;
    void setValues(
      { ...values, defaultLocale: defaults.defaultLocale, tracking: { opens, clicks } },
      false,
    );
  }, [defaults, dirty, setValues, values]);
  return formik;
}

/**
 * A field's props by its path in the form (`languages.fr.subject`), and its
 * error (translated) once the field was left or the form submitted.
 */
export function useCampaignFields(formik: CampaignEditorForm) {
  const errorText = useErrorText();
  const errorOf = (path: string) => {
    const shown = formik.submitCount > 0 || Boolean(getIn(formik.touched, path));
    return shown ? errorText(getIn(formik.errors, path)) : undefined;
  };
  const field = (path: string, label: string) => {
    const error = errorOf(path);
    return {
      id: `field-${path}`,
      name: path,
      label,
      value: (getIn(formik.values, path) as string | undefined) ?? '',
      onChange: formik.handleChange,
      onBlur: formik.handleBlur,
      error: Boolean(error),
      helperText: error,
      fullWidth: true,
    };
  };
  return { errorOf, field };
}

export type CampaignFields = ReturnType<typeof useCampaignFields>;
