import {
  LOCALES,
  PERSON_CONSENT_STATES,
  PERSON_SOURCES,
  calendarDateProblem,
  message,
} from '@agency/contracts';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { FilterSelect } from '../../../components/admin/filter-select';
import { useErrorText } from '../../../lib/api-errors';
import type { ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { PEOPLE_NAMESPACE } from '../people-namespace';
import type { ListNames } from './use-list-names';

export const PEOPLE_FILTERS = [
  'listId',
  'tag',
  'locale',
  'source',
  'consent',
  'suppressed',
  'since',
  'until',
] as const;
export type PeopleFilter = (typeof PEOPLE_FILTERS)[number];
export type PeopleListParams = ListParams<PeopleFilter>;

/**
 * What is wrong with the first-seen days, by the rules the API applies,
 * said before asking it: a day that exists, and a range that ends after it starts.
 */
export function useDayProblems(filters: PeopleListParams['filters']) {
  const errorText = useErrorText();
  const problemOf = (day: string | undefined) => {
    const problem = day ? calendarDateProblem(day) : null;
    return problem ? errorText(problem) : undefined;
  };
  const { since, until } = filters;
  return {
    since: problemOf(since),
    until:
      problemOf(until) ??
      (since && until && until < since
        ? errorText(message('rangeEndBeforeStart', { start: since }))
        : undefined),
  };
}

/**
 * The lists by name; a list asked for by the address but not (yet) among
 * them keeps its place, named by its id, so the choice is never dropped.
 */
function listOptions(lists: ListNames['lists'], chosen: string | undefined) {
  const options = lists.map((mailingList) => ({ value: mailingList.id, label: mailingList.name }));
  return chosen && !lists.some((mailingList) => mailingList.id === chosen)
    ? [...options, { value: chosen, label: chosen }]
    : options;
}

/** A tag is free text: it filters once typed out (Enter, or leaving the field), not per key. */
function TagFilter({ list }: { list: PeopleListParams }) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const applied = list.filters.tag ?? '';
  const [text, setText] = useState(applied);
  const [shown, setShown] = useState(applied);
  // The address changed (back button, a link): show what the list filters on.
  if (applied !== shown) {
    setShown(applied);
    setText(applied);
  }
  const apply = () => {
    if (text.trim() !== applied) list.setFilter('tag', text.trim() || undefined);
  };
  return (
    <TextField
      size="small"
      label={t('filters.tag')}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onBlur={apply}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply();
      }}
      helperText={t('filters.tagHint')}
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ minWidth: 140 }}
    />
  );
}

function DayFilter({
  list,
  name,
  problem,
}: {
  list: PeopleListParams;
  name: 'since' | 'until';
  problem: string | undefined;
}) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return (
    <TextField
      type="date"
      size="small"
      label={t(`filters.${name}`)}
      value={list.filters[name] ?? ''}
      onChange={(event) => list.setFilter(name, event.target.value || undefined)}
      error={Boolean(problem)}
      helperText={problem}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}

/** The list's filters: list, tag, language, source, consent, suppression and the first-seen days. */
export function PeopleFilters({
  list,
  lists,
  dayProblems,
}: {
  list: PeopleListParams;
  lists: ListNames['lists'];
  dayProblems: ReturnType<typeof useDayProblems>;
}) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const select = (name: Exclude<PeopleFilter, 'tag' | 'since' | 'until'>) => ({
    value: list.filters[name],
    onChange: (value: string | undefined) => list.setFilter(name, value),
  });
  return (
    <Stack
      role="group"
      aria-label={t('filters.label')}
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      useFlexGap
      sx={{ mb: 2, flexWrap: 'wrap', alignItems: { sm: 'flex-start' } }}
    >
      <FilterSelect
        label={t('filters.list')}
        allLabel={t('filters.allLists')}
        options={listOptions(lists, list.filters.listId)}
        {...select('listId')}
      />
      <TagFilter list={list} />
      <FilterSelect
        label={t('filters.language')}
        allLabel={t('filters.allLanguages')}
        options={LOCALES.map((locale) => ({ value: locale, label: t(`languages.${locale}`) }))}
        {...select('locale')}
      />
      <FilterSelect
        label={t('filters.source')}
        allLabel={t('filters.allSources')}
        options={PERSON_SOURCES.map((source) => ({ value: source, label: t(`sources.${source}`) }))}
        {...select('source')}
      />
      <FilterSelect
        label={t('filters.consent')}
        allLabel={t('filters.allConsents')}
        options={PERSON_CONSENT_STATES.map((state) => ({
          value: state,
          label: t(`consent.${state}`),
        }))}
        {...select('consent')}
      />
      <FilterSelect
        label={t('filters.suppressed')}
        allLabel={t('filters.allSuppressed')}
        options={[
          { value: 'yes', label: t('filters.yes') },
          { value: 'no', label: t('filters.no') },
        ]}
        {...select('suppressed')}
        minWidth={170}
      />
      <DayFilter list={list} name="since" problem={dayProblems.since} />
      <DayFilter list={list} name="until" problem={dayProblems.until} />
    </Stack>
  );
}
