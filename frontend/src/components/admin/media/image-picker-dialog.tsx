import { MEDIA_MAIL_WIDTH, imageInsertSchema, type MediaDto } from '@agency/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormik } from 'formik';
import { useEffect, useId, useRef, useState } from 'react';
import { useErrorText } from '../../../lib/api-errors';
import { schemaValidator } from '../../../lib/form-validation';
import { useMediaUploads } from '../../../lib/media-upload';
import { useNamespace } from '../../../lib/translations';
import { LoadError } from '../load-error';
import { useIsMobile } from '../use-is-mobile';
import { MediaPager } from './media-pager';
import { MEDIA_NAMESPACE } from './media-namespace';
import { MediaThumbnailGrid } from './media-thumbnail-grid';
import { UploadDropZone } from './upload-drop-zone';
import { UploadProgressList } from './upload-progress-list';
import { useMediaBrowser, useMediaPlaceInState } from './use-media-browser';
import { SearchField } from '../search-field';

/** What the picker gives back: the mail variant's address and size, and its description. */
export interface PickedImage {
  url: string;
  alt: string;
  /** Known for library images; an image by address has none. */
  width?: number;
  height?: number;
}

/** The image chosen, before it is described. */
interface Choice {
  url: string;
  width?: number;
  height?: number;
  name?: string;
}

const IMAGE_ADDRESS = /^https?:\/\/\S+$/i;
const PICKER_PAGE_SIZE = 24;
const TABS = ['library', 'upload', 'address'] as const;
type PickerTab = (typeof TABS)[number];

function choiceOf(item: MediaDto): Choice {
  return { url: item.url, width: item.width, height: item.height, name: item.name };
}

function LibraryTab({ onChoose }: { onChoose: (choice: Choice) => void }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const browser = useMediaBrowser(useMediaPlaceInState(PICKER_PAGE_SIZE));
  return (
    <Stack spacing={2}>
      <SearchField value={browser.search} onSearch={browser.onSearch} label={t('searchLabel')} />
      {browser.failed ? <LoadError onRetry={browser.retry} /> : null}
      {browser.failed ? null : !browser.loading && browser.items.length === 0 ? (
        <Typography sx={{ color: 'text.secondary' }}>
          {browser.search ? t('empty.noResults') : t('empty.title')}
        </Typography>
      ) : (
        <MediaThumbnailGrid items={browser.items} onChoose={(item) => onChoose(choiceOf(item))} />
      )}
      <MediaPager browser={browser} />
    </Stack>
  );
}

function UploadTab({ onChoose }: { onChoose: (choice: Choice) => void }) {
  const { entries, upload } = useMediaUploads();
  const uploading = entries.some((entry) => entry.state.status === 'uploading');
  const send = async (files: File[]) => {
    const [stored] = await upload(files.slice(0, 1));
    if (stored) onChoose(choiceOf(stored));
  };
  return (
    <Stack spacing={2}>
      <UploadDropZone multiple={false} disabled={uploading} onFiles={(files) => void send(files)} />
      <UploadProgressList entries={entries} />
    </Stack>
  );
}

function AddressTab({ onChoose }: { onChoose: (choice: Choice) => void }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const [url, setUrl] = useState('');
  const [tried, setTried] = useState(false);
  const invalid = tried && !IMAGE_ADDRESS.test(url.trim());
  const submit = () => {
    setTried(true);
    if (IMAGE_ADDRESS.test(url.trim())) onChoose({ url: url.trim() });
  };
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextField
        label={t('picker.address_label')}
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            submit();
          }
        }}
        error={invalid}
        helperText={invalid ? t('picker.address_invalid') : t('picker.address_hint')}
        required
        autoFocus
        slotProps={{ htmlInput: { dir: 'ltr' } }}
      />
      <Box>
        <Button variant="outlined" onClick={submit}>
          {t('picker.useAddress')}
        </Button>
      </Box>
    </Stack>
  );
}

