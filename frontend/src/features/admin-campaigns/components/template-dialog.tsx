import {
  DEFAULT_TEMPLATE,
  TEMPLATE_SLOTS,
  CAMPAIGN_VARIABLES,
  campaignTemplateSchema,
  type CampaignTemplateDto,
  type CampaignTemplateInput,
  type Locale,
} from '@agency/contracts';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useRecordForm } from '../../../components/admin/use-record-form';
import { saveRecord } from '../../../components/admin/use-record-submit';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useNamespace } from '../../../lib/translations';
import { useCreateTemplateMutation, useUpdateTemplateMutation } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { CampaignPreview } from './campaign-preview';
import { RichTextEditor } from './rich-text-editor';

const TEMPLATE_FIELDS = [
  'name',
  'header',
  'footer',
  'layout',
  'brandColor',
  'backgroundColor',
  'textColor',
] as const;
const COLOURS = ['brandColor', 'backgroundColor', 'textColor'] as const;
const PREVIEW_LOCALES: readonly Locale[] = ['en', 'fr', 'ar'];

export interface TemplateDialogProps {
  /** A stored template being edited; none to make a new one from the default. */
  template?: CampaignTemplateDto;
  onClose: () => void;
}

/** The template's form, filled from the template or, for a new one, from the default. */
function useTemplateForm(template: CampaignTemplateDto | undefined, onClose: () => void) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [createTemplate] = useCreateTemplateMutation();
  const [updateTemplate] = useUpdateTemplateMutation();
  const source = template ?? DEFAULT_TEMPLATE;
  return useRecordForm({
    record: template,
    namespace: CAMPAIGNS_NAMESPACE,
    fields: TEMPLATE_FIELDS,
    initialValues: {
      name: template?.name ?? '',
      header: source.header,
      footer: source.footer,
      layout: source.layout,
      brandColor: source.brandColor,
      backgroundColor: source.backgroundColor,
      textColor: source.textColor,
    },
    validationSchema: campaignTemplateSchema,
    save: (values: CampaignTemplateInput) =>
      saveRecord({
        record: template,
        values,
        schema: campaignTemplateSchema,
        create: createTemplate,
        update: updateTemplate,
      }),
    failed: { title: template ? t('templates.updateFailed') : t('templates.createFailed') },
    onClose,
  });
}

type TemplateForm = ReturnType<typeof useTemplateForm>;

/** The layout's HTML, left to right, with the slots and variables it may hold. */
function LayoutField({ field }: Pick<TemplateForm, 'field'>) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <TextField
      {...field('layout', t('templates.layout'))}
      helperText={
        field('layout', '').helperText ??
        t('templates.layoutHint', {
          slots: [...TEMPLATE_SLOTS, ...CAMPAIGN_VARIABLES].map((name) => `{{${name}}}`).join(' '),
        })
      }
      required
      multiline
      minRows={8}
      slotProps={{
        input: { inputComponent: 'textarea' },
        htmlInput: {
          rows: 8,
          dir: 'ltr',
          style: { fontFamily: 'monospace', fontSize: 13, resize: 'vertical' },
        },
      }}
    />
  );
}

/** The name, the colours, the header and footer in the editor, then the layout. */
function TemplateFields({ formik, field }: Pick<TemplateForm, 'formik' | 'field'>) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const { values } = formik;
  return (
    <Stack spacing={2} sx={{ pt: 1, minWidth: 0 }}>
      <TextField {...field('name', t('templates.name'))} required autoFocus />
      <Stack direction="row" spacing={1.5}>
        {COLOURS.map((colour) => (
          <TextField
            key={colour}
            {...field(colour, t(`templates.${colour}`))}
            type="color"
            required
          />
        ))}
      </Stack>
      <RichTextEditor
        label={t('templates.header')}
        value={values.header}
        onChange={(html) => void formik.setFieldValue('header', html)}
        error={Boolean(field('header', '').error)}
        helperText={field('header', '').helperText}
      />
      <RichTextEditor
        label={t('templates.footer')}
        value={values.footer}
        onChange={(html) => void formik.setFieldValue('footer', html)}
        error={Boolean(field('footer', '').error)}
        helperText={field('footer', '').helperText}
      />
      <LayoutField field={field} />
    </Stack>
  );
}

/**
 * A reusable layout: its name, brand colours, a header and a footer written
 * in the editor, and the layout's HTML holding `{{content}}` where each
 * campaign goes, previewed with a sample campaign as it is edited.
 */
export function TemplateDialog({ template, onClose }: TemplateDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [locale, setLocale] = useState<Locale>('en');
  const { formik, field, dialog } = useTemplateForm(template, onClose);

  return (
    <FormDialog
      {...dialog}
      maxWidth="lg"
      title={template ? t('templates.editTitle') : t('templates.addTitle')}
      submitLabel={template ? t('dialog.save') : t('templates.create')}
    >
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <TemplateFields formik={formik} field={field} />
        <CampaignPreview
          subject={t('templates.sampleSubject')}
          content={t('templates.sampleContent')}
          locale={locale}
          locales={PREVIEW_LOCALES}
          onLocaleChange={setLocale}
          recipientType="all"
          template={formik.values}
        />
      </Box>
    </FormDialog>
  );
}
