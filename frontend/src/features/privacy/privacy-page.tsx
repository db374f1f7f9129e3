import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page-header';
import { CONTACT_DETAILS } from '../../lib/contact-details';
import { useNamespace } from '../../lib/translations';
import { PRIVACY_NAMESPACE } from './privacy-namespace';

// The keys of each section's list, in reading order (locales/*.json).
const ENQUIRY_ITEMS = ['name', 'contact', 'request', 'language'] as const;
const NEWSLETTER_ITEMS = ['email', 'consent'] as const;
const TRACKING_ITEMS = ['opens', 'clicks', 'nothingElse'] as const;

/** One part of the policy: its h2, then its paragraphs and lists. */
function PolicySection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 5 }}>
      <Typography variant="h5" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Paragraph({ children }: { children: ReactNode }) {
  return <Typography sx={{ mb: 2 }}>{children}</Typography>;
}

/** A section's list, each item a key of `prefix` in the privacy catalogue. */
function ItemList({ prefix, items }: { prefix: string; items: readonly string[] }) {
  const { t } = useNamespace(PRIVACY_NAMESPACE);
  return (
    <Box component="ul" sx={{ mt: 0, mb: 2, ps: 3 }}>
      {items.map((item) => (
        <Typography key={item} component="li" sx={{ mb: 1 }}>
          {t(`${prefix}.${item}`)}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * /privacy: what the agency keeps for an enquiry and a newsletter
 * subscription, what campaign e-mails count when tracking is on, and how to
 * unsubscribe or have it all erased. It says what docs/operations.md
 * ("Campaign results: opens and clicks") describes to operators.
 */
export function PrivacyPage() {
  const { t } = useNamespace(PRIVACY_NAMESPACE);
  return (
    <>
      <PageHeader title={t('privacy.title')} subtitle={t('privacy.subtitle')} />
      <Container maxWidth="md" sx={{ py: { xs: 6, md: 8 } }}>
        <PolicySection title={t('privacy.enquiry.title')}>
          <Paragraph>{t('privacy.enquiry.intro')}</Paragraph>
          <ItemList prefix="privacy.enquiry.items" items={ENQUIRY_ITEMS} />
          <Paragraph>{t('privacy.enquiry.use')}</Paragraph>
        </PolicySection>
        <PolicySection title={t('privacy.newsletter.title')}>
          <Paragraph>{t('privacy.newsletter.intro')}</Paragraph>
          <ItemList prefix="privacy.newsletter.items" items={NEWSLETTER_ITEMS} />
          <Paragraph>{t('privacy.newsletter.use')}</Paragraph>
        </PolicySection>
        <PolicySection title={t('privacy.tracking.title')}>
          <Paragraph>{t('privacy.tracking.intro')}</Paragraph>
          <ItemList prefix="privacy.tracking.items" items={TRACKING_ITEMS} />
          <Paragraph>{t('privacy.tracking.anonymous')}</Paragraph>
          <Paragraph>{t('privacy.tracking.individual')}</Paragraph>
          <Paragraph>{t('privacy.tracking.tests')}</Paragraph>
        </PolicySection>
        <PolicySection title={t('privacy.rights.title')}>
          <Paragraph>{t('privacy.rights.unsubscribe')}</Paragraph>
          <Paragraph>
            {t('privacy.rights.erasure')}{' '}
            {/* An address reads left to right on an Arabic page too. */}
            <bdi>
              <Link href={`mailto:${CONTACT_DETAILS.email}`}>{CONTACT_DETAILS.email}</Link>
            </bdi>
          </Paragraph>
        </PolicySection>
      </Container>
    </>
  );
}