/** The description step: alt text, required unless the image is marked decorative. */
function DescribeStep({
  choice,
  formId,
  onPick,
}: {
  choice: Choice;
  formId: string;
  onPick: (image: PickedImage) => void;
}) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const errorText = useErrorText();
  const altId = useId();
  const formik = useFormik({
    initialValues: { alt: '', decorative: false },
    validate: schemaValidator(
      imageInsertSchema,
      (values: { alt: string; decorative: boolean }) => values,
    ),
    onSubmit: (values) => {
      const input = imageInsertSchema.cast(values);
      onPick({ url: choice.url, alt: input.alt ?? '', width: choice.width, height: choice.height });
    },
  });
  const shown = formik.submitCount > 0 || Boolean(formik.touched.alt);
  const altError = shown ? errorText(formik.errors.alt) : undefined;
  return (
    <Box component="form" id={formId} noValidate onSubmit={formik.handleSubmit}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Box
          component="img"
          src={choice.url}
          alt={t('picker.preview')}
          sx={{
            maxWidth: '100%',
            maxHeight: 200,
            objectFit: 'contain',
            alignSelf: 'center',
            width: choice.width ? Math.min(choice.width, MEDIA_MAIL_WIDTH) : undefined,
          }}
        />
        <TextField
          id={altId}
          name="alt"
          label={t('picker.altLabel')}
          value={formik.values.alt}
          onChange={formik.handleChange}
          onBlur={formik.handleBlur}
          disabled={formik.values.decorative}
          required={!formik.values.decorative}
          error={Boolean(altError)}
          helperText={altError ?? t('picker.altHint')}
          autoFocus
          fullWidth
        />
        <FormControlLabel
          control={
            <Checkbox
              name="decorative"
              checked={formik.values.decorative}
              onChange={formik.handleChange}
            />
          }
          label={t('picker.decorative')}
        />
      </Stack>
    </Box>
  );
}

export interface ImagePickerDialogProps {
  /** A file dropped or pasted: it is uploaded at once, then its description is asked. */
  file?: File;
  onPick: (image: PickedImage) => void;
  onClose: () => void;
}

/**
 * The one image picker of the dashboard (campaign editor, template logo):
 * an image from the library, a new upload or (as before the library) an
 * address, then its alt text. Render it only while it is wanted: each
 * opening starts afresh.
 */
export function ImagePickerDialog({ file, onPick, onClose }: ImagePickerDialogProps) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const mobile = useIsMobile();
  const titleId = useId();
  const formId = useId();
  const [tab, setTab] = useState<PickerTab>(file ? 'upload' : 'library');
  const [choice, setChoice] = useState<Choice | null>(null);
  const dropped = useDroppedFileUpload(file, setChoice);

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={mobile}
    >
      <DialogTitle id={titleId}>{t('picker.title')}</DialogTitle>
      <DialogContent dividers>
        {choice ? (
          <DescribeStep choice={choice} formId={formId} onPick={onPick} />
        ) : file ? (
          <UploadProgressList entries={dropped} />
        ) : (
          <>
            <Tabs
              value={tab}
              onChange={(_event, next: PickerTab) => setTab(next)}
              aria-label={t('picker.tabs')}
              variant="fullWidth"
              sx={{ mb: 2 }}
            >
              {TABS.map((name) => (
                <Tab key={name} value={name} label={t(`picker.${name}`)} />
              ))}
            </Tabs>
            {tab === 'library' ? <LibraryTab onChoose={setChoice} /> : null}
            {tab === 'upload' ? <UploadTab onChoose={setChoice} /> : null}
            {tab === 'address' ? <AddressTab onChoose={setChoice} /> : null}
          </>
        )}
      </DialogContent>
      <DialogActions>
        {choice && !file ? (
          <Button onClick={() => setChoice(null)} sx={{ marginInlineEnd: 'auto' }}>
            {t('picker.back')}
          </Button>
        ) : null}
        <Button onClick={onClose}>{t('picker.cancel')}</Button>
        {choice ? (
          <Button type="submit" form={formId} variant="contained">
            {t('picker.insert')}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}

/** Uploads the dropped or pasted file once, and chooses it when the library has it. */
function useDroppedFileUpload(file: File | undefined, choose: (choice: Choice) => void) {
  const { entries, upload } = useMediaUploads();
  const started = useRef<File | null>(null);
  useEffect(() => {
    if (!file || started.current === file) return;
    started.current = file;
    void upload([file]).then(([stored]) => {
      if (stored) choose(choiceOf(stored));
    });
  }, [file, upload, choose]);
  return entries;
}
