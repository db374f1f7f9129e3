import { CAMPAIGN_VARIABLES } from '@agency/contracts';
import CodeIcon from '@mui/icons-material/Code';
import DataObjectIcon from '@mui/icons-material/DataObject';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import HorizontalRuleIcon from '@mui/icons-material/HorizontalRule';
import ImageIcon from '@mui/icons-material/Image';
import InsertLinkIcon from '@mui/icons-material/InsertLink';
import LooksOneIcon from '@mui/icons-material/LooksOne';
import LooksTwoIcon from '@mui/icons-material/LooksTwo';
import SmartButtonIcon from '@mui/icons-material/SmartButton';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Image } from '@tiptap/extension-image';
import { Link } from '@tiptap/extension-link';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { BlockInsert } from './block-insert.extension';
import { EmailButton } from './email-button.extension';

/**
 * Text typed at a link's end stays outside it: the period after "see
 * agency.tn" is not part of the address. (Tiptap makes links inclusive when
 * autolink is on, so a typed link would swallow whatever follows it.)
 */
const BoundedLink = Link.extend({ inclusive: false });

/** What a link, an image or a button may point at: the web, mail, or the unsubscribe link. */
const LINK_TARGET = /^(https?:\/\/\S+|mailto:\S+|\{\{\s*unsubscribeUrl\s*\}\})$/i;
const IMAGE_SOURCE = /^https?:\/\/\S+$/i;

type Inserting = { kind: 'link' | 'image' | 'button' } | null;

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

/**
 * The campaign editor: formatting from a toolbar, links, images by URL,
 * buttons, dividers and variables from a menu, so no one needs to write
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
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const helperId = useId();
  const [source, setSource] = useState(false);
  const [inserting, setInserting] = useState<Inserting>(null);
  const [variableMenu, setVariableMenu] = useState<HTMLElement | null>(null);
  const fallbackHintId = useId();
  const emitted = useRef(value);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        code: false,
        codeBlock: false,
        strike: false,
        underline: false,
        link: false,
      }),
      BoundedLink.configure({ openOnClick: false, autolink: true, defaultProtocol: 'https' }),
      Image,
      EmailButton,
      BlockInsert,
    ],
    content: value,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        'aria-describedby': helperId,
        dir,
      },
    },
    onUpdate: ({ editor: changed }) => {
      emitted.current = changed.getHTML();
      onChange(emitted.current);
    },
  });

  // A value set from outside (the source view, a reset) is shown; the
  // editor's own changes, which come back a render later, are not re-applied.
  useEffect(() => {
    if (editor && !source && value !== emitted.current) {
      emitted.current = value;
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, source, value]);

  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => {
    if (editor) command(editor.chain().focus()).run();
  };

  const tools: { label: string; icon: ReactNode; active?: boolean; onClick: () => void }[] = [
    {
      label: t('editor.heading1'),
      icon: <LooksOneIcon fontSize="small" />,
      active: editor?.isActive('heading', { level: 1 }),
      onClick: () => run((chain) => chain.toggleHeading({ level: 1 })),
    },
    {
      label: t('editor.heading2'),
      icon: <LooksTwoIcon fontSize="small" />,
      active: editor?.isActive('heading', { level: 2 }),
      onClick: () => run((chain) => chain.toggleHeading({ level: 2 })),
    },
    {
      label: t('editor.bold'),
      icon: <FormatBoldIcon fontSize="small" />,
      active: editor?.isActive('bold'),
      onClick: () => run((chain) => chain.toggleBold()),
    },
    {
      label: t('editor.italic'),
      icon: <FormatItalicIcon fontSize="small" />,
      active: editor?.isActive('italic'),
      onClick: () => run((chain) => chain.toggleItalic()),
    },
    {
      label: t('editor.bulletList'),
      icon: <FormatListBulletedIcon fontSize="small" />,
      active: editor?.isActive('bulletList'),
      onClick: () => run((chain) => chain.toggleBulletList()),
    },
    {
      label: t('editor.orderedList'),
      icon: <FormatListNumberedIcon fontSize="small" />,
      active: editor?.isActive('orderedList'),
      onClick: () => run((chain) => chain.toggleOrderedList()),
    },
    {
      label: t('editor.link'),
      icon: <InsertLinkIcon fontSize="small" />,
      active: editor?.isActive('link'),
      onClick: () => setInserting({ kind: 'link' }),
    },
    {
      label: t('editor.image'),
      icon: <ImageIcon fontSize="small" />,
      onClick: () => setInserting({ kind: 'image' }),
    },
    {
      label: t('editor.button'),
      icon: <SmartButtonIcon fontSize="small" />,
      onClick: () => setInserting({ kind: 'button' }),
    },
    {
      label: t('editor.divider'),
      icon: <HorizontalRuleIcon fontSize="small" />,
      onClick: () => run((chain) => chain.insertBlock({ type: 'horizontalRule' })),
    },
  ];

  const insert = (url: string, text: string) => {
    const kind = inserting?.kind;
    setInserting(null);
    if (kind === 'link') {
      run((chain) =>
        editor?.state.selection.empty
          ? chain.insertContent({
              type: 'text',
              text: text || url,
              marks: [{ type: 'link', attrs: { href: url } }],
            })
          : chain.extendMarkRange('link').setLink({ href: url }),
      );
    } else if (kind === 'image') {
      run((chain) => chain.insertBlock({ type: 'image', attrs: { src: url, alt: text } }));
    } else if (kind === 'button') {
      run((chain) => chain.insertBlock({ type: 'emailButton', attrs: { href: url, label: text } }));
    }
  };

  const toggleSource = () => {
    if (source && editor) {
      emitted.current = value;
      editor.commands.setContent(value, { emitUpdate: false });
    }
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
        <Stack
          direction="row"
          role="toolbar"
          aria-label={t('editor.toolbar', { label })}
          sx={{ flexWrap: 'wrap', gap: 0.25, p: 0.5, bgcolor: 'action.hover' }}
        >
          {tools.map((tool) => (
            <Tooltip key={tool.label} title={tool.label}>
              <span>
                <IconButton
                  size="small"
                  aria-label={tool.label}
                  aria-pressed={tool.active ?? undefined}
                  color={tool.active ? 'primary' : 'default'}
                  disabled={source}
                  onClick={tool.onClick}
                >
                  {tool.icon}
                </IconButton>
              </span>
            </Tooltip>
          ))}
          <Button
            size="small"
            startIcon={<DataObjectIcon fontSize="small" />}
            disabled={source}
            aria-haspopup="menu"
            onClick={(event) => setVariableMenu(event.currentTarget)}
          >
            {t('editor.variables')}
          </Button>
          <Button
            size="small"
            startIcon={<CodeIcon fontSize="small" />}
            aria-pressed={source}
            onClick={toggleSource}
            sx={{ marginInlineStart: 'auto' }}
          >
            {t('editor.source')}
          </Button>
        </Stack>
        {/* A popover rather than a Menu: the hint on fallbacks sits beside the menu's items, not among them. */}
        <Popover
          anchorEl={variableMenu}
          open={Boolean(variableMenu)}
          onClose={() => setVariableMenu(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        >
          <Typography
            id={fallbackHintId}
            variant="caption"
            sx={{ display: 'block', px: 2, pt: 1.5, maxWidth: 320, color: 'text.secondary' }}
          >
            {t('editor.fallbackHint', { example: '{{firstName|there}}' })}
          </Typography>
          <MenuList
            autoFocusItem={Boolean(variableMenu)}
            aria-label={t('editor.variables')}
            aria-describedby={fallbackHintId}
          >
            {variables.map((name) => (
              <MenuItem
                key={name}
                onClick={() => {
                  setVariableMenu(null);
                  run((chain) => chain.insertContent(`{{${name}}}`));
                }}
              >
                {t(`editor.variable.${name}`, { defaultValue: name })}
                <Typography
                  component="span"
                  variant="caption"
                  sx={{ ml: 1, color: 'text.secondary' }}
                >
                  {`{{${name}}}`}
                </Typography>
              </MenuItem>
            ))}
          </MenuList>
        </Popover>
        {source ? (
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
                'aria-describedby': helperId,
                dir: 'ltr',
                rows: 10,
                style: { fontFamily: 'monospace', fontSize: 13, resize: 'vertical' },
              },
            }}
            sx={{ p: 1 }}
          />
        ) : (
          <Box
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
        )}
      </Box>
      <FormHelperText id={helperId} error={error}>
        {helperText}
      </FormHelperText>
      {inserting ? (
        <InsertDialog
          kind={inserting.kind}
          initialText={
            editor && !editor.state.selection.empty
              ? editor.state.doc.textBetween(
                  editor.state.selection.from,
                  editor.state.selection.to,
                  ' ',
                )
              : ''
          }
          onInsert={insert}
          onClose={() => setInserting(null)}
        />
      ) : null}
    </Box>
  );
}

