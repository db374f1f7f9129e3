import { formatInstant, formatTagOf } from '@agency/contracts';
import { useMemo } from 'react';
import { useAgencyTimeZone } from './use-agency-time-zone';
import { useLocale } from './locale';

export type Formatters = ReturnType<typeof useFormatters>;

/**
 * Dates and numbers in the page's language (one numbering per language, see
 * formatTagOf), times on the agency's clock with its zone named.
 */
export function useFormatters() {
  const locale = useLocale();
  const timeZone = useAgencyTimeZone();
  return useMemo(() => {
    const tag = formatTagOf(locale);
    const date = new Intl.DateTimeFormat(tag, {
      dateStyle: 'medium',
      ...(timeZone ? { timeZone } : {}),
    });
    const number = new Intl.NumberFormat(tag);
    const money = new Intl.NumberFormat(tag, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    return {
      dateTime: (iso: string) => formatInstant(iso, locale, timeZone),
      /** The day on the agency's calendar. */
      date: (iso: string) => date.format(new Date(iso)),
      number: (value: number) => number.format(value),
      /** An amount with cents (budgets, lead values); the currency is the agency's. */
      money: (value: number) => money.format(value),
    };
  }, [locale, timeZone]);
}
