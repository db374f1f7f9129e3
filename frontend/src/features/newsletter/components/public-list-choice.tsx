import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A public list as both screens show it, named in the page's or the person's language. */
export interface PublicListOption {
  id: string;
  name: string;
  description: string | null;
}

export interface PublicListChoiceProps {
  lists: readonly PublicListOption[];
  selected: readonly string[];
  onChange: (listIds: string[]) => void;
  legend: string;
  /** `section`: a heading of its own (the preference page); `inline`: a line under a form. */
  layout?: 'inline' | 'section';
}

const FIELDSET_SX = {
  inline: { border: 0, m: 0, mt: 2, p: 0, textAlign: 'start' },
  section: { border: 0, m: 0, p: 0 },
} as const;

/**
 * The public lists as tick boxes, one fieldset named by its legend: the
 * newsletter sign-up and the preference page offer the same choice the
 * same way. Nothing shows while there is no public list.
 */
export function PublicListChoice({
  lists,
  selected,
  onChange,
  legend,
  layout = 'inline',
}: PublicListChoiceProps) {
  if (lists.length === 0) return null;
  const toggle = (id: string, checked: boolean) =>
    onChange(checked ? [...selected, id] : selected.filter((listId) => listId !== id));
  return (
    <Stack component="fieldset" sx={FIELDSET_SX[layout]}>
      <Typography component="legend" variant={layout === 'section' ? 'h6' : 'subtitle2'}>
        {legend}
      </Typography>
      <FormGroup>
        {lists.map((list) => (
          <FormControlLabel
            key={list.id}
            control={
              <Checkbox
                checked={selected.includes(list.id)}
                onChange={(event) => toggle(list.id, event.target.checked)}
              />
            }
            label={
              <span>
                {list.name}
                {list.description ? (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {` – ${list.description}`}
                  </Typography>
                ) : null}
              </span>
            }
          />
        ))}
      </FormGroup>
    </Stack>
  );
}
