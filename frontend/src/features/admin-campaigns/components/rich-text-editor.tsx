import { CAMPAIGN_VARIABLES } from '@agency/contracts';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EditorContent, type Editor } from '@tiptap/react';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type ReactNode,
} from 'react';
import {
  ImagePickerDialog,
  type PickedImage,
} from '../../../components/admin/media/image-picker-dialog';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { useRichTextCommands } from '../hooks/use-rich-text-commands';
import { InsertDialog, type InsertKind } from './rich-text-insert-dialog';
import { RichTextToolbar } from './rich-text-toolbar';

export interface RichTextEditorProps {
  /** The field's accessible name. */
  label: string;
  value: string;
  onChange: (html: string) => void;
  dir?: 'ltr' | 'rtl';
  error?: boolean;
  helperText?: ReactNode;
  /** The variables the menu offers; the campaign's by default. */
  variables?: readonly string[];
}

/** The HTML itself, for those who want to write it, left to right whatever the language. */
function SourceView({
  label,
  value,
  onChange,
  describedBy,
}: Pick<RichTextEditorProps, 'label' | 'value' | 'onChange'> & { describedBy: string }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <TextField
      value={value}
      onChange={(event) => onChange(event.target.value)}
      multiline
      fullWidth
      minRows={10}
      variant="standard"
      slotProps={{
        input: { disableUnderline: true, inputComponent: 'textarea' },
        htmlInput: {
          'aria-label': t('editor.sourceLabel', { label }),
          'aria-describedby': describedBy,
          dir: 'ltr',
          rows: 10,
          style: { fontFamily: 'monospace', fontSize: 13, resize: 'vertical' },
        },
      }}
      sx={{ p: 1 }}
    />
  );
}

/** An image file a drop or a paste carries (the first one), if any. */
function imageFileOf(transfer: DataTransfer | null): File | undefined {
  return Array.from(transfer?.files ?? []).find((file) => file.type.startsWith('image/'));
}

/** Where in the text a drop landed, or the cursor when the point cannot be told. */
function dropPosition(editor: Editor, event: DragEvent): number {
  try {
    const found = editor.view.posAtCoords({ left: event.clientX, top: event.clientY });
    if (found) return found.pos;
  } catch {
    // No layout to measure (a hidden editor): the cursor will do.
  }
  return editor.state.selection.from;
}

/** An image file dropped or pasted, and where it goes once uploaded and described. */
interface DroppedImage {
  file: File;
  at: number;
}

/**
 * The editable text, its buttons drawn as a mail client will show them. An
 * image file dropped or pasted on it is taken before the editor sees it
 * (the editor would insert nothing, or the file's name): it is uploaded to
 * the library, and goes in once it has its alt text.
 */
function EditorSurface({
  editor,
  onImageFile,
}: {
  editor: Editor | null;
  onImageFile: (dropped: DroppedImage) => void;
}) {
  const takeDrop = (event: DragEvent) => {
    const file = imageFileOf(event.dataTransfer);
    if (!file || !editor) return;
    event.preventDefault();
    event.stopPropagation();
    onImageFile({ file, at: dropPosition(editor, event) });
  };
  const takePaste = (event: ClipboardEvent) => {
    const file = imageFileOf(event.clipboardData);
    if (!file || !editor) return;
    event.preventDefault();
    event.stopPropagation();
    onImageFile({ file, at: editor.state.selection.from });
  };
  return (
    <Box
      onDropCapture={takeDrop}
      onPasteCapture={takePaste}
      sx={{
        px: 1.5,
        minHeight: 200,
        maxHeight: 420,
        overflowY: 'auto',
        '& .tiptap': { outline: 'none', minHeight: 200, py: 1 },
        '& .tiptap img': { maxWidth: '100%' },
        '& .tiptap table[data-button] a': {
          display: 'inline-block',
          px: 2,
          py: 1,
          borderRadius: 1,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          textDecoration: 'none',
        },
      }}
    >
      <EditorContent editor={editor} />
    </Box>
  );
}

/**
 * The campaign editor: formatting from a toolbar, links, images from the
 * media library (picked, dropped or pasted), buttons, dividers and variables from a menu, so no one needs to write
 * HTML; the source view is there for those who want to. It writes the
 * plain markup the server sanitises and styles inline for mail clients.
 */
export function RichTextEditor({
  label,
  value,
  onChange,
  dir = 'ltr',
  error,
  helperText,
  variables = CAMPAIGN_VARIABLES,
}: RichTextEditorProps) {
  const helperId = useId();
  const [source, setSource] = useState(false);
  const [inserting, setInserting] = useState<InsertKind | null>(null);
  const [dropped, setDropped] = useState<DroppedImage | null>(null);
  const commands = useRichTextCommands({
    label,
    describedBy: helperId,
    value,
    onChange,
    dir,
    source,
  });

  const focusTextOnClose = useRef(false);
  const insert = (url: string, text: string) => {
    const kind = inserting;
    focusTextOnClose.current = true;
    setInserting(null);
    if (kind) commands.insert(kind, url, text);
  };

  const insertImage = (image: PickedImage) => {
    const at = dropped?.at;
    focusTextOnClose.current = true;
    setInserting(null);
    setDropped(null);
    commands.insertImage(image, at);
  };
  const picking = inserting === 'image' || dropped !== null;

  // After an insert the caret belongs in the text, at once. The dialog gives
  // the focus back to its toolbar button as it closes, and Tiptap's own focus
  // waits for the next frame: keys typed in between would press that button.
  // This effect runs after the dialog's cleanup, so the text has the last word.
  useEffect(() => {
    if (inserting || picking || !focusTextOnClose.current) return;
    focusTextOnClose.current = false;
    commands.editor?.view.focus();
  }, [inserting, picking, commands.editor]);

  const toggleSource = () => {
    if (source) commands.showValue();
    setSource(!source);
  };

  return (
    <Box>
      <Typography component="div" variant="caption" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {label}
      </Typography>
      <Box
        sx={{
          border: 1,
          borderColor: error ? 'error.main' : 'divider',
          borderRadius: 1,
          overflow: 'hidden',
        }}
      >
        <RichTextToolbar
          label={label}
          commands={commands}
          variables={variables}
          source={source}
          onInsert={setInserting}
          onToggleSource={toggleSource}
        />
        {source ? (
          <SourceView label={label} value={value} onChange={onChange} describedBy={helperId} />
        ) : (
          <EditorSurface editor={commands.editor} onImageFile={setDropped} />
        )}
      </Box>
      <FormHelperText id={helperId} error={error}>
        {helperText}
      </FormHelperText>
      {picking ? (
        <ImagePickerDialog
          file={dropped?.file}
          onPick={insertImage}
          onClose={() => {
            setInserting(null);
            setDropped(null);
          }}
        />
      ) : null}
      {inserting && inserting !== 'image' ? (
        <InsertDialog
          kind={inserting}
          initialText={commands.selectedText()}
          onInsert={insert}
          onClose={() => setInserting(null)}
        />
      ) : null}
    </Box>
  );
}
