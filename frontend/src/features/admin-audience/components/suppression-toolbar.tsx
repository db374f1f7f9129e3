import { SUPPRESSION_REASONS } from '@agency/contracts';
import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { FilterSelect } from '../../../components/admin/filter-select';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import type { ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { useSuppressionsExport } from './use-suppressions-export';

/** Above the suppression list: the search, the reason filter, the export and the Add button. */
export function SuppressionToolbar({
  list,
  addButton,
}: {
  list: ListParams<'reason'>;
  /** Offered to a role that may add suppressions only. */
  addButton?: ReactNode;
}) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const { runExport, exporting } = useSuppressionsExport(list);
  return (
    <ListToolbar list={list}>
      <FilterSelect
        label={t('suppression.reasonFilter')}
        value={list.filters.reason}
        onChange={(reason) => list.setFilter('reason', reason)}
        allLabel={t('suppression.allReasons')}
        options={SUPPRESSION_REASONS.map((reason) => ({
          value: reason,
          label: t(`suppression.reasons.${reason}`),
        }))}
        minWidth={190}
      />
      <Button
        variant="outlined"
        startIcon={<DownloadIcon />}
        disabled={exporting}
        onClick={() => void runExport()}
      >
        {t('suppression.export')}
      </Button>
      {addButton}
    </ListToolbar>
  );
}
