import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';

export interface PageHeaderProps {
  title: string;
  subtitle?: string;
}

/** The title band that opens every secondary page; the page's only h1. */
export function PageHeader({ title, subtitle }: PageHeaderProps) {
  return (
    <Box
      sx={{
        py: { xs: 6, md: 8 },
        textAlign: 'center',
        background: (theme) =>
          `linear-gradient(135deg, ${alpha(theme.palette.primary.main, 0.1)}, ${alpha(theme.palette.secondary.main, 0.08)})`,
      }}
    >
      <Container maxWidth="md">
        <Typography variant="h3" component="h1" gutterBottom>
          {title}
        </Typography>
        {subtitle ? (
          <Typography variant="h6" component="p" sx={{ color: 'text.secondary', fontWeight: 400 }}>
            {subtitle}
          </Typography>
        ) : null}
      </Container>
    </Box>
  );
}
