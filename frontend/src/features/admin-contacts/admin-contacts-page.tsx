import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { ADMIN_PATHS } from '../../lib/admin-paths';
import { useNamespace } from '../../lib/translations';
import { ContactDetailDialog } from './components/contact-detail-dialog';
import { ContactsList } from './components/contacts-list';
import { CONTACTS_NAMESPACE } from './contacts-namespace';

/** /admin/contacts, and /admin/contacts/:contactId with that enquiry open over the list. */
export function AdminContactsPage() {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { contactId } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  return (
    <RequirePermission permission="contacts:read">
      <PageHeading title={t('title')} subtitle={t('subtitle')} />
      <ContactsList />
      {contactId ? (
        <ContactDetailDialog
          contactId={contactId}
          // Back to the list as it was (its page, search and filters are in the address).
          onClose={() => void navigate(`${ADMIN_PATHS.contacts}${search}`)}
        />
      ) : null}
    </RequirePermission>
  );
}
