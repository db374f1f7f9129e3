import { CampaignArchiveSwitch } from './campaign-archive-switch';
import { LOCALES, type CampaignDto, type Locale } from '@agency/contracts';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useNamespace } from '../../../lib/translations';
import { useCampaignSettingsQuery } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import {
  useCampaignEditorForm,
  useCampaignFields,
  type CampaignEditorForm,
} from '../hooks/use-campaign-editor-form';
import { writtenLocales } from './campaign-form';
import {
  CampaignAudienceSection,
  CampaignLanguageTabs,
  CampaignSenderSection,
  CampaignTrackingSection,
  CampaignWindowSection,
} from './campaign-form-sections';
import { CampaignPreview } from './campaign-preview';

export interface CampaignDialogProps {
  /** A draft being edited; none to write a new campaign. */
  campaign?: CampaignDto;
  onClose: () => void;
}

/** Under the form, once more than one language is written: which ones will be sent. */
function WrittenLanguages({ formik }: { formik: CampaignEditorForm }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const written = writtenLocales(formik.values);
  if (written.length <= 1) return null;
  return (
    <Typography variant="caption" sx={{ display: 'block', mt: 2, color: 'text.secondary' }}>
      {t('dialog.writtenIn', {
        languages: written.map((locale) => t(`languages.${locale}`)).join(', '),
      })}
    </Typography>
  );
}

/**
 * The campaign editor: a subject and content per language written in the
 * rich-text editor, the template, the recipients, when it may be sent (a
 * window, a rate), and the live preview beside it.
 */
export function CampaignDialog({ campaign, onClose }: CampaignDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const { data: settings } = useCampaignSettingsQuery(undefined);
  // Until a language tab is chosen, the default language's shows.
  const [chosenTab, setTab] = useState<Locale | null>(campaign?.defaultLocale ?? null);
  const formik = useCampaignEditorForm(campaign, settings, onClose);
  const fields = useCampaignFields(formik);
  const { values } = formik;
  const tab = chosenTab ?? values.defaultLocale;

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
          <TextField {...fields.field('name', t('dialog.name'))} required autoFocus />
          <CampaignAudienceSection formik={formik} fields={fields} />
          <CampaignLanguageTabs formik={formik} fields={fields} tab={tab} onTabChange={setTab} />
          <CampaignWindowSection
            formik={formik}
            fields={fields}
            timeZone={settings?.timeZone ?? ''}
          />
          <CampaignSenderSection fields={fields} settings={settings} />
          <CampaignTrackingSection
            tracking={values.tracking}
            onChange={(tracking) => void formik.setFieldValue('tracking', tracking)}
          />
          <CampaignArchiveSwitch
            checked={values.publishToArchive}
            onChange={(checked) => void formik.setFieldValue('publishToArchive', checked)}
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
          segmentIds={values.segmentIds}
          templateId={values.templateId}
          placeholderFallbacks={values.placeholderFallbacks}
        />
      </Box>
      <WrittenLanguages formik={formik} />
    </FormDialog>
  );
}
