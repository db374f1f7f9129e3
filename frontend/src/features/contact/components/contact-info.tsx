import AccessTimeIcon from '@mui/icons-material/AccessTime';
import ChatIcon from '@mui/icons-material/Chat';
import EmailIcon from '@mui/icons-material/Email';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import PhoneIcon from '@mui/icons-material/Phone';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { CONTACT_DETAILS } from '../../../lib/contact-details';
import { visuallyHidden } from '../../../lib/visually-hidden';
import { useNamespace } from '../../../lib/translations';
import { CONTACT_NAMESPACE } from '../contact-namespace';

function InfoRow({
  icon,
  label,
  children,
}: {
  icon: ReactNode;
  label: string;
  children: ReactNode;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Box sx={{ color: 'primary.main', mt: 0.25 }} aria-hidden>
        {icon}
      </Box>
      <Box>
        <Typography variant="subtitle2" component="p" sx={{ fontWeight: 700 }}>
          {label}
        </Typography>
        <Typography variant="body2" component="div" sx={{ color: 'text.secondary' }}>
          {children}
        </Typography>
      </Box>
    </Stack>
  );
}

/** Email, phone and office address, one row each. */
function ContactPointsCard() {
  const { t } = useNamespace(CONTACT_NAMESPACE);

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h3" gutterBottom>
          {t('contact.info.title')}
        </Typography>
        <Stack spacing={2}>
          <InfoRow icon={<EmailIcon />} label={t('contact.info.email')}>
            <Link href={`mailto:${CONTACT_DETAILS.email}`}>{CONTACT_DETAILS.email}</Link>
          </InfoRow>
          <InfoRow icon={<PhoneIcon />} label={t('contact.info.phone')}>
            {/* Phone numbers read left to right even on an Arabic page. */}
            <Link href={CONTACT_DETAILS.phoneHref} dir="ltr">
              {CONTACT_DETAILS.phone}
            </Link>
          </InfoRow>
          <InfoRow icon={<LocationOnIcon />} label={t('contact.info.office')}>
            {t('contact.info.officeAddress')}
          </InfoRow>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The chat link, which opens in a new tab and says so to screen readers. */
function ChatCard() {
  const { t } = useNamespace(CONTACT_NAMESPACE);

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h3" gutterBottom>
          {t('contact.info.chat')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {t('contact.info.chatDescription')}
        </Typography>
        <Button
          variant="outlined"
          color="success"
          startIcon={<ChatIcon />}
          href={CONTACT_DETAILS.chatUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('contact.info.chatCta')}
          <Box component="span" sx={visuallyHidden}>
            {` ${t('contact.info.newTab')}`}
          </Box>
        </Button>
      </CardContent>
    </Card>
  );
}

/** The opening hours as a description list: day, then hours. */
function OpeningHoursCard() {
  const { t } = useNamespace(CONTACT_NAMESPACE);

  const hours = [
    { day: t('contact.hours.weekdays'), time: t('contact.hours.weekdaysHours') },
    { day: t('contact.hours.saturday'), time: t('contact.hours.saturdayHours') },
    { day: t('contact.hours.sunday'), time: t('contact.hours.closed') },
  ];

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <AccessTimeIcon color="primary" aria-hidden />
          <Typography variant="h6" component="h3">
            {t('contact.hours.title')}
          </Typography>
        </Stack>
        <Box component="dl" sx={{ m: 0 }}>
          {hours.map(({ day, time }) => (
            <Stack key={day} direction="row" sx={{ justifyContent: 'space-between', py: 0.5 }}>
              <Typography component="dt" variant="body2">
                {day}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600 }}>
                {time}
              </Typography>
            </Stack>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

/** Contact points, the chat link and opening hours, shown beside the enquiry form. */
export function ContactInfo() {
  return (
    <Stack spacing={3}>
      <ContactPointsCard />

      <ChatCard />

      <OpeningHoursCard />
    </Stack>
  );
}
