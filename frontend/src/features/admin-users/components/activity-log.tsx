import HistoryIcon from '@mui/icons-material/History';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ACTIVITY_ACTIONS,
  addDays,
  calendarDateProblem,
  instantOfWallTime,
  message,
  type ActivityAction,
  type ActivityLogDto,
  type ActivityLogListQuery,
  type FieldChange,
  type KeysetPage,
} from '@agency/contracts';
import { useMemo, useState } from 'react';
import { FilterSelect } from '../../../components/admin/filter-select';
import { LoadError } from '../../../components/admin/load-error';
import { errorStatusOf, fieldErrorsOf, useErrorText } from '../../../lib/api-errors';
import { useAgencyTimeZone } from '../../../lib/use-agency-time-zone';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useActivityLogQuery, useUserListQuery } from '../api/users-api';
import { USERS_NAMESPACE } from '../users-namespace';
import { fieldWords, readableValue, type ValueWords } from './activity-values';

/** Entries per page of the log. */
export const ACTIVITY_PAGE_SIZE = 10;

interface ActivityFilters {
  actor?: string;
  action?: ActivityAction;
  /** Calendar days (YYYY-MM-DD) on the agency's clock, both included. */
  fromDate?: string;
  toDate?: string;
}

type ActivityLogPage = KeysetPage<ActivityLogDto>;

/** Where the page starts: the first page, or the `next`/`previous` of the page shown. */
type PagePosition = { after?: string; before?: string };

/** The browser's zone, for the moment before the agency's is known. */
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The days chosen, as the instants the API filters on: from midnight to the next midnight after `toDate`. */
function rangeOf(
  filters: ActivityFilters,
  timeZone: string,
): Pick<ActivityLogListQuery, 'from' | 'to'> {
  const midnight = (day: string) => instantOfWallTime(day, '00:00', timeZone).toISOString();
  return {
    ...(filters.fromDate ? { from: midnight(filters.fromDate) } : {}),
    ...(filters.toDate ? { to: midnight(addDays(filters.toDate, 1)) } : {}),
  };
}

/** The fields an entry changed, by their names in the reader's language: old value, then new. */
function ChangeList({ changes, words }: { changes: readonly FieldChange[]; words: ValueWords }) {
  const { t } = useNamespace(USERS_NAMESPACE);
  return (
    <Box
      component="ul"
      sx={{ m: 0, mt: 0.5, pl: 2.5, typography: 'body2', wordBreak: 'break-word' }}
    >
      {changes.map((change) => {
        const field = t(`activity.fields.${change.field}`, {
          defaultValue: fieldWords(change.field),
        });
        return (
          <li key={change.field}>
            {change.redacted ? (
              t('activity.changedSecret', { field })
            ) : (
              <>
                <Box component="span" sx={{ fontWeight: 600 }}>
                  {field}
                </Box>
                {': '}
                {change.before !== undefined ? (
                  <Box component="del" sx={{ color: 'error.main' }}>
                    {readableValue(change.before, words)}
                  </Box>
                ) : null}
                {change.before !== undefined && change.after !== undefined ? ' → ' : null}
                {change.after !== undefined ? (
                  <Box component="ins" sx={{ color: 'success.main', textDecoration: 'none' }}>
                    {readableValue(change.after, words)}
                  </Box>
                ) : null}
              </>
            )}
          </li>
        );
      })}
    </Box>
  );
}

function ActivityEntry({ entry, words }: { entry: ActivityLogDto; words: ValueWords }) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const format = useFormatters();
  const who = entry.actor?.username ?? entry.target?.label ?? t('activity.someone');
  const what = t(`activity.actions.${entry.action}`, { defaultValue: entry.action });
  // A sign-in names its own user: "demo signed in", not "demo signed in: demo".
  const label = entry.target?.label;
  const target = label && entry.actor && label !== entry.actor.username ? `: ${label}` : '';
  return (
    <ListItem divider disableGutters>
      <ListItemText
        primary={`${who} ${what}${target}`}
        secondary={
          <>
            {format.dateTime(entry.time)}
            {entry.changes && entry.changes.length > 0 ? (
              <ChangeList changes={entry.changes} words={words} />
            ) : null}
          </>
        }
        slotProps={{ secondary: { component: 'div' } }}
      />
    </ListItem>
  );
}

