import type { MailingListDto } from '@agency/contracts';
import { useMemo } from 'react';
import { usePeopleMailingListsQuery } from '../api/people-api';

export interface ListNames {
  /** Every list, by name: the filter's options and the names a row's ids stand for. */
  lists: readonly MailingListDto[];
  /** The lists an action may still change (not one being deleted). */
  activeLists: readonly MailingListDto[];
  /** A row's lists by name; an id the API did not name (a list just deleted) is left out. */
  namesOf: (listIds: readonly string[]) => string[];
}

/** The mailing lists by name, asked once for the whole screen. */
export function useListNames(): ListNames {
  const { data } = usePeopleMailingListsQuery(undefined);
  return useMemo(() => {
    const lists = data?.items ?? [];
    const byId = new Map(lists.map((list) => [list.id, list.name]));
    return {
      lists,
      activeLists: lists.filter((list) => list.state === 'active'),
      namesOf: (listIds) =>
        listIds.flatMap((id) => {
          const name = byId.get(id);
          return name === undefined ? [] : [name];
        }),
    };
  }, [data]);
}
