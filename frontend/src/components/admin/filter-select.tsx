import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

export interface FilterSelectProps {
  label: string;
  /** The chosen value, or undefined for "all". */
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  /** What "no filter" reads as ("All statuses"). */
  allLabel: string;
  options: readonly { value: string; label: string }[];
  minWidth?: number;
}

/** A list filter: one of the options, or all of them. */
export function FilterSelect({
  label,
  value,
  onChange,
  allLabel,
  options,
  minWidth = 160,
}: FilterSelectProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value || undefined)}
      sx={{ minWidth }}
      // "All" is a real choice, shown as such rather than as an empty field.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{allLabel}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
