import {
  DEFAULT_TEMPLATE_ID,
  LOCALES,
  PLACEHOLDER_FALLBACK_MAX,
  RECIPIENT_TYPES,
  WEEKDAYS,
  directionOf,
  type AgencySender,
  type CampaignSettingsDto,
  type Locale,
  type MailingListDto,
  type Page,
  type RecipientType,
  type SegmentDto,
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
import { getIn } from 'formik';
import { optionItems } from '../../../components/admin/option-items';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useCampaignAudienceQuery,
  useCampaignListsQuery,
  useCampaignSegmentsAudienceQuery,
  useCampaignSegmentsQuery,
  useTemplateListQuery,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import type { CampaignEditorForm, CampaignFields } from '../hooks/use-campaign-editor-form';
import { audienceReach } from './audience-reach';
import { hasWritten, withDefaultLanguageCopied, type CampaignTracking } from './campaign-form';
import { EnquiryConsentFields } from './enquiry-consent-fields';
import { CopyFromDefault } from './copy-from-default';
import { RichTextEditor } from './rich-text-editor';

export interface CampaignSectionProps {
  formik: CampaignEditorForm;
  fields: CampaignFields;
}

/** Monday first, as the agency's week starts. */
const WEEK: readonly Weekday[] = [...WEEKDAYS.slice(1), 0];

/** `Name <address>`, as mail clients show a sender. */
function mailboxLabel(sender: AgencySender): string {
  return sender.name ? `${sender.name} <${sender.address}>` : sender.address;
}

/**
 * Each recipient type with the number of people a send would reach now,
 * with the lawful basis chosen. The other types do not depend on the lists,
 * so any answer counts them; the lists' count is only the answer for the
 * lists chosen now: while that walk runs (seconds, on a large store), the
 * answer for the lists chosen before (0 for none) would be read as this one's.
 */
function useRecipientsLabel({
  listIds,
  segmentIds,
  enquiryLawfulBasis,
}: CampaignEditorForm['values']) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const { data: audience, currentData: chosenListsAudience } = useCampaignAudienceQuery(listIds);
  const { currentData: chosenSegmentsAudience } = useCampaignSegmentsAudienceQuery(segmentIds, {
    skip: segmentIds.length === 0,
  });
  return (type: RecipientType) => {
    const label = t(`recipients.${type}`);
    const chosen = { lists: chosenListsAudience, segments: chosenSegmentsAudience };
    const counts = type === 'lists' || type === 'segments' ? chosen[type] : audience;
    if (counts) {
      const people = format.number(audienceReach(counts, type, enquiryLawfulBasis));
      return t('dialog.recipientCount', { label, people });
    }
    return audience ? t('dialog.recipientCounting', { label }) : label;
  };
}

/** The lists a campaign of type `lists` goes to, several at once. */
function CampaignListsField({
  formik,
  fields,
  lists,
}: CampaignSectionProps & { lists: Page<MailingListDto> | undefined }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <TextField
      {...fields.field('listIds', t('dialog.lists'))}
      select
      required
      value={formik.values.listIds}
      helperText={
        fields.errorOf('listIds') ??
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
  );
}

