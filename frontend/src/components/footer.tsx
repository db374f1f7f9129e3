import { SERVICE_SLUGS } from '@agency/contracts';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import LinkedInIcon from '@mui/icons-material/LinkedIn';
import XIcon from '@mui/icons-material/X';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useHref } from 'react-router-dom';
import { useAnchorNavigation } from '../lib/scroll';
import { PRIMARY_LINKS } from './navigation-links';

// The spec leaves the social profiles as placeholders; the real ones are not known yet.
const SOCIAL_LINKS = [
  { label: 'Facebook', href: 'https://www.facebook.com/', Icon: FacebookIcon },
  { label: 'Instagram', href: 'https://www.instagram.com/', Icon: InstagramIcon },
  { label: 'LinkedIn', href: 'https://www.linkedin.com/', Icon: LinkedInIcon },
  { label: 'Twitter', href: 'https://x.com/', Icon: XIcon },
] as const;

export interface FooterProps {
  /** Shown above the link columns: where the newsletter banner goes, after the contact section. */
  slot?: ReactNode;
}

const LINK_LIST_SX = { listStyle: 'none', p: 0, m: 0 } as const;

/** The brand, what the agency does, and its social profiles. */
function FooterBrand() {
  const { t } = useTranslation();
  return (
    <>
      <Typography variant="h6" component="p" sx={{ fontWeight: 800, mb: 1 }}>
        {t('brand.name')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'grey.400', maxWidth: 360 }}>
        {t('brand.description')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 2 }} aria-label={t('footer.followUs')}>
        {SOCIAL_LINKS.map(({ label, href, Icon }) => (
          <IconButton
            key={label}
            component="a"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={label}
            sx={{ color: 'grey.100' }}
          >
            <Icon />
          </IconButton>
        ))}
      </Stack>
    </>
  );
}

/** The navigation's links again: pages, and sections of the home page. */
function QuickLinks() {
  const { t } = useTranslation();
  const goToAnchor = useAnchorNavigation();
  // The home page in this page's language (`/`, `/fr/`...), which the anchors belong to.
  const homeHref = useHref('/');
  return (
    <>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        {t('footer.quickLinks')}
      </Typography>
      <Stack component="ul" spacing={0.75} sx={LINK_LIST_SX}>
        {PRIMARY_LINKS.map((link) => (
          <li key={link.labelKey}>
            {link.kind === 'route' ? (
              <Link component={RouterLink} to={link.to} color="inherit" underline="hover">
                {t(link.labelKey)}
              </Link>
            ) : (
              <Link
                href={`${homeHref}#${link.anchorId}`}
                color="inherit"
                underline="hover"
                onClick={(event) => {
                  event.preventDefault();
                  goToAnchor(link.anchorId);
                }}
              >
                {t(link.labelKey)}
              </Link>
            )}
          </li>
        ))}
      </Stack>
    </>
  );
}

function ServiceLinks() {
  const { t } = useTranslation();
  return (
    <>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        {t('footer.services')}
      </Typography>
      <Stack component="ul" spacing={0.75} sx={LINK_LIST_SX}>
        {SERVICE_SLUGS.map((slug) => (
          <li key={slug}>
            <Link component={RouterLink} to="/services-dedicated" color="inherit" underline="hover">
              {t(`serviceNames.${slug}`)}
            </Link>
          </li>
        ))}
      </Stack>
    </>
  );
}

/** The site's secondary pages: the privacy policy, the newsletter archive, the terms. */
function SecondaryLinks() {
  const { t } = useTranslation();
  // The archive is served as whole pages by the API, not by this app: a plain link loads it.
  const archiveHref = useHref('/newsletter');
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Link component={RouterLink} to="/privacy" variant="body2" color="inherit" underline="hover">
        {t('footer.privacy')}
      </Link>
      <Link href={archiveHref} variant="body2" color="inherit" underline="hover">
        {t('footer.newsletterArchive')}
      </Link>
      <Typography variant="body2">{t('footer.terms')}</Typography>
    </Stack>
  );
}

export function Footer({ slot }: FooterProps) {
  const { t } = useTranslation();
  return (
    <Box
      component="footer"
      sx={{ bgcolor: 'grey.900', color: 'grey.100', pt: 6, pb: 3, mt: 'auto' }}
    >
      <Container>
        {slot}
        <Grid container spacing={4}>
          <Grid size={{ xs: 12, md: 5 }}>
            <FooterBrand />
          </Grid>
          <Grid size={{ xs: 6, md: 3 }}>
            <QuickLinks />
          </Grid>
          <Grid size={{ xs: 6, md: 4 }}>
            <ServiceLinks />
          </Grid>
        </Grid>

        <Divider sx={{ my: 3, borderColor: 'grey.800' }} />
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', color: 'grey.400' }}
        >
          <Typography variant="body2">{t('footer.copyright')}</Typography>
          <SecondaryLinks />
        </Stack>
      </Container>
    </Box>
  );
}
