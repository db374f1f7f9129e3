import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router-dom';
import type { Translate } from '../../../components/admin/admin-columns';
import { adminPersonPath } from '../../../lib/admin-paths';
import type { Formatters } from '../../../lib/use-formatters';
import type { PersonRow } from '../api/people-api';
import { ConsentChip, SourceChips, SuppressedChip } from './person-chips';
import type { ListNames } from './use-list-names';

export interface PersonColumnsOptions {
  /** The people namespace's translations. */
  t: Translate;
  format: Formatters;
  namesOf: ListNames['namesOf'];
}

/** A person's name as one line; empty when no record gave one. */
export function fullName(person: Pick<PersonRow, 'firstName' | 'lastName'>): string {
  return `${person.firstName} ${person.lastName}`.trim();
}

/** The lists a row names: how many, then their names. */
export function listsText(t: Translate, names: readonly string[], count: number): string {
  const counted = t('listCount', { count, formattedCount: count });
  return names.length > 0 ? `${counted}: ${names.join(', ')}` : counted;
}

/**
 * The address, a link to the person's page. The grid moves its focus by cell
 * and hands it to the cell's element whose tabIndex is 0: passing the grid's
 * tabIndex lets the arrow keys reach the link, and Enter open it.
 */
function addressColumn({ t }: PersonColumnsOptions): GridColDef<PersonRow> {
  return {
    field: 'email',
    headerName: t('columns.email'),
    flex: 1.4,
    minWidth: 200,
    renderCell: ({ row, tabIndex }) => (
      <Link
        component={RouterLink}
        to={adminPersonPath(row.key)}
        tabIndex={tabIndex}
        aria-label={t('open', { email: row.email })}
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}
      >
        {row.email}
      </Link>
    ),
  };
}

/** The people table's columns: only the address and the first sighting sort. */
export function personColumns(options: PersonColumnsOptions): GridColDef<PersonRow>[] {
  const { t, format, namesOf } = options;
  return [
    addressColumn(options),
    {
      field: 'name',
      headerName: t('columns.name'),
      flex: 1,
      minWidth: 140,
      sortable: false,
      valueGetter: (_value, row) => fullName(row),
    },
    {
      field: 'sources',
      headerName: t('columns.sources'),
      width: 190,
      sortable: false,
      renderCell: ({ row }) => <SourceChips sources={row.sources} />,
    },
    {
      field: 'listIds',
      headerName: t('columns.lists'),
      flex: 1,
      minWidth: 140,
      sortable: false,
      valueGetter: (_value, row) => listsText(t, namesOf(row.listIds), row.listIds.length),
    },
    {
      field: 'tags',
      headerName: t('columns.tags'),
      flex: 0.8,
      minWidth: 110,
      sortable: false,
      valueGetter: (_value, row) => row.tags.join(', '),
    },
    {
      field: 'locale',
      headerName: t('columns.language'),
      width: 110,
      sortable: false,
      valueGetter: (_value, row) => t(`languages.${row.locale}`),
    },
    {
      field: 'consent',
      headerName: t('columns.consent'),
      width: 120,
      sortable: false,
      renderCell: ({ row }) => <ConsentChip consent={row.consent} />,
    },
    {
      field: 'suppressed',
      headerName: t('columns.suppressed'),
      width: 115,
      sortable: false,
      renderCell: ({ row }) => <SuppressedChip suppressed={row.suppressed} />,
    },
    {
      field: 'firstSeenAt',
      headerName: t('columns.firstSeen'),
      width: 170,
      valueFormatter: (value: string) => format.dateTime(value),
    },
  ];
}
