import { formatInstant, type PersonDataExportDto } from '@agency/contracts';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useLocale } from '../../../lib/locale';
import { useNamespace } from '../../../lib/translations';
import { NEWSLETTER_NAMESPACE } from '../newsletter-namespace';

/** One part of what is held: a heading, then its lines, or "Nothing." when it holds none. */
function Part({ title, lines }: { title: string; lines: ReactNode[] }) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  return (
    <Stack component="section" spacing={0.5} aria-label={title}>
      <Typography variant="h6" component="h3">
        {title}
      </Typography>
      {lines.length === 0 ? (
        <Typography sx={{ color: 'text.secondary' }}>{t('myData.none')}</Typography>
      ) : (
        <Stack component="ul" spacing={0.5} sx={{ m: 0, ps: 3 }}>
          {lines.map((line, index) => (
            <Typography component="li" key={index}>
              {line}
            </Typography>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The lines of each part, in the page's language, dates on the reader's own clock. */
function useParts(data: PersonDataExportDto) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const locale = useLocale();
  const at = (iso: string | null) => (iso ? formatInstant(iso, locale) : '-');
  const { subscription, suppression } = data;
  return {
    subscription: subscription
      ? [
          t(`myData.subscription.statuses.${subscription.status}`),
          t('myData.subscription.since', {
            date: at(subscription.createdAt),
            language: t(`preferences.languages.${subscription.locale}`),
          }),
          ...(subscription.consent
            ? [
                t('myData.subscription.consent', {
                  date: at(subscription.consent.requestedAt),
                  source: subscription.consent.source,
                  version: subscription.consent.wordingVersion,
                }),
              ]
            : []),
        ]
      : [],
    lists: data.listMemberships.map((member) =>
      t('myData.lists.item', { list: member.list.name, date: at(member.createdAt) }),
    ),
    enquiries: data.enquiries.map((enquiry) => (
      <>
        {t('myData.enquiries.item', { date: at(enquiry.createdAt), service: enquiry.service })}
        <Typography component="q" sx={{ display: 'block', color: 'text.secondary' }}>
          {enquiry.message}
        </Typography>
      </>
    )),
    mails: data.mailsSent.map((mail) =>
      t('myData.mails.item', {
        campaign: mail.campaign.name ?? t('myData.mails.unnamed'),
        date: at(mail.at ?? mail.queuedAt),
        state: t(`myData.mails.states.${mail.state}`),
      }),
    ),
    events: [
      ...data.mailEvents.map((event) =>
        t('myData.events.item', { kind: event.kind, date: at(event.at) }),
      ),
      ...(suppression
        ? [t('myData.events.suppressed', { date: at(suppression.at), reason: suppression.reason })]
        : []),
    ],
    tracking: data.trackingEvents.map((event) =>
      t('myData.tracking.item', { campaign: event.campaign, count: event.events }),
    ),
  };
}

/**
 * What a person's download held, as a page they can read: the same records
 * as the JSON file, one part per kind, each saying when it holds nothing.
 */
export function PersonDataSummary({ data }: { data: PersonDataExportDto }) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const parts = useParts(data);
  return (
    // An address is one long word: it wraps anywhere rather than widen a phone's page.
    <Container maxWidth="sm" sx={{ pb: { xs: 8, md: 12 }, overflowWrap: 'anywhere' }}>
      <Typography variant="h5" component="h2" gutterBottom>
        {t('myData.title', { email: data.email })}
      </Typography>
      <Stack spacing={3}>
        <Part title={t('myData.subscription.title')} lines={parts.subscription} />
        <Part title={t('myData.lists.title')} lines={parts.lists} />
        <Part title={t('myData.enquiries.title')} lines={parts.enquiries} />
        <Part title={t('myData.mails.title')} lines={parts.mails} />
        <Part title={t('myData.events.title')} lines={parts.events} />
        <Part title={t('myData.tracking.title')} lines={parts.tracking} />
      </Stack>
    </Container>
  );
}
