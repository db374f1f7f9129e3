import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

interface StatCardProps {
  value: string;
  label: string;
  /** Larger figures where the card has the room (home sections). */
  size?: 'large' | 'medium';
}

/** A headline figure with its label, as the marketing sections show them. */
export function StatCard({ value, label, size = 'large' }: StatCardProps) {
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
        {/* Isolated left to right, so a figure such as "150+" reads the same on an Arabic page. */}
        <bdi dir="ltr">{value}</bdi>
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
    </Paper>
  );
}
