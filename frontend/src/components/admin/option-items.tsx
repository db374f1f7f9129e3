import MenuItem from '@mui/material/MenuItem';
import type { ReactNode } from 'react';

/**
 * A select field's options, one MenuItem per value. MUI's select reads its
 * options from its direct children, so this answers the items themselves
 * rather than a component that wraps them.
 */
export function optionItems<Value extends string>(
  values: readonly Value[],
  labelOf: (value: Value) => ReactNode,
): ReactNode[] {
  return values.map((value) => (
    <MenuItem key={value} value={value}>
      {labelOf(value)}
    </MenuItem>
  ));
}
