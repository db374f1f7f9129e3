import { PEOPLE_BULK_MAX, PERSON_SORT_FIELDS, type PeopleListQuery } from '@agency/contracts';
import DownloadIcon from '@mui/icons-material/Download';
import RecentActorsIcon from '@mui/icons-material/RecentActors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useCallback, useMemo, useState } from 'react';
import { AdminList } from '../../../components/admin/admin-list';
import type { RowSelection } from '../../../components/admin/admin-data-grid';
import { EmptyState } from '../../../components/admin/empty-state';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { useAdminCan } from '../../../lib/admin-session';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { usePeopleListQuery, type PersonRow } from '../api/people-api';
import { PEOPLE_NAMESPACE } from '../people-namespace';
import { BulkActionsBar } from './bulk-actions-bar';
import { PersonCard } from './person-card';
import { personColumns } from './person-columns';
import {
  PEOPLE_FILTERS,
  PeopleFilters,
  useDayProblems,
  type PeopleListParams,
} from './people-filters';
import { useListNames, type ListNames } from './use-list-names';
import { usePeopleExport } from './use-people-export';

/** The export button: busy while the file is written, a toast when it fails. */
function ExportButton({ list }: { list: PeopleListParams }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const { runExport, exporting } = usePeopleExport(list.query as Partial<PeopleListQuery>);
  return (
    <Button
      variant="outlined"
      startIcon={exporting ? <CircularProgress size={16} aria-hidden /> : <DownloadIcon />}
      onClick={() => void runExport()}
      disabled={exporting}
      aria-busy={exporting}
      sx={{ marginInlineStart: { sm: 'auto' } }}
    >
      {exporting ? t('exporting') : t('export')}
    </Button>
  );
}

/**
 * The people chosen for a bulk action, kept across pages and cleared when
 * the search or a filter changes (the choice was made among other rows).
 */
function usePeopleChoice(list: PeopleListParams) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [scope, setScope] = useState({ search: list.search, filters: list.filters });
  if (scope.search !== list.search || scope.filters !== list.filters) {
    setScope({ search: list.search, filters: list.filters });
    setChosen([]);
  }
  const selection = useMemo<RowSelection>(
    () => ({ ids: chosen, onChange: setChosen, max: PEOPLE_BULK_MAX }),
    [chosen],
  );
  const toggle = useCallback(
    (person: PersonRow) =>
      setChosen((current) =>
        current.includes(person.id)
          ? current.filter((id) => id !== person.id)
          : [...current, person.id].slice(0, PEOPLE_BULK_MAX),
      ),
    [],
  );
  return { chosen, selection, toggle, clear: () => setChosen([]) };
}

/** What the list shows before anyone is held. */
function NobodyYet() {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return <EmptyState icon={<RecentActorsIcon />} title={t('empty')} description={t('emptyHint')} />;
}

type PeopleChoice = ReturnType<typeof usePeopleChoice>;

/** A person's card on a phone, with its box to choose them when the role may act. */
function personCardOf(names: ListNames, choice: PeopleChoice | undefined) {
  return function renderPersonCard(person: PersonRow) {
    return (
      <PersonCard
        person={person}
        listNames={names.namesOf(person.listIds)}
        choice={
          choice && {
            chosen: choice.chosen.includes(person.id),
            available: choice.chosen.length < PEOPLE_BULK_MAX,
            onToggle: choice.toggle,
          }
        }
      />
    );
  };
}

/**
 * Everyone held: a table (cards on a phone) paged by position, searched by
 * the start of an address or a name (or a domain), filtered, with the bulk
 * actions on the people chosen and the CSV export of what the filters select.
 */
export function PeopleList() {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  const canAct = useAdminCan('lists:write');
  const canExport = useAdminCan('contacts:export');
  const list = useListParams<(typeof PEOPLE_FILTERS)[number]>({
    sortFields: PERSON_SORT_FIELDS,
    defaultSort: '-firstSeenAt',
    filters: PEOPLE_FILTERS,
    keyset: true,
  });
  const dayProblems = useDayProblems(list.filters);
  const refused = dayProblems.since ?? dayProblems.until;
  const people = usePeopleListQuery(list.query as Partial<PeopleListQuery>, {
    skip: Boolean(refused),
  });
  const names = useListNames();
  const choice = usePeopleChoice(list);
  const columns = useMemo(
    () => personColumns({ t, format, namesOf: names.namesOf }),
    [t, format, names.namesOf],
  );

  return (
    <>
      <ListToolbar list={list} searchLabel={t('search')} searchHint={t('searchHint')}>
        {canExport ? <ExportButton list={list} /> : null}
      </ListToolbar>
      <PeopleFilters list={list} lists={names.lists} dayProblems={dayProblems} />
      {canAct && choice.chosen.length > 0 ? (
        <BulkActionsBar emails={choice.chosen} lists={names.activeLists} onClear={choice.clear} />
      ) : null}
      {refused ? (
        <Alert severity="warning">{refused}</Alert>
      ) : (
        <AdminList
          label={t('tableLabel')}
          query={people}
          list={list}
          empty={<NobodyYet />}
          columns={columns}
          selection={canAct ? choice.selection : undefined}
          renderCard={personCardOf(names, canAct ? choice : undefined)}
        />
      )}
    </>
  );
}
