import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import type { ListParams } from '../../lib/use-list-params';
import { SearchField } from './search-field';

export interface ListToolbarProps {
  list: Pick<ListParams<string>, 'search' | 'setSearch'>;
  /** The list's filters and buttons, after the search. */
  children?: ReactNode;
  /** The search field's label and, under it, what it matches. */
  searchLabel?: string;
  searchHint?: string;
}

/** Above an admin list: its search, then its filters and buttons, one under the other on a phone. */
export function ListToolbar({ list, children, searchLabel, searchHint }: ListToolbarProps) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      useFlexGap
      sx={{ mb: 2, alignItems: { sm: searchHint ? 'flex-start' : 'center' } }}
    >
      <SearchField
        value={list.search}
        onSearch={list.setSearch}
        label={searchLabel}
        hint={searchHint}
      />
      {children}
    </Stack>
  );
}