/** The segments a campaign of type `segments` goes to: their consenting people. */
function CampaignSegmentsField({
  formik,
  fields,
  segments,
}: CampaignSectionProps & { segments: Page<SegmentDto> | undefined }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <TextField
      {...fields.field('segmentIds', t('dialog.segments'))}
      select
      required
      value={formik.values.segmentIds}
      helperText={
        fields.errorOf('segmentIds') ??
        (segments && segments.items.length === 0
          ? t('dialog.noSegments')
          : t('dialog.segmentsHint'))
      }
      slotProps={{
        select: {
          multiple: true,
          renderValue: (selected) =>
            (selected as string[])
              .map((id) => segments?.items.find((segment) => segment.id === id)?.name ?? id)
              .join(', '),
        },
      }}
      onChange={(event) => {
        const value = event.target.value as unknown as string[] | string;
        const chosen = typeof value === 'string' ? value.split(',') : value;
        void formik.setFieldValue('segmentIds', chosen);
      }}
    >
      {(segments?.items ?? []).map((segment) => (
        <MenuItem key={segment.id} value={segment.id}>
          {segment.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Who receives it, in which template, and the language written first. */
export function CampaignAudienceSection({ formik, fields }: CampaignSectionProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  // Read as the editor opens, whichever type is chosen, so the lists are there when picked.
  const { data: lists } = useCampaignListsQuery(undefined);
  const { data: templates } = useTemplateListQuery(undefined);
  const { data: segments } = useCampaignSegmentsQuery(undefined, {
    skip: formik.values.recipientType !== 'segments',
  });
  const recipientsLabel = useRecipientsLabel(formik.values);
  const { field, errorOf } = fields;
  return (
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
      {formik.values.recipientType === 'lists' ? (
        <CampaignListsField formik={formik} fields={fields} lists={lists} />
      ) : null}
      {formik.values.recipientType === 'segments' ? (
        <CampaignSegmentsField formik={formik} fields={fields} segments={segments} />
      ) : null}
      <EnquiryConsentFields formik={formik} fields={fields} />
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
  );
}

/** On a translation's tab: what it is for, and the copy of the default language's text. */
function TranslationHint({ formik, tab }: { formik: CampaignEditorForm; tab: Locale }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const { values } = formik;
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
  return (
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
  );
}

/** One language's subject, content and default fallback. */
function LanguageFields({ formik, fields, tab }: CampaignSectionProps & { tab: Locale }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const { values } = formik;
  const { field, errorOf } = fields;
  return (
    <Stack spacing={2} sx={{ pt: 2 }}>
      {tab !== values.defaultLocale ? <TranslationHint formik={formik} tab={tab} /> : null}
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
  );
}

/** A tab per language (the default one named so, those with errors in red) and its fields. */
export function CampaignLanguageTabs({
  formik,
  fields,
  tab,
  onTabChange,
}: CampaignSectionProps & { tab: Locale; onTabChange: (locale: Locale) => void }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const { values } = formik;
  const languageLabel = (locale: Locale) =>
    locale === values.defaultLocale
      ? t('dialog.defaultLanguageTab', { language: t(`languages.${locale}`) })
      : t(`languages.${locale}`);
  const tabHasError = (locale: Locale) =>
    formik.submitCount > 0 && Boolean(getIn(formik.errors, `languages.${locale}`));
  return (
    <Box>
      <Tabs
        value={tab}
        onChange={(_event, locale: Locale) => onTabChange(locale)}
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
      <LanguageFields key={tab} formik={formik} fields={fields} tab={tab} />
    </Box>
  );
}

/** The days and hours a send may run in, behind a switch, on the agency's clock. */
export function CampaignWindowSection({
  formik,
  fields,
  timeZone,
}: CampaignSectionProps & { timeZone: string }) {
  const { t, i18n } = useNamespace(CAMPAIGNS_NAMESPACE);
  const { values } = formik;
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
  const daysError = fields.errorOf('window.days');
  const timeField = (path: 'window.start' | 'window.end', label: string) => (
    <TextField
      {...fields.field(path, label)}
      type="time"
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={values.windowEnabled}
            onChange={(event) => void formik.setFieldValue('windowEnabled', event.target.checked)}
          />
        }
        label={t('dialog.window')}
      />
      <FormHelperText sx={{ mt: 0 }}>{t('dialog.windowHint', { timeZone })}</FormHelperText>
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
          {daysError ? <FormHelperText error>{daysError}</FormHelperText> : null}
          <Stack direction="row" spacing={2}>
            {timeField('window.start', t('dialog.windowStart'))}
            {timeField('window.end', t('dialog.windowEnd'))}
          </Stack>
        </Stack>
      ) : null}
    </Box>
  );
}

/** How fast it is sent, from which sender, and where replies go. */
export function CampaignSenderSection({
  fields,
  settings,
}: {
  fields: CampaignFields;
  settings: CampaignSettingsDto | undefined;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const { field, errorOf } = fields;
  const defaultSender = settings?.senders.find((sender) => sender.address === settings.defaultFrom);
  return (
    <>
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
          {t('dialog.fromDefault', { sender: defaultSender ? mailboxLabel(defaultSender) : '' })}
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
    </>
  );
}

/**
 * Whether the mail counts opens and clicks. Without `onChange` the switches
 * are read-only: once a campaign left the drafts its mails went out with the
 * choice made then.
 */
export function CampaignTrackingSection({
  tracking,
  onChange,
}: {
  tracking: CampaignTracking;
  onChange?: (tracking: CampaignTracking) => void;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const trackingSwitch = (kind: keyof CampaignTracking) => (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={tracking[kind]}
            disabled={!onChange}
            onChange={(event) => onChange?.({ ...tracking, [kind]: event.target.checked })}
            slotProps={{ input: { 'aria-describedby': `tracking-${kind}-hint` } }}
          />
        }
        label={t(`dialog.tracking.${kind}`)}
      />
      <FormHelperText id={`tracking-${kind}-hint`} sx={{ mt: 0 }}>
        {t(`dialog.tracking.${kind}Hint`)}
      </FormHelperText>
    </Box>
  );
  return (
    <Stack component="fieldset" spacing={1} sx={{ border: 0, m: 0, p: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {t('dialog.tracking.legend')}
      </Typography>
      {trackingSwitch('opens')}
      {trackingSwitch('clicks')}
    </Stack>
  );
}
