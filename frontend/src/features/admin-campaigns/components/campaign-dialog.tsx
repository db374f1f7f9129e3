import {
  DEFAULT_TEMPLATE_ID,
  LOCALES,
  PLACEHOLDER_FALLBACK_MAX,
  RECIPIENT_TYPES,
  WEEKDAYS,
  directionOf,
  type AgencySender,
  type CampaignDto,
  type Locale,
  type RecipientType,
  type Weekday,
} from '@agency/contracts';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { getIn, setIn, useFormik, type FormikErrors, type FormikHelpers } from 'formik';
import { useEffect, useRef, useState } from 'react';
import { FormDialog } from '../../../components/admin/form-dialog';
import { optionItems } from '../../../components/admin/option-items';
import { apiErrorMessage, fieldErrorsOf, useErrorText } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useCampaignAudienceQuery,
  useCampaignListsQuery,
  useCampaignSettingsQuery,
  useCreateCampaignMutation,
  useTemplateListQuery,
  useUpdateCampaignMutation,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import {
  CAMPAIGN_SERVER_FIELDS,
  campaignBody,
  formPathOf,
  hasWritten,
  initialCampaignValues,
  validateCampaign,
  withDefaultLanguageCopied,
  writtenLocales,
  type CampaignFormValues,
} from './campaign-form';
import { CampaignPreview } from './campaign-preview';
import { CopyFromDefault } from './copy-from-default';
import { RichTextEditor } from './rich-text-editor';

export interface CampaignDialogProps {
  /** A draft being edited; none to write a new campaign. */
  campaign?: CampaignDto;
  onClose: () => void;
}

/** Monday first, as the agency's week starts. */
const WEEK: readonly Weekday[] = [...WEEKDAYS.slice(1), 0];

/**
 * The campaign editor: a subject and content per language written in the
 * rich-text editor, the template, the recipients, when it may be sent (a
 * window, a rate), and the live preview beside it.
 */
