/**
 * Wall-clock time in the agency's time zone (`AGENCY_TIME_ZONE`), with the
 * platform's Intl alone so the browser, the API and the worker read a
 * schedule and a sending window the same way.
 */

/** A day of the week as `Date.getUTCDay()` numbers them: 0 is Sunday. */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface WallTime {
  /** YYYY-MM-DD */
  date: string;
  /** HH:mm */
  time: string;
  weekday: Weekday;
  /** Minutes since midnight. */
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function partsOf(instant: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const { type, value } of formatterOf(timeZone).formatToParts(new Date(instant))) {
    if (type !== 'literal') parts[type] = Number(value);
  }
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

/** How far the zone's clock is ahead of UTC at this instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const { year, month, day, hour, minute, second } = partsOf(instant, timeZone);
  const asUtc = Date.UTC(year, month - 1, day, hour % 24, minute, second);
  return asUtc - (instant - (instant % 1000));
}

const pad = (value: number) => String(value).padStart(2, '0');

/** What the agency's clock shows at this instant. */
export function wallTimeOf(instant: Date | number, timeZone: string): WallTime {
  const at = typeof instant === 'number' ? instant : instant.getTime();
  const { year, month, day, hour, minute } = partsOf(at, timeZone);
  const hours = hour % 24;
  return {
    date: `${year}-${pad(month)}-${pad(day)}`,
    time: `${pad(hours)}:${pad(minute)}`,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay() as Weekday,
    minutes: hours * 60 + minute,
  };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function minutesOf(time: string): number {
  const match = TIME_OF_DAY.exec(time);
  if (!match) return Number.NaN;
  return Number(match[1]) * 60 + Number(match[2]);
}

/**
 * The instant at which the agency's clock shows `date` `time`. A time that
 * does not exist (skipped by a daylight-saving change) moves forward with
 * the clock; one that exists twice is the first. A day that does not exist
 * (30 February) gives an invalid date.
 */
export function instantOfWallTime(date: string, time: string, timeZone: string): Date {
  const day = DATE.exec(date);
  const minutes = minutesOf(time);
  if (!day || Number.isNaN(minutes)) return new Date(Number.NaN);
  const midnight = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  // Date.UTC rolls 30 February over to March: a day that does not exist is no instant.
  if (new Date(midnight).toISOString().slice(0, 10) !== date) return new Date(Number.NaN);
  const guess = midnight + minutes * 60_000;
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  return new Date(Math.min(first, second));
}

/** `date` plus `days` days, as YYYY-MM-DD. */
export function addDays(date: string, days: number): string {
  const day = DATE.exec(date);
  if (!day) return date;
  const shifted = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]) + days));
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/** Hours a campaign may be sent in, on the agency's clock: e.g. weekdays 08:00-20:00. */
export interface SendingWindow {
  days: Weekday[];
  /** HH:mm, included. */
  start: string;
  /** HH:mm, excluded; after `start`. */
  end: string;
}

export type WindowState = { open: true; closesAt: Date } | { open: false; opensAt: Date };

/**
 * Whether the window is open at `now`, and when that changes: the moment it
 * closes, or the next moment it opens.
 */
export function windowStateAt(window: SendingWindow, timeZone: string, now: Date): WindowState {
  const local = wallTimeOf(now, timeZone);
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  if (window.days.includes(local.weekday) && local.minutes >= start && local.minutes < end) {
    return { open: true, closesAt: instantOfWallTime(local.date, window.end, timeZone) };
  }
  for (let ahead = 0; ahead <= 7; ahead += 1) {
    const weekday = ((local.weekday + ahead) % 7) as Weekday;
    if (!window.days.includes(weekday)) continue;
    const opensAt = instantOfWallTime(addDays(local.date, ahead), window.start, timeZone);
    if (opensAt.getTime() > now.getTime()) return { open: false, opensAt };
  }
  // No day at all: never opens (the schema refuses such a window).
  return { open: false, opensAt: new Date(8_640_000_000_000_000) };
}
