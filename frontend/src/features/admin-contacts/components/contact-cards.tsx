import type { ContactDto } from '@agency/contracts';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { ContactStatusChip } from '../../../components/admin/contact-status-chip';
import { adminContactPath } from '../../../lib/admin-paths';
import { useFormatters } from '../../../lib/use-formatters';

/** One enquiry as a phone shows it; tapping opens its detail. */
export function ContactCard({ contact }: { contact: ContactDto }) {
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  const { search } = useLocation();
  const name = `${contact.firstName} ${contact.lastName}`;
  return (
    <Card variant="outlined">
      <CardActionArea component={RouterLink} to={`${adminContactPath(contact.id)}${search}`}>
        <CardContent>
          <Stack
            direction="row"
            spacing={1}
            sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}
          >
            <Typography sx={{ fontWeight: 700 }}>{name}</Typography>
            <ContactStatusChip status={contact.status} />
          </Stack>
          <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
            {contact.email}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {tShell(`serviceNames.${contact.service}`)} · {format.dateTime(contact.createdAt)}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
