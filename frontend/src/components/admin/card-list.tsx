import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useFormatters } from '../../lib/use-formatters';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';

export interface CardListProps<Item> {
  label: string;
  items: readonly Item[];
  total: number;
  /** The API stopped counting at `total`: "more than total". */
  atLeast?: boolean;
  page: number;
  pageSize: number;
  loading: boolean;
  /** Known for a list paged by position; otherwise from the total. */
  hasNext?: boolean;
  hasPrevious?: boolean;
  onNext: () => void;
  onPrevious: () => void;
  itemKey: (item: Item) => string;
  renderItem: (item: Item) => ReactNode;
  noItemsLabel: string;
}

/** The phone's form of an admin list: one card per record, then a pager. */
export function CardList<Item>({
  label,
  items,
  total,
  atLeast = false,
  page,
  pageSize,
  loading,
  hasNext,
  hasPrevious,
  onNext,
  onPrevious,
  itemKey,
  renderItem,
  noItemsLabel,
}: CardListProps<Item>) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const format = useFormatters();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const keyset = hasNext !== undefined;
  const canGoBack = hasPrevious ?? page > 1;
  const canGoOn = hasNext ?? page < pages;
  const count = format.number(total);
  return (
    <Stack spacing={1.5}>
      {loading ? <LinearProgress aria-label={t('list.loading')} /> : null}
      {items.length === 0 && !loading ? (
        <Typography sx={{ color: 'text.secondary', py: 2, textAlign: 'center' }}>
          {noItemsLabel}
        </Typography>
      ) : (
        <Stack
          component="ul"
          aria-label={label}
          spacing={1.5}
          sx={{ listStyle: 'none', m: 0, p: 0 }}
        >
          {items.map((item) => (
            <li key={itemKey(item)}>{renderItem(item)}</li>
          ))}
        </Stack>
      )}
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Button disabled={!canGoBack || loading} onClick={onPrevious}>
          {t('list.previousPage')}
        </Button>
        <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center' }}>
          {keyset
            ? t('list.page', { page: format.number(page) })
            : t('list.pageOf', { page: format.number(page), pages: format.number(pages) })}{' '}
          · {atLeast ? t('list.totalMoreThan', { count }) : t('list.total', { total: count })}
        </Typography>
        <Button disabled={!canGoOn || loading} onClick={onNext}>
          {t('list.nextPage')}
        </Button>
      </Stack>
    </Stack>
  );
}