/**
 * The filters chosen and the page shown; a new filter goes back to the first
 * page. The days are checked by the same rules the API applies, said before
 * asking it: a day that exists in the years dates may name, and a range that
 * ends after it starts.
 */
function useActivityFilters() {
  const errorText = useErrorText();
  const [filters, setFilters] = useState<ActivityFilters>({});
  const [position, setPosition] = useState<PagePosition>({});
  const dayProblem = (day: string | undefined) => {
    const problem = day ? calendarDateProblem(day) : null;
    return problem ? errorText(problem) : undefined;
  };
  const fromProblem = dayProblem(filters.fromDate);
  const toProblem =
    dayProblem(filters.toDate) ??
    (filters.fromDate && filters.toDate && filters.toDate < filters.fromDate
      ? errorText(message('rangeEndBeforeStart', { start: filters.fromDate }))
      : undefined);
  const refine = (change: Partial<ActivityFilters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPosition({});
  };
  return { filters, position, setPosition, refine, fromProblem, toProblem };
}

type ActivityFilterState = ReturnType<typeof useActivityFilters>;

/** The page of the log the filters and the position name; not asked while a day is wrong. */
function useActivityPage({ filters, position, fromProblem, toProblem }: ActivityFilterState) {
  const timeZone = useAgencyTimeZone() ?? BROWSER_ZONE;
  const rangeProblem = fromProblem ?? toProblem;
  const query = useActivityLogQuery(
    {
      pageSize: ACTIVITY_PAGE_SIZE,
      sort: '-time',
      ...(filters.actor ? { actor: filters.actor } : {}),
      ...(filters.action ? { action: filters.action } : {}),
      ...rangeOf(filters, timeZone),
      ...position,
    },
    { skip: Boolean(rangeProblem) },
  );
  return { query, rangeProblem };
}

/** How a changed value reads: yes, no, empty, a number in the reader's language. */
function useValueWords(): ValueWords {
  const { t } = useNamespace(USERS_NAMESPACE);
  const format = useFormatters();
  return useMemo<ValueWords>(
    () => ({
      yes: t('activity.yes'),
      no: t('activity.no'),
      empty: t('activity.emptyValue'),
      number: format.number,
    }),
    [t, format],
  );
}

/** The filters: a person, an action, and the first and last days. */
function ActivityFiltersBar({ state }: { state: ActivityFilterState }) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const people = useUserListQuery({ pageSize: 100, sort: 'username' });
  const { filters, refine, fromProblem, toProblem } = state;
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1.5}
      sx={{ mb: 2, flexWrap: 'wrap' }}
      useFlexGap
    >
      <FilterSelect
        label={t('activity.personFilter')}
        value={filters.actor}
        onChange={(actor) => refine({ actor })}
        allLabel={t('activity.allPeople')}
        options={(people.data?.items ?? []).map((user) => ({
          value: user.id,
          label: user.username,
        }))}
      />
      <FilterSelect
        label={t('activity.actionFilter')}
        value={filters.action}
        onChange={(action) => refine({ action: action as ActivityAction | undefined })}
        allLabel={t('activity.allActions')}
        options={ACTIVITY_ACTIONS.map((action) => ({
          value: action,
          label: t(`activity.actions.${action}`),
        }))}
        minWidth={200}
      />
      <TextField
        type="date"
        size="small"
        label={t('activity.from')}
        value={filters.fromDate ?? ''}
        onChange={(event) => refine({ fromDate: event.target.value || undefined })}
        error={Boolean(fromProblem)}
        helperText={fromProblem}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="date"
        size="small"
        label={t('activity.to')}
        value={filters.toDate ?? ''}
        onChange={(event) => refine({ toDate: event.target.value || undefined })}
        error={Boolean(toProblem)}
        helperText={toProblem}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </Stack>
  );
}

