import type {
  CampaignPreviewDto,
  CampaignPreviewInput,
  CampaignTemplateInput,
  Locale,
  RecipientType,
  CampaignSampleRecipientDto,
} from '@agency/contracts';
import ComputerIcon from '@mui/icons-material/Computer';
import SmartphoneIcon from '@mui/icons-material/Smartphone';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useNamespace } from '../../../lib/translations';
import { usePreviewCampaignMutation, useSampleRecipientsQuery } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

/** The phone width the preview shows, as the smallest layout. */
export const PHONE_WIDTH = 375;
const DESKTOP_WIDTH = 680;
/** Renders wait this long after the last keystroke. */
const PREVIEW_DEBOUNCE_MS = 400;

export interface CampaignPreviewProps {
  subject: string;
  content: string;
  locale: Locale;
  /** The languages the campaign is written in: the preview may show each. */
  locales: readonly Locale[];
  onLocaleChange: (locale: Locale) => void;
  recipientType: RecipientType;
  /** For `lists`: the lists whose members the preview may be filled in for. */
  listIds?: readonly string[];
  /** For `segments`: the segments whose consenting people it may be filled in for. */
  segmentIds?: readonly string[];
  templateId?: string | null;
  /** A template being edited, shown before it is saved. */
  template?: CampaignTemplateInput;
  /** The editor's default fallbacks: a nameless recipient's mail says them. */
  placeholderFallbacks?: Partial<Record<Locale, string>>;
}

type PreviewWidth = 'desktop' | 'phone';

/** One of the audience's recipients to fill the preview in for, by name (or address) and language. */
function RecipientSelect({
  samples,
  recipient,
  onChange,
}: {
  samples: readonly CampaignSampleRecipientDto[];
  recipient: CampaignSampleRecipientDto | undefined;
  onChange: (email: string) => void;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <TextField
      select
      size="small"
      label={t('preview.recipient')}
      value={recipient?.email ?? ''}
      onChange={(event) => onChange(event.target.value)}
      disabled={samples.length === 0}
      sx={{ minWidth: 180, flex: 1 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      {samples.length === 0 ? (
        <MenuItem value="">{t('preview.noRecipient')}</MenuItem>
      ) : (
        samples.map((item) => (
          <MenuItem key={item.email} value={item.email}>
            {[item.firstName, item.lastName].filter(Boolean).join(' ') || item.email}
            {` · ${item.locale}`}
          </MenuItem>
        ))
      )}
    </TextField>
  );
}

/** A desktop's width or a phone's. */
function WidthToggle({
  width,
  onChange,
}: {
  width: PreviewWidth;
  onChange: (width: PreviewWidth) => void;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={width}
      onChange={(_event, value: PreviewWidth | null) => value && onChange(value)}
      aria-label={t('preview.width')}
    >
      <ToggleButton value="desktop" aria-label={t('preview.desktop')}>
        <ComputerIcon fontSize="small" />
      </ToggleButton>
      <ToggleButton value="phone" aria-label={t('preview.phone', { width: PHONE_WIDTH })}>
        <SmartphoneIcon fontSize="small" />
      </ToggleButton>
    </ToggleButtonGroup>
  );
}

/** The rendered subject, then the mail in a frame that runs no script. */
function RenderedMail({ preview, width }: { preview: CampaignPreviewDto; width: PreviewWidth }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <>
      <Typography variant="body2" dir={preview.dir} sx={{ fontWeight: 600 }}>
        <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
          {t('preview.subject')}{' '}
        </Box>
        <span data-testid="preview-subject">{preview.subject}</span>
      </Typography>
      <Box sx={{ overflowX: 'auto', bgcolor: 'action.hover', borderRadius: 1, p: 1 }}>
        <Box
          component="iframe"
          title={t('preview.frame', { language: t(`languages.${preview.locale}`) })}
          srcDoc={preview.html}
          sandbox=""
          data-width={width}
          sx={{
            display: 'block',
            mx: 'auto',
            border: 0,
            bgcolor: '#fff',
            width: width === 'phone' ? PHONE_WIDTH : '100%',
            maxWidth: width === 'phone' ? PHONE_WIDTH : DESKTOP_WIDTH,
            height: 520,
          }}
        />
      </Box>
    </>
  );
}

/** The server's rendering of what the editor holds, asked for again a moment after it changes. */
function useRenderedPreview(
  { subject, content, locale, templateId, template, placeholderFallbacks }: CampaignPreviewProps,
  recipient: CampaignSampleRecipientDto | undefined,
) {
  const [render, rendered] = usePreviewCampaignMutation();
  // The request as text: the effect runs again only when what it asks for changes,
  // not each time the editor hands over an equal template or recipient object.
  const request = JSON.stringify({
    subject,
    content,
    locale,
    templateId: templateId ?? null,
    ...(template ? { template } : {}),
    ...(placeholderFallbacks ? { placeholderFallbacks } : {}),
    ...(recipient
      ? {
          recipient: {
            email: recipient.email,
            firstName: recipient.firstName,
            lastName: recipient.lastName,
          },
        }
      : {}),
  });
  useEffect(() => {
    const timer = setTimeout(
      () => void render(JSON.parse(request) as Partial<CampaignPreviewInput>),
      PREVIEW_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [render, request]);
  return rendered;
}

/**
 * The latest rendering received. A new render request clears the mutation's
 * data until its answer comes: showing that would take the mail off the
 * screen (and its frame out of the page) at every pause in typing.
 */
function useLastRendering(
  received: CampaignPreviewDto | undefined,
): CampaignPreviewDto | undefined {
  const [last, setLast] = useState(received);
  if (received && received !== last) setLast(received);
  return received ?? last;
}

/**
 * The mail beside the editor, as the server renders it with the worker's
 * own code: in one language, for one recipient of the audience, at a
 * desktop or a phone's width. The frame runs no script.
 */
export function CampaignPreview(props: CampaignPreviewProps) {
  const { locale, locales, onLocaleChange, recipientType, listIds = [], segmentIds = [] } = props;
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [width, setWidth] = useState<PreviewWidth>('desktop');
  const [recipientEmail, setRecipientEmail] = useState('');
  // Only a lists audience reads its lists: another type keeps one sample however they change.
  const sample = useSampleRecipientsQuery({
    recipientType,
    listIds: recipientType === 'lists' ? [...listIds] : [],
    segmentIds: recipientType === 'segments' ? [...segmentIds] : [],
  });
  const samples = sample.data?.items ?? [];
  const recipient = samples.find((item) => item.email === recipientEmail) ?? samples[0];
  const rendered = useRenderedPreview(props, recipient);
  const preview = useLastRendering(rendered.data);
  return (
    <Stack spacing={1.5} sx={{ minWidth: 0 }} aria-label={t('preview.label')} role="region">
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={t('preview.language')}
          value={locale}
          onChange={(event) => onLocaleChange(event.target.value as Locale)}
          sx={{ minWidth: 120 }}
        >
          {locales.map((item) => (
            <MenuItem key={item} value={item}>
              {t(`languages.${item}`)}
            </MenuItem>
          ))}
        </TextField>
        <RecipientSelect samples={samples} recipient={recipient} onChange={setRecipientEmail} />
        <WidthToggle width={width} onChange={setWidth} />
      </Stack>
      {rendered.isLoading ? <LinearProgress aria-label={t('preview.rendering')} /> : null}
      {rendered.isError ? <Alert severity="warning">{t('preview.failed')}</Alert> : null}
      {preview ? <RenderedMail preview={preview} width={width} /> : null}
    </Stack>
  );
}
