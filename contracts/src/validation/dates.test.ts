import { campaignScheduleFormSchema } from '../admin/campaigns';
import { instantOfWallTime } from '../admin/agency-time';
import { calendarDateProblem, isoInstantProblem, isWithinDateYears } from './dates';

/** The dashboard's schedule form and the API check dates with the same rule. */
describe('dates the API and its forms take', () => {
  it.each(['2030-02-30', '2031-02-29', '2100-02-29', '2030-06-31', '2030-00-10', '2030-1-05'])(
    'refuses the day %s, which does not exist as written',
    (date) => {
      expect(calendarDateProblem(date)).toEqual({ key: 'calendarDateInvalid' });
    },
  );

  it.each(['1999-12-31', '2101-01-01', '0030-02-01'])('refuses %s, outside the years', (date) => {
    expect(calendarDateProblem(date)).toEqual({
      key: 'yearOutOfRange',
      values: { min: 2000, max: 2100 },
    });
  });

  it.each(['2000-01-01', '2096-02-29', '2000-02-29', '2100-12-31'])('takes %s', (date) => {
    expect(calendarDateProblem(date)).toBeNull();
  });

  it('takes an instant only with its offset, on a day that exists', () => {
    expect(isoInstantProblem('2030-02-28T09:30:00.000Z')).toBeNull();
    expect(isoInstantProblem('2030-02-28T09:30+01:00')).toBeNull();
    expect(isoInstantProblem('2030-02-30T09:30:00Z')).toEqual({ key: 'dateInvalid' });
    expect(isoInstantProblem('2030-02-28T24:00:00Z')).toEqual({ key: 'dateInvalid' });
    expect(isoInstantProblem('2030-02-28T09:30:00')).toEqual({ key: 'dateInvalid' });
    expect(isoInstantProblem('+275760-09-13T00:00:00.000Z')).toEqual({ key: 'dateInvalid' });
  });

  it('bounds a time in ms to the same years', () => {
    expect(isWithinDateYears(Date.UTC(2100, 11, 31))).toBe(true);
    expect(isWithinDateYears(Date.UTC(2101, 0, 1))).toBe(false);
    expect(isWithinDateYears(8.64e15)).toBe(false);
    expect(isWithinDateYears(Number.NaN)).toBe(false);
  });

  it('makes no instant of a wall time on a day that does not exist', () => {
    expect(instantOfWallTime('2030-02-30', '09:00', 'Africa/Tunis').getTime()).toBeNaN();
    expect(instantOfWallTime('2030-03-02', '09:00', 'Africa/Tunis').toISOString()).toBe(
      '2030-03-02T08:00:00.000Z',
    );
  });

  it('names the schedule form field that is wrong', async () => {
    await expect(
      campaignScheduleFormSchema.validate({ date: '2030-02-30', time: '09:00' }),
    ).rejects.toMatchObject({ path: 'date', message: { key: 'calendarDateInvalid' } });
    await expect(
      campaignScheduleFormSchema.validate({ date: '2030-02-28', time: '25:00' }),
    ).rejects.toMatchObject({ path: 'time', message: { key: 'timeOfDay' } });
  });
});
