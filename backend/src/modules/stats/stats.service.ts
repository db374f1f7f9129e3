import { DateTime } from 'luxon';
import { SERVICE_SLUGS, type EnquiryTrendDto, type StatsDto } from '@agency/contracts';
import { COUNT_FIELDS, FiguresUnavailableError, type KeptCounts } from '@agency/platform';
import { HttpError } from '../../errors';

/** While Redis does not answer the figures are unknown: a 503 says so, not a 500. */
export async function readFigures<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error: unknown) {
    if (error instanceof FiguresUnavailableError) {
      throw new HttpError('UNAVAILABLE', error.message);
    }
    throw error;
  }
}

/** Midnight today and Monday 00:00 of this week, in the agency's time zone. */
export function periodStarts(timeZone: string, now = new Date()): { today: Date; week: Date } {
  const local = DateTime.fromJSDate(now).setZone(timeZone);
  return {
    today: local.startOf('day').toJSDate(),
    week: local.startOf('week').toJSDate(),
  };
}

/** The local days from `first` to `last`, both included, as the days hash names them. */
function daysBetween(first: DateTime, last: DateTime): string[] {
  const days: string[] = [];
  for (let day = first; day <= last; day = day.plus({ days: 1 })) {
    days.push(day.toFormat('yyyy-MM-dd'));
  }
  return days;
}

/**
 * The dashboard's cards, read from the kept figures: one hash and the days
 * of this week, whatever the size of the collections.
 */
export async function dashboardStats(
  kept: KeptCounts,
  timeZone: string,
  now = new Date(),
): Promise<StatsDto> {
  const today = DateTime.fromJSDate(now).setZone(timeZone).startOf('day');
  const week = daysBetween(today.startOf('week'), today);
  const [count, perDay] = await readFigures(() =>
    Promise.all([kept.counts(), kept.days(week, timeZone)]),
  );
  const contactsByService = SERVICE_SLUGS.map((service) => ({
    service,
    count: count(COUNT_FIELDS.contactsByService(service)),
  })).sort((a, b) => b.count - a.count);
  return {
    totalContacts: count(COUNT_FIELDS.contacts),
    todayContacts: perDay.at(-1) ?? 0,
    totalSubscribers: count(COUNT_FIELDS.subscribers('confirmed')),
    totalCampaigns: count(COUNT_FIELDS.campaigns),
    thisWeekContacts: perDay.reduce((sum, day) => sum + day, 0),
    contactsByService,
    timeZone,
  };
}

/** Enquiries per local day over the last `days` days, today included: one read. */
export async function enquiryTrend(
  kept: KeptCounts,
  timeZone: string,
  days: number,
  now = new Date(),
): Promise<EnquiryTrendDto> {
  const today = DateTime.fromJSDate(now).setZone(timeZone).startOf('day');
  const dates = daysBetween(today.minus({ days: days - 1 }), today);
  const counts = await readFigures(() => kept.days(dates, timeZone));
  return { timeZone, days: dates.map((date, index) => ({ date, count: counts[index] ?? 0 })) };
}
