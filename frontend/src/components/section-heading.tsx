import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface SectionHeadingProps {
  /** The heading's id, for the section's aria-labelledby. */
  id: string;
  title: ReactNode;
  subtitle?: ReactNode;
  /** A small line above the title. */
  eyebrow?: ReactNode;
  /** Spec copy fixed in French is marked so screen readers pronounce it right. */
  lang?: string;
  /** 'inverse' on a dark background keeps every line readable. */
  tone?: 'default' | 'inverse';
}

/** The centred title and subtitle that open each home section (an h2). */
export function SectionHeading({
  id,
  title,
  subtitle,
  eyebrow,
  lang,
  tone = 'default',
}: SectionHeadingProps) {
  const inverse = tone === 'inverse';
  return (
    <Box sx={{ textAlign: 'center', mb: { xs: 4, md: 6 }, maxWidth: 720, mx: 'auto' }} lang={lang}>
      {eyebrow ? (
        <Typography
          variant="overline"
          component="p"
          sx={{ fontWeight: 700, letterSpacing: 2, color: inverse ? '#f9a8d4' : 'secondary.main' }}
        >
          {eyebrow}
        </Typography>
      ) : null}
      <Typography id={id} variant="h4" component="h2" gutterBottom>
        {title}
      </Typography>
      {subtitle ? (
        <Typography sx={{ color: inverse ? 'grey.300' : 'text.secondary' }}>{subtitle}</Typography>
      ) : null}
    </Box>
  );
}