interface ActivityPagerProps {
  page: ActivityLogPage;
  isFetching: boolean;
  setPosition: (position: PagePosition) => void;
}

/** How many entries match, and the buttons to newer and older ones. */
function ActivityPager({ page, isFetching, setPosition }: ActivityPagerProps) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const format = useFormatters();
  return (
    <Stack
      component="nav"
      aria-label={t('activity.pages')}
      direction="row"
      spacing={1}
      sx={{ mt: 1.5, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
    >
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {page.totalKind === 'atLeast'
          ? t('activity.countMoreThan', { total: format.number(page.total) })
          : t('activity.count', { count: page.total, total: format.number(page.total) })}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button
          size="small"
          disabled={!page.previous || isFetching}
          onClick={() => page.previous && setPosition({ before: page.previous })}
        >
          {t('activity.newer')}
        </Button>
        <Button
          size="small"
          disabled={!page.next || isFetching}
          onClick={() => page.next && setPosition({ after: page.next })}
        >
          {t('activity.older')}
        </Button>
      </Stack>
    </Stack>
  );
}

interface ActivityBodyProps {
  state: ActivityFilterState;
  activity: ReturnType<typeof useActivityPage>;
}

/** The entries and the pager, or what stands in for them: refused filters, an error, loading, none. */
function ActivityBody({ state, activity }: ActivityBodyProps) {
  const { t } = useNamespace(USERS_NAMESPACE);
  const words = useValueWords();
  const { data, isLoading, isFetching, isError, error, refetch } = activity.query;
  const { filters } = state;
  const filtered = Boolean(filters.actor || filters.action || filters.fromDate || filters.toDate);
  const refused =
    isError && errorStatusOf(error) === 400
      ? fieldErrorsOf(error, ['actor', 'action', 'from', 'to', 'after', 'before'])
      : undefined;
  if (refused) {
    return (
      <Alert severity="warning">
        {t('activity.filtersInvalid', { reason: Object.values(refused).join(' ') })}
      </Alert>
    );
  }
  if (isError && !data) {
    return <LoadError title={t('activity.error')} onRetry={() => void refetch()} />;
  }
  if (activity.rangeProblem) return null;
  if (isLoading || !data) {
    return (
      <Stack spacing={1} aria-busy>
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} height={44} />
        ))}
      </Stack>
    );
  }
  if (data.items.length === 0) {
    return (
      <Typography sx={{ color: 'text.secondary' }}>
        {filtered ? t('activity.filteredEmpty') : t('activity.empty')}
      </Typography>
    );
  }
  return (
    <>
      <List dense disablePadding aria-label={t('activity.title')} aria-busy={isFetching}>
        {data.items.map((entry) => (
          <ActivityEntry key={entry.id} entry={entry} words={words} />
        ))}
      </List>
      <ActivityPager page={data} isFetching={isFetching} setPosition={state.setPosition} />
    </>
  );
}

/** Who did what (admins only: it needs activity:read), page by page, filtered. */
export function ActivityLog() {
  const { t } = useNamespace(USERS_NAMESPACE);
  const state = useActivityFilters();
  const activity = useActivityPage(state);
  return (
    <Paper variant="outlined" sx={{ p: 2.5 }} component="section" aria-label={t('activity.title')}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
        <HistoryIcon color="primary" />
        <Typography variant="h6" component="h2">
          {t('activity.title')}
        </Typography>
      </Stack>
      <ActivityFiltersBar state={state} />
      <ActivityBody state={state} activity={activity} />
    </Paper>
  );
}
