import Chip, { type ChipProps } from '@mui/material/Chip';

export interface StatusChipProps {
  label: string;
  color?: ChipProps['color'];
  /** Filled rather than outlined: the status that needs attention (a new enquiry). */
  highlighted?: boolean;
}

/** A record's status as a small badge. */
export function StatusChip({ label, color = 'default', highlighted = false }: StatusChipProps) {
  return (
    <Chip
      size="small"
      label={label}
      color={color}
      variant={highlighted ? 'filled' : 'outlined'}
      sx={{ fontWeight: highlighted ? 700 : 500 }}
    />
  );
}
