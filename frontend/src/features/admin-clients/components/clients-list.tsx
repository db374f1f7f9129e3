import { CLIENT_SORT_FIELDS, type ClientDto, type ClientListQuery } from '@agency/contracts';
import BusinessIcon from '@mui/icons-material/Business';
import { useCallback, useMemo, type ReactNode } from 'react';
import { AdminList } from '../../../components/admin/admin-list';
import { EmptyState } from '../../../components/admin/empty-state';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useClientListQuery } from '../api/clients-api';
import { CLIENTS_NAMESPACE } from '../clients-namespace';
import { ClientCard } from './client-card';
import { clientActions, clientColumns } from './client-columns';
import { ClientsToolbar } from './clients-toolbar';

export interface ClientsListProps {
  canWrite: boolean;
  onEdit: (client: ClientDto) => void;
  onDelete: (client: ClientDto) => void;
  /** The Add button, offered in the empty state too. */
  addButton: ReactNode;
}

/** The agency's clients: search, status and industry filters, table (cards on a phone). */
export function ClientsList({ canWrite, onEdit, onDelete, addButton }: ClientsListProps) {
  const { t } = useNamespace(CLIENTS_NAMESPACE);
  const format = useFormatters();
  const list = useListParams<'status' | 'industry'>({
    sortFields: CLIENT_SORT_FIELDS,
    defaultSort: '-createdAt',
    filters: ['status', 'industry'],
  });
  const query = useClientListQuery(list.query as Partial<ClientListQuery>);
  const actions = useCallback(
    (client: ClientDto) => clientActions(client, t, onEdit, onDelete),
    [t, onEdit, onDelete],
  );
  // Columns rebuilt on every render would reset the grid: only their inputs renew them.
  const columns = useMemo(
    () => clientColumns(t, format, canWrite ? actions : undefined),
    [t, format, canWrite, actions],
  );

  return (
    <>
      <ClientsToolbar list={list} />
      <AdminList
        label={t('tableLabel')}
        query={query}
        list={list}
        empty={
          <EmptyState
            icon={<BusinessIcon />}
            title={t('empty')}
            description={t('emptyHint')}
            action={canWrite ? addButton : undefined}
          />
        }
        columns={columns}
        renderCard={(client) => (
          <ClientCard client={client} actions={canWrite ? actions(client) : undefined} />
        )}
      />
    </>
  );
}