interface InsertDialogProps {
  kind: 'link' | 'image' | 'button';
  initialText: string;
  onInsert: (url: string, text: string) => void;
  onClose: () => void;
}

/** Asks for a link's, an image's or a button's address (and its text). */
function InsertDialog({ kind, initialText, onInsert, onClose }: InsertDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [url, setUrl] = useState('');
  const [text, setText] = useState(initialText);
  const [tried, setTried] = useState(false);
  const pattern = kind === 'image' ? IMAGE_SOURCE : LINK_TARGET;
  const urlError = tried && !pattern.test(url.trim());
  const textError = tried && kind === 'button' && !text.trim();
  const titleId = useId();

  const submit = () => {
    setTried(true);
    if (!pattern.test(url.trim()) || (kind === 'button' && !text.trim())) return;
    onInsert(url.trim(), text.trim());
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t(`editor.insert.${kind}.title`)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t(`editor.insert.${kind}.url`)}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            error={urlError}
            helperText={
              urlError ? t(`editor.insert.${kind}.urlInvalid`) : t(`editor.insert.${kind}.urlHint`)
            }
            autoFocus
            required
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <TextField
            label={t(`editor.insert.${kind}.text`)}
            value={text}
            onChange={(event) => setText(event.target.value)}
            error={textError}
            helperText={textError ? t('editor.insert.button.textRequired') : undefined}
            required={kind === 'button'}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('editor.insert.cancel')}</Button>
        <Button variant="contained" onClick={submit}>
          {t('editor.insert.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
