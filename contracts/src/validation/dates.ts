import type { ValidationMessage } from './messages';
import { message, text } from './fields';

/**
 * The years a date the API takes may fall in. Nothing the agency plans lies
 * outside them, and JavaScript's Date would otherwise take year 275760 (its
 * last) or two-digit years as real ones.
 */
export const DATE_YEAR_MIN = 2000;
export const DATE_YEAR_MAX = 2100;

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * An instant as `toISOString()` writes it, with a UTC offset of its own
 * (`Z` or `+01:00`): without one, the same text is a different instant in
 * the browser and on the server.
 */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,3})?)?(?:Z|[+-](?:0\d|1[0-4]):[0-5]\d)$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The days of `month` (1-12) in `year`. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * What is wrong with the day a date's digits name, or null. Date.parse
 * rolls `2030-02-30` over to March 2; the day must exist as written.
 */
function calendarDayProblem(
  year: number,
  month: number,
  day: number,
  invalid: ValidationMessage,
): ValidationMessage | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return invalid;
  if (year < DATE_YEAR_MIN || year > DATE_YEAR_MAX) {
    return message('yearOutOfRange', { min: DATE_YEAR_MIN, max: DATE_YEAR_MAX });
  }
  return null;
}

/** What is wrong with a calendar date (`YYYY-MM-DD`), or null when it is one. */
export function calendarDateProblem(value: string): ValidationMessage | null {
  const day = CALENDAR_DAY.exec(value);
  if (!day) return message('calendarDateInvalid');
  return calendarDayProblem(
    Number(day[1]),
    Number(day[2]),
    Number(day[3]),
    message('calendarDateInvalid'),
  );
}

/** What is wrong with an ISO instant (date, time and offset), or null when it is one. */
export function isoInstantProblem(value: string): ValidationMessage | null {
  const parts = ISO_INSTANT.exec(value);
  if (!parts || Number.isNaN(Date.parse(value))) return message('dateInvalid');
  return calendarDayProblem(
    Number(parts[1]),
    Number(parts[2]),
    Number(parts[3]),
    message('dateInvalid'),
  );
}

/** Whether a time (ms since the epoch) falls within the years dates may name. */
export function isWithinDateYears(epochMs: number): boolean {
  if (!Number.isFinite(epochMs)) return false;
  const year = new Date(epochMs).getUTCFullYear();
  return year >= DATE_YEAR_MIN && year <= DATE_YEAR_MAX;
}

/** A calendar date field (`YYYY-MM-DD`), a day that exists in the years above. */
export function calendarDate() {
  return text(10).test('calendar-date', (value, context) => {
    if (value === undefined || value === '') return true;
    const problem = calendarDateProblem(value);
    return problem ? context.createError({ message: problem }) : true;
  });
}

/** An instant field (`2030-02-28T09:30:00.000Z`), on a day that exists in the years above. */
export function isoInstant() {
  return text(40).test('iso-instant', (value, context) => {
    if (value === undefined || value === '') return true;
    const problem = isoInstantProblem(value);
    return problem ? context.createError({ message: problem }) : true;
  });
}
