import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useEffectEvent, useState } from 'react';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';

/** Long enough to type a word, short enough to feel immediate. */
const SEARCH_DELAY_MS = 300;

export interface SearchFieldProps {
  value: string;
  onSearch: (search: string) => void;
  label?: string;
  /** Under the field: what the search matches. */
  hint?: string;
}

/** A search box that asks the server once the typing pauses, not on every key. */
export function SearchField({ value, onSearch, label, hint }: SearchFieldProps) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const [text, setText] = useState(value);
  const [shownValue, setShownValue] = useState(value);
  const search = useEffectEvent((next: string) => onSearch(next));

  // The address changed (back button, a link): show what the list is searching.
  if (value !== shownValue) {
    setShownValue(value);
    setText(value);
  }

  useEffect(() => {
    if (text.trim() === value) return undefined;
    const timer = setTimeout(() => search(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <TextField
      type="search"
      size="small"
      label={label ?? t('list.search')}
      value={text}
      onChange={(event) => setText(event.target.value)}
      helperText={hint}
      sx={{ minWidth: { sm: 260 } }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
