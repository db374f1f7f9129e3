import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** Put on a field (or its wrapper) that spans both columns of a two-column form. */
export const FULL_ROW = { gridColumn: '1 / -1' } as const;

/**
 * The fields of an admin modal, evenly spaced: one column, or two side by
 * side from 600 px (a phone always gets one). Fields fill their cell.
 */
export function DialogFields({ columns = 1, children }: { columns?: 1 | 2; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        pt: 1,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: `repeat(${columns}, minmax(0, 1fr))` },
      }}
    >
      {children}
    </Box>
  );
}
