import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

interface StatCardProps {
  /** The figure alone ("24", "150+"): digits and signs, read left to right in every language. */
  value: string;
  /**
   * The figure's unit in the page's language ("h", "ساعة"), carrying its own
   * leading no-break space where the language puts one.
   */
  unit?: string;
  label: string;
  /** Larger figures where the card has the room (home sections). */
  size?: 'large' | 'medium';
}

/** A headline figure with its label, as the marketing sections show them. */
export function StatCard({ value, unit, label, size = 'large' }: StatCardProps) {
  return (
    <Paper
      variant="outlined"
      sx={{ p: size === 'large' ? 3 : 2, textAlign: 'center', height: '100%' }}
    >
      <Typography
        variant={size === 'large' ? 'h4' : 'h5'}
        component="p"
        color="primary"
        sx={{ fontWeight: 800 }}
      >
        {/* Isolated left to right, so a figure such as "150+" reads the same on an Arabic page.
            The unit is a word of the page's language: outside the isolate, it reads in the
            page's direction ("24 ساعة" with the word to the left of the figure). */}
        <bdi dir="ltr">{value}</bdi>
        {unit}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
    </Paper>
  );
}
