import { MEDIA_ACCEPTED_TYPES, MEDIA_MAX_BYTES } from '@agency/contracts';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { useId, useImperativeHandle, useRef, useState, type DragEvent, type Ref } from 'react';
import { useNamespace } from '../../../lib/translations';
import { MEDIA_NAMESPACE } from './media-namespace';

export interface UploadDropZoneProps {
  onFiles: (files: File[]) => void;
  multiple?: boolean;
  disabled?: boolean;
  /** Lets another button (the heading's, the empty state's) open the same file chooser. */
  openRef?: Ref<{ open: () => void }>;
}

/** The files a drag carries, images or not (the upload says why a file is refused). */
function droppedFiles(event: DragEvent): File[] {
  return Array.from(event.dataTransfer.files);
}

/**
 * Where images are dropped. The zone is a button that opens the file chooser,
 * so the keyboard and screen readers reach the same upload as the mouse.
 */
export function UploadDropZone({
  onFiles,
  multiple = true,
  disabled = false,
  openRef,
}: UploadDropZoneProps) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [over, setOver] = useState(false);
  useImperativeHandle(openRef, () => ({ open: () => input.current?.click() }), []);

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = droppedFiles(event);
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };

  return (
    <>
      <ButtonBase
        focusRipple
        disabled={disabled}
        aria-describedby={hintId}
        onClick={() => input.current?.click()}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        sx={{
          width: '100%',
          flexDirection: 'column',
          gap: 0.5,
          p: 3,
          border: 2,
          borderStyle: 'dashed',
          borderRadius: 1,
          borderColor: over ? 'primary.main' : 'divider',
          bgcolor: over ? 'action.hover' : 'transparent',
          '&.Mui-focusVisible': { outline: 3, outlineColor: 'primary.main', outlineOffset: 2 },
        }}
      >
        <CloudUploadOutlinedIcon color="primary" aria-hidden />
        <Typography component="span">{t('upload.zone')}</Typography>
        <Typography id={hintId} component="span" variant="body2" sx={{ color: 'text.secondary' }}>
          {t('upload.zoneHint', { max: MEDIA_MAX_BYTES / 1024 / 1024 })}
        </Typography>
      </ButtonBase>
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        aria-hidden
        data-testid="media-file-input"
        accept={MEDIA_ACCEPTED_TYPES.join(',')}
        multiple={multiple}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // The same file chosen again must fire a change next time too.
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
