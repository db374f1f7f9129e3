import type { ContactStatus } from '@agency/contracts';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';
import { StatusChip } from './status-chip';

/** An enquiry's status badge: 'new' highlighted so unread enquiries stand out, the others plain. */
export function ContactStatusChip({ status }: { status: ContactStatus }) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const isNew = status === 'new';
  return (
    <StatusChip
      label={t(`contactStatus.${status}`, { defaultValue: status })}
      color={isNew ? 'primary' : 'default'}
      highlighted={isNew}
    />
  );
}
