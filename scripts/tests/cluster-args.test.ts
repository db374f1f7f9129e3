import { parseClusterArgs } from '../cluster/cluster-args.mjs';

describe('npm run test:cluster arguments', () => {
  it('runs the four scenarios with 20,000 recipients, within 20 minutes, by default', () => {
    expect(parseClusterArgs([])).toEqual({
      scenarios: [1, 2, 3, 4],
      recipients: 20_000,
      timeLimitMs: 20 * 60_000,
      verbose: false,
    });
  });

  it('runs the scenarios named, once each and in order', () => {
    expect(
      parseClusterArgs(['--', '--scenarios', '3,1,3', '--recipients', '5000']).scenarios,
    ).toEqual([1, 3]);
  });

  it.each([
    [['--scenarios', '5'], /--scenarios takes some of 1,2,3,4 \(got 5\)/],
    [['--recipients', '10'], /--recipients takes a whole number, 100 or more/],
    [['--time-limit-minutes', 'soon'], /--time-limit-minutes takes a number of minutes/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseClusterArgs(argv)).toThrow(message);
  });
});
