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
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import type { RichTextCommands } from '../hooks/use-rich-text-commands';
import type { InsertKind } from './rich-text-insert-dialog';

type Translate = ReturnType<typeof useNamespace>['t'];

interface Tool {
  label: string;
  icon: ReactNode;
  active?: boolean;
  onClick: () => void;
}

/** The toolbar's icon buttons: headings, bold, italic, lists, then what is inserted. */
function formattingTools(
  t: Translate,
  { editor, run }: Pick<RichTextCommands, 'editor' | 'run'>,
  onInsert: (kind: InsertKind) => void,
): Tool[] {
  return [
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
      onClick: () => onInsert('link'),
    },
    {
      label: t('editor.image'),
      icon: <ImageIcon fontSize="small" />,
      onClick: () => onInsert('image'),
    },
    {
      label: t('editor.button'),
      icon: <SmartButtonIcon fontSize="small" />,
      onClick: () => onInsert('button'),
    },
    {
      label: t('editor.divider'),
      icon: <HorizontalRuleIcon fontSize="small" />,
      onClick: () => run((chain) => chain.insertBlock({ type: 'horizontalRule' })),
    },
  ];
}

/** The variables one may insert, each with its `{{name}}`, and how to give one a fallback. */
function VariableMenu({
  anchor,
  variables,
  onPick,
  onClose,
}: {
  anchor: HTMLElement | null;
  variables: readonly string[];
  onPick: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const fallbackHintId = useId();
  return (
    // A popover rather than a Menu: the hint on fallbacks sits beside the menu's items, not among them.
    <Popover
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
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
        autoFocusItem={Boolean(anchor)}
        aria-label={t('editor.variables')}
        aria-describedby={fallbackHintId}
      >
        {variables.map((name) => (
          <MenuItem key={name} onClick={() => onPick(name)}>
            {t(`editor.variable.${name}`, { defaultValue: name })}
            <Typography component="span" variant="caption" sx={{ ml: 1, color: 'text.secondary' }}>
              {`{{${name}}}`}
            </Typography>
          </MenuItem>
        ))}
      </MenuList>
    </Popover>
  );
}

export interface RichTextToolbarProps {
  /** The editor's label, which names the toolbar. */
  label: string;
  commands: Pick<RichTextCommands, 'editor' | 'run'>;
  variables: readonly string[];
  /** The source view is open: the formatting tools and variables wait. */
  source: boolean;
  onInsert: (kind: InsertKind) => void;
  onToggleSource: () => void;
}

/** Above the editor: the formatting tools, the variables menu and the source view's switch. */
export function RichTextToolbar({
  label,
  commands,
  variables,
  source,
  onInsert,
  onToggleSource,
}: RichTextToolbarProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [variableMenu, setVariableMenu] = useState<HTMLElement | null>(null);
  const insertVariable = (name: string) => {
    setVariableMenu(null);
    commands.run((chain) => chain.insertContent(`{{${name}}}`));
  };
  return (
    <>
      <Stack
        direction="row"
        role="toolbar"
        aria-label={t('editor.toolbar', { label })}
        sx={{ flexWrap: 'wrap', gap: 0.25, p: 0.5, bgcolor: 'action.hover' }}
      >
        {formattingTools(t, commands, onInsert).map((tool) => (
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
          onClick={onToggleSource}
          sx={{ marginInlineStart: 'auto' }}
        >
          {t('editor.source')}
        </Button>
      </Stack>
      <VariableMenu
        anchor={variableMenu}
        variables={variables}
        onPick={insertVariable}
        onClose={() => setVariableMenu(null)}
      />
    </>
  );
}
