import type { ContactDto } from '@agency/contracts';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { ContactStatusChip } from '../../../components/admin/contact-status-chip';
import { RecordCard } from '../../../components/admin/record-card';
import { deleteAction, RowActions } from '../../../components/admin/row-actions';
import { adminContactPath } from '../../../lib/admin-paths';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { CONTACTS_NAMESPACE } from '../contacts-namespace';

/** One enquiry as a phone shows it; tapping opens its detail. */
export function ContactCard({
  contact,
  onDelete,
}: {
  contact: ContactDto;
  /** Asks to delete it (only for a role that may). */
  onDelete?: (contact: ContactDto) => void;
}) {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  const { search } = useLocation();
  return (
    <RecordCard
      title={`${contact.firstName} ${contact.lastName}`}
      badge={<ContactStatusChip status={contact.status} />}
      to={`${adminContactPath(contact.id)}${search}`}
      actions={
        onDelete ? (
          <RowActions
            actions={[
              deleteAction(t('delete', { name: `${contact.firstName} ${contact.lastName}` }), () =>
                onDelete(contact),
              ),
            ]}
          />
        ) : undefined
      }
    >
      <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
        {contact.email}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {tShell(`serviceNames.${contact.service}`)} · {format.dateTime(contact.createdAt)}
      </Typography>
    </RecordCard>
  );
}
