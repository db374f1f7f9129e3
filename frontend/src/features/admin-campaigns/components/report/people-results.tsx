import type { CampaignPersonResultDto, PersonResultFilter } from '@agency/contracts';
import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { AdminDataGrid } from '../../../../components/admin/admin-data-grid';
import { FilterSelect } from '../../../../components/admin/filter-select';
import { SearchField } from '../../../../components/admin/search-field';
import { apiErrorMessage } from '../../../../lib/api-errors';
import { useFormatters, type Formatters } from '../../../../lib/use-formatters';
import { PAGE_SIZES } from '../../../../lib/use-list-params';
import { useNamespace } from '../../../../lib/translations';
import { useToast } from '../../../../lib/use-toast';
import {
  useCampaignReportPeopleQuery,
  useExportCampaignPeopleMutation,
} from '../../api/campaign-report-api';
import { REPORT_NAMESPACE } from '../../report-namespace';
import { ReportSection } from './report-section';

type Translate = ReturnType<typeof useNamespace>['t'];
type PersonRow = CampaignPersonResultDto & { id: string };

/** The admin lists' page sizes: the grid offers only those. */
const FIRST_PAGE: { page: number; pageSize: number } = { page: 1, pageSize: PAGE_SIZES[1] };

function openedText(person: CampaignPersonResultDto, t: Translate): string {
  if (!person.opened) return t('people.no');
  return person.openImplied ? t('people.implied') : t('people.yes');
}

function peopleColumns(t: Translate, format: Formatters): GridColDef<PersonRow>[] {
  const plain = { sortable: false } as const;
  return [
    {
      ...plain,
      field: 'email',
      headerName: t('people.email'),
      flex: 1,
      minWidth: 200,
      renderCell: ({ row }) => <bdi dir="ltr">{row.email}</bdi>,
    },
    {
      ...plain,
      field: 'locale',
      headerName: t('people.language'),
      width: 110,
      valueGetter: (_value, row) => t(`languages.names.${row.locale}`),
    },
    {
      ...plain,
      field: 'opened',
      headerName: t('people.opened'),
      width: 170,
      valueGetter: (_value, row) => openedText(row, t),
    },
    {
      ...plain,
      field: 'firstOpenAt',
      headerName: t('people.firstOpen'),
      width: 190,
      valueGetter: (_value, row) =>
        row.firstOpenAt ? format.dateTime(row.firstOpenAt) : t('none'),
    },
    { ...plain, field: 'opens', headerName: t('people.opens'), width: 90, type: 'number' },
    { ...plain, field: 'clicks', headerName: t('people.clicks'), width: 90, type: 'number' },
    {
      ...plain,
      field: 'clickedLinks',
      headerName: t('people.links'),
      flex: 1,
      minWidth: 220,
      valueGetter: (_value, row) => row.clickedLinks.map((link) => link.url).join(', '),
      renderCell: ({ value }) => <bdi dir="ltr">{String(value)}</bdi>,
    },
  ];
}

/** The people CSV of the filter and search shown, as the server writes it. */
function PeopleDownload({
  id,
  filter,
  search,
}: {
  id: string;
  filter: PersonResultFilter;
  search: string;
}) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const toast = useToast();
  const [download, { isLoading }] = useExportCampaignPeopleMutation();
  const run = async () => {
    try {
      await download({ id, filter, search }).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('people.downloadFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  return (
    <Button
      variant="outlined"
      startIcon={<DownloadIcon />}
      disabled={isLoading}
      onClick={() => void run()}
      sx={{ marginInlineStart: { sm: 'auto' } }}
    >
      {isLoading ? t('downloading') : t('people.download')}
    </Button>
  );
}

/** The filter, the address search and the people CSV of what they show. */
function PeopleToolbar({
  id,
  filter,
  search,
  onFilter,
  onSearch,
}: {
  id: string;
  filter: PersonResultFilter;
  search: string;
  onFilter: (filter: PersonResultFilter) => void;
  onSearch: (search: string) => void;
}) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ my: 2, alignItems: { sm: 'flex-start' } }}
    >
      <FilterSelect
        label={t('people.filter')}
        value={filter === 'any' ? undefined : filter}
        onChange={(value) => onFilter((value as PersonResultFilter | undefined) ?? 'any')}
        allLabel={t('people.filters.any')}
        options={(['opened', 'clicked'] as const).map((value) => ({
          value,
          label: t(`people.filters.${value}`),
        }))}
      />
      <SearchField
        value={search}
        label={t('people.search')}
        onSearch={(next) => onSearch(next.trim())}
      />
      <PeopleDownload id={id} filter={filter} search={search} />
    </Stack>
  );
}

/**
 * Who opened and who clicked which link (individual mode), filtered,
 * searched by address and paged by the server.
 */
export function PeopleResults({ id }: { id: string }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  const [filter, setFilter] = useState<PersonResultFilter>('any');
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState(FIRST_PAGE);
  const query = useCampaignReportPeopleQuery({ id, filter, search, ...paging });
  const columns = useMemo(() => peopleColumns(t, format), [t, format]);
  const rows = useMemo(
    () => (query.data?.items ?? []).map((person) => ({ ...person, id: person.email })),
    [query.data],
  );
  return (
    <ReportSection title={t('people.title')} hint={t('people.hint')}>
      <PeopleToolbar
        id={id}
        filter={filter}
        search={search}
        onFilter={(next) => {
          setFilter(next);
          setPaging(FIRST_PAGE);
        }}
        onSearch={(next) => {
          setSearch(next);
          setPaging(FIRST_PAGE);
        }}
      />
      <AdminDataGrid
        label={t('people.label')}
        rows={rows}
        columns={columns}
        total={query.data?.total ?? 0}
        loading={query.isFetching}
        page={paging.page}
        pageSize={paging.pageSize}
        sort=""
        onPageChange={(page, pageSize) => setPaging({ page, pageSize })}
        onSortChange={() => undefined}
        noRowsLabel={t('people.noRows')}
      />
    </ReportSection>
  );
}
