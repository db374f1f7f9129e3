import { DateTime } from 'luxon';
import { SERVICE_SLUGS, type StatsDto } from '@agency/contracts';
import { countContacts } from '../contact';
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
