import { useMemo } from 'react';
import { useLocale } from './locale';

export type Formatters = ReturnType<typeof useFormatters>;

/** Dates and numbers in the page's language (Arabic keeps Western digits, as the site does). */
export function useFormatters() {
  const locale = useLocale();
  return useMemo(() => {
    const tag = locale === 'ar' ? 'ar-TN-u-nu-latn' : locale;
    const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(tag, { dateStyle: 'medium' });
    const number = new Intl.NumberFormat(tag);
    const money = new Intl.NumberFormat(tag, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    return {
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      date: (iso: string) => date.format(new Date(iso)),
      number: (value: number) => number.format(value),
      /** An amount with cents (budgets, lead values); the currency is the agency's. */
      money: (value: number) => money.format(value),
    };
  }, [locale]);
}
