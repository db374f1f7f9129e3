import { DateTime } from 'luxon';
import { SERVICE_SLUGS, type EnquiryTrendDto, type StatsDto } from '@agency/contracts';
import { contactArrivalTimes, countContacts } from '../contact';
import { countConfirmedSubscribers } from '../newsletter';
import { countCampaigns } from '../campaigns';

/** Midnight today and Monday 00:00 of this week, in the agency's time zone. */
export function periodStarts(timeZone: string, now = new Date()): { today: Date; week: Date } {
  const local = DateTime.fromJSDate(now).setZone(timeZone);
  return {
    today: local.startOf('day').toJSDate(),
    week: local.startOf('week').toJSDate(),
  };
}

export async function dashboardStats(timeZone: string, now = new Date()): Promise<StatsDto> {
  const { today, week } = periodStarts(timeZone, now);
  const [contacts, totalSubscribers, totalCampaigns] = await Promise.all([
    countContacts([today, week]),
    countConfirmedSubscribers(),
    countCampaigns(),
  ]);
  const counted = new Map(contacts.byService.map(({ service, count }) => [service, count]));
  const contactsByService = SERVICE_SLUGS.map((service) => ({
    service,
    count: counted.get(service) ?? 0,
  })).sort((a, b) => b.count - a.count);
  return {
    totalContacts: contacts.total,
    todayContacts: contacts.since[0] ?? 0,
    totalSubscribers,
    totalCampaigns,
    thisWeekContacts: contacts.since[1] ?? 0,
    contactsByService,
    timeZone,
  };
}

/**
 * Enquiries per local day over the last `days` days, today included. Grouped
 * here rather than in the database: FerretDB 1.x lacks the date operators,
 * and a month of enquiries is a small read of one indexed field.
 */
export async function enquiryTrend(
  timeZone: string,
  days: number,
  now = new Date(),
): Promise<EnquiryTrendDto> {
  const today = DateTime.fromJSDate(now).setZone(timeZone).startOf('day');
  const first = today.minus({ days: days - 1 });
  const counts = new Map<string, number>();
  for (let day = 0; day < days; day += 1) counts.set(dayKey(first.plus({ days: day })), 0);
  for (const arrival of await contactArrivalTimes(first.toJSDate())) {
    const key = dayKey(DateTime.fromJSDate(arrival).setZone(timeZone));
    const count = counts.get(key);
    // Arrivals after `now` (clock skew between replicas) fall outside the period.
    if (count !== undefined) counts.set(key, count + 1);
  }
  return { timeZone, days: [...counts].map(([date, count]) => ({ date, count })) };
}

function dayKey(day: DateTime): string {
  return day.toFormat('yyyy-MM-dd');
}
