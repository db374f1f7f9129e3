import Box, { type BoxProps } from '@mui/material/Box';
import Container, { type ContainerProps } from '@mui/material/Container';
import type { ReactNode } from 'react';
import { SectionHeading, type SectionHeadingProps } from './section-heading';

export interface PageSectionProps extends Omit<BoxProps, 'title'> {
  /** The heading's id; the section is labelled by it. */
  headingId: string;
  title: ReactNode;
  subtitle?: ReactNode;
  eyebrow?: ReactNode;
  tone?: SectionHeadingProps['tone'];
  maxWidth?: ContainerProps['maxWidth'];
  children: ReactNode;
}

/** A home-page band: a labelled <section>, its centred heading, then its content. */
export function PageSection({
  headingId,
  title,
  subtitle,
  eyebrow,
  tone,
  maxWidth,
  children,
  sx,
  ...boxProps
}: PageSectionProps) {
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      {...boxProps}
      sx={[{ py: { xs: 6, md: 10 } }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      <Container maxWidth={maxWidth}>
        <SectionHeading
          id={headingId}
          title={title}
          subtitle={subtitle}
          eyebrow={eyebrow}
          tone={tone}
        />
        {children}
      </Container>
    </Box>
  );
}
