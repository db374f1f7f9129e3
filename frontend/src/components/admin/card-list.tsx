import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';

export interface CardListProps<Item> {
  label: string;
  items: readonly Item[];
  total: number;
  page: number;
  pageSize: number;
  loading: boolean;
  onPageChange: (page: number) => void;
  itemKey: (item: Item) => string;
  renderItem: (item: Item) => ReactNode;
  noItemsLabel: string;
}

/** The phone's form of an admin list: one card per record, then a pager. */
export function CardList<Item>({
  label,
  items,
  total,
  page,
  pageSize,
  loading,
  onPageChange,
  itemKey,
  renderItem,
  noItemsLabel,
}: CardListProps<Item>) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const pages = Math.max(1, Math.ceil(total / pageSize));
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
        <Button disabled={page <= 1 || loading} onClick={() => onPageChange(page - 1)}>
          {t('list.previousPage')}
        </Button>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('list.pageOf', { page, pages })} · {t('list.total', { count: total })}
        </Typography>
        <Button disabled={page >= pages || loading} onClick={() => onPageChange(page + 1)}>
          {t('list.nextPage')}
        </Button>
      </Stack>
    </Stack>
  );
}