export function CampaignDialog({ campaign, onClose }: CampaignDialogProps) {
  const { t, i18n } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const errorText = useErrorText();
  const { data: lists } = useCampaignListsQuery(undefined);
  const { data: settings } = useCampaignSettingsQuery(undefined);
  const { data: templates } = useTemplateListQuery(undefined);
  const [createCampaign] = useCreateCampaignMutation();
  const [updateCampaign] = useUpdateCampaignMutation();
  // Until a language tab is chosen, the default language's shows.
  const [chosenTab, setTab] = useState<Locale | null>(campaign?.defaultLocale ?? null);
  const submit = async (values: CampaignFormValues, helpers: FormikHelpers<CampaignFormValues>) => {
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

  const formik = useFormik<CampaignFormValues>({
    initialValues: initialCampaignValues(campaign, settings?.defaultLocale),
    validate: validateCampaign,
    validateOnChange: false,
    onSubmit: submit,
  });
  const { values, dirty, setFieldValue } = formik;
  const tab = chosenTab ?? values.defaultLocale;
  // A new campaign starts in the agency's default language, even when the
  // settings arrive after the dialog opened, unless something was typed first.
  const agencyLocale = settings?.defaultLocale;
  const agencyLocaleApplied = useRef(Boolean(campaign) || Boolean(agencyLocale));
  useEffect(() => {
    if (agencyLocaleApplied.current || !agencyLocale) return;
    agencyLocaleApplied.current = true;
    if (dirty) return;
    void setFieldValue('defaultLocale', agencyLocale, false);
  }, [agencyLocale, dirty, setFieldValue]);
  const defaultSender = settings?.senders.find((sender) => sender.address === settings.defaultFrom);
  // The count beside each type is the walk the send would make now, the chosen lists' included.
  const { data: audience, currentData: chosenListsAudience } = useCampaignAudienceQuery(
    values.listIds,
  );

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
      value: (getIn(values, path) as string | undefined) ?? '',
      onChange: formik.handleChange,
      onBlur: formik.handleBlur,
      error: Boolean(error),
      helperText: error,
      fullWidth: true,
    };
  };

  const recipientsLabel = (type: RecipientType) => {
    const label = t(`recipients.${type}`);
    // The other types do not depend on the lists, so any answer counts them; the lists' count
    // is only the answer for the lists chosen now: while that walk runs (seconds, on a large
    // store), the answer for the lists chosen before (0 for none) would be read as this one's.
    const counts = type === 'lists' ? chosenListsAudience : audience;
    if (counts) return t('dialog.recipientCount', { label, people: format.number(counts[type]) });
    return audience ? t('dialog.recipientCounting', { label }) : label;
  };

  const weekdayName = (day: Weekday) =>
    new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 7 + day)),
    );
  const toggleDay = (day: Weekday) => {
    const days = values.window.days.includes(day)
      ? values.window.days.filter((item) => item !== day)
      : [...values.window.days, day].sort((a, b) => a - b);
    void formik.setFieldValue('window.days', days);
  };

  const languageLabel = (locale: Locale) =>
    locale === values.defaultLocale
      ? t('dialog.defaultLanguageTab', { language: t(`languages.${locale}`) })
      : t(`languages.${locale}`);
  const copyDefaultInto = (locale: Locale) => {
    void formik.setValues(withDefaultLanguageCopied(values, locale));
    toast({
      title: t('dialog.copied', {
        source: t(`languages.${values.defaultLocale}`),
        language: t(`languages.${locale}`),
      }),
      variant: 'success',
    });
  };
  const tabHasError = (locale: Locale) =>
    formik.submitCount > 0 && Boolean(getIn(formik.errors, `languages.${locale}`));

  return (
    <FormDialog
      open
      maxWidth="lg"
      title={campaign ? t('dialog.editTitle') : t('dialog.addTitle')}
      submitLabel={campaign ? t('dialog.save') : t('dialog.create')}
      busy={formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <Stack spacing={2} sx={{ pt: 1, minWidth: 0 }}>
          <TextField {...field('name', t('dialog.name'))} required autoFocus />
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' },
            }}
          >
            <TextField {...field('recipientType', t('dialog.recipientType'))} select>
              {optionItems(RECIPIENT_TYPES, recipientsLabel)}
            </TextField>
            {values.recipientType === 'lists' ? (
              <TextField
                {...field('listIds', t('dialog.lists'))}
                select
                required
                value={values.listIds}
                helperText={
                  errorOf('listIds') ??
                  (lists && lists.items.length === 0 ? t('dialog.noLists') : t('dialog.listsHint'))
                }
                slotProps={{
                  select: {
                    multiple: true,
                    renderValue: (selected) =>
                      (selected as string[])
                        .map((id) => lists?.items.find((list) => list.id === id)?.name ?? id)
                        .join(', '),
                  },
                }}
                onChange={(event) => {
                  const value = event.target.value as unknown as string[] | string;
                  const chosen = typeof value === 'string' ? value.split(',') : value;
                  void formik.setFieldValue('listIds', chosen);
                }}
              >
                {(lists?.items ?? []).map((list) => (
                  <MenuItem key={list.id} value={list.id}>
                    {list.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
            <TextField {...field('templateId', t('dialog.template'))} select>
              <MenuItem value={DEFAULT_TEMPLATE_ID}>{t('templates.defaultName')}</MenuItem>
              {(templates?.items ?? [])
                .filter((template) => !template.builtIn)
                .map((template) => (
                  <MenuItem key={template.id} value={template.id}>
                    {template.name}
                  </MenuItem>
                ))}
            </TextField>
            <TextField
              {...field('defaultLocale', t('dialog.defaultLanguage'))}
              select
              helperText={errorOf('defaultLocale') ?? t('dialog.defaultLanguageHint')}
            >
              {optionItems(LOCALES, (locale) => t(`languages.${locale}`))}
            </TextField>
          </Box>
          <Box>
            <Tabs
              value={tab}
              onChange={(_event, locale: Locale) => setTab(locale)}
              aria-label={t('dialog.languages')}
              variant="scrollable"
            >
              {LOCALES.map((locale) => (
                <Tab
                  key={locale}
                  value={locale}
                  label={languageLabel(locale)}
                  sx={tabHasError(locale) ? { color: 'error.main' } : undefined}
                />
              ))}
            </Tabs>
            <Stack spacing={2} sx={{ pt: 2 }} key={tab}>
              {tab !== values.defaultLocale ? (
                <>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {t('dialog.translationHint', { language: t(`languages.${tab}`) })}
                  </Typography>
                  <CopyFromDefault
                    locale={tab}
                    defaultLocale={values.defaultLocale}
                    hasText={hasWritten(values, tab)}
                    disabled={!hasWritten(values, values.defaultLocale)}
                    onCopy={() => copyDefaultInto(tab)}
                  />
                </>
              ) : null}
              <TextField
                {...field(`languages.${tab}.subject`, t('dialog.subject'))}
                required={tab === values.defaultLocale}
                slotProps={{ htmlInput: { dir: directionOf(tab) } }}
              />
              <RichTextEditor
                label={t('dialog.content')}
                value={values.languages[tab].content}
                onChange={(html) => void formik.setFieldValue(`languages.${tab}.content`, html)}
                dir={directionOf(tab)}
                error={Boolean(errorOf(`languages.${tab}.content`))}
                helperText={errorOf(`languages.${tab}.content`) ?? t('dialog.contentHint')}
              />
              <TextField
                {...field(
                  `placeholderFallbacks.${tab}`,
                  t('dialog.defaultFallback', { language: t(`languages.${tab}`) }),
                )}
                required
                helperText={
                  errorOf(`placeholderFallbacks.${tab}`) ??
                  t('dialog.defaultFallbackHint', {
                    example: `{{firstName|${values.placeholderFallbacks[tab]}}}`,
                  })
                }
                slotProps={{
                  htmlInput: { dir: directionOf(tab), maxLength: PLACEHOLDER_FALLBACK_MAX },
                }}
              />
            </Stack>
          </Box>
          <Box>
            <FormControlLabel
              control={
                <Switch
                  checked={values.windowEnabled}
                  onChange={(event) =>
                    void formik.setFieldValue('windowEnabled', event.target.checked)
                  }
                />
              }
              label={t('dialog.window')}
            />
            <FormHelperText sx={{ mt: 0 }}>
              {t('dialog.windowHint', { timeZone: settings?.timeZone ?? '' })}
            </FormHelperText>
            {values.windowEnabled ? (
              <Stack spacing={1.5} sx={{ mt: 1 }}>
                <FormGroup row aria-label={t('dialog.windowDays')}>
                  {WEEK.map((day) => (
                    <FormControlLabel
                      key={day}
                      control={
                        <Checkbox
                          size="small"
                          checked={values.window.days.includes(day)}
                          onChange={() => toggleDay(day)}
                        />
                      }
                      label={weekdayName(day)}
                    />
                  ))}
                </FormGroup>
                {errorOf('window.days') ? (
                  <FormHelperText error>{errorOf('window.days')}</FormHelperText>
                ) : null}
                <Stack direction="row" spacing={2}>
                  <TextField
                    {...field('window.start', t('dialog.windowStart'))}
                    type="time"
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                  <TextField
                    {...field('window.end', t('dialog.windowEnd'))}
                    type="time"
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                </Stack>
              </Stack>
            ) : null}
          </Box>
          <TextField
            {...field('ratePerMinute', t('dialog.rate'))}
            type="number"
            helperText={
              errorOf('ratePerMinute') ??
              (settings?.maxRatePerMinute
                ? t('dialog.rateHintCap', { max: format.number(settings.maxRatePerMinute) })
                : t('dialog.rateHint'))
            }
            slotProps={{ htmlInput: { min: 1, step: 1 } }}
          />
          <TextField
            {...field('fromAddress', t('dialog.from'))}
            select
            helperText={errorOf('fromAddress') ?? t('dialog.fromHint')}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">
              {t('dialog.fromDefault', {
                sender: defaultSender ? mailboxLabel(defaultSender) : '',
              })}
            </MenuItem>
            {(settings?.senders ?? []).map((sender) => (
              <MenuItem key={sender.address} value={sender.address} dir="ltr">
                {mailboxLabel(sender)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field('replyTo', t('dialog.replyTo'))}
            helperText={
              errorOf('replyTo') ?? t('dialog.replyToHint', { address: settings?.replyTo ?? '' })
            }
            inputMode="email"
            slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
          />
        </Stack>
        <CampaignPreview
          subject={values.languages[tab].subject}
          content={values.languages[tab].content}
          locale={tab}
          locales={LOCALES}
          onLocaleChange={setTab}
          recipientType={values.recipientType}
          listIds={values.listIds}
          templateId={values.templateId}
          placeholderFallbacks={values.placeholderFallbacks}
        />
      </Box>
      {writtenLocales(values).length > 1 ? (
        <Typography variant="caption" sx={{ display: 'block', mt: 2, color: 'text.secondary' }}>
          {t('dialog.writtenIn', {
            languages: writtenLocales(values)
              .map((locale) => t(`languages.${locale}`))
              .join(', '),
          })}
        </Typography>
      ) : null}
    </FormDialog>
  );
}

/** `Name <address>`, as mail clients show a sender. */
function mailboxLabel(sender: AgencySender): string {
  return sender.name ? `${sender.name} <${sender.address}>` : sender.address;
}

/** formik's `setIn` for errors, typed for the form. */
function setInErrors(
  errors: FormikErrors<CampaignFormValues>,
  path: string,
  reason: string,
): FormikErrors<CampaignFormValues> {
  return setIn(errors, path, reason) as FormikErrors<CampaignFormValues>;
}
