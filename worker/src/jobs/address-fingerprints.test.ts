import { createAddressFingerprints } from './address-fingerprints';

const address = (index: number) => `guest${index}@fingerprints.test`;

/** How many of `count` addresses from `from` on were new to `seen`. */
function firstSights(
  seen: ReturnType<typeof createAddressFingerprints>,
  from: number,
  count: number,
) {
  let fresh = 0;
  for (let index = from; index < from + count; index += 1) {
    if (seen.firstSight(address(index))) fresh += 1;
  }
  return fresh;
}

describe('the addresses an import file has met', () => {
  it('knows each address once, through the growths of its table', () => {
    const seen = createAddressFingerprints();
    expect(firstSights(seen, 0, 300_000)).toBe(300_000);
    expect(firstSights(seen, 0, 300_000)).toBe(0);
    expect(firstSights(seen, 299_990, 20)).toBe(10);
    expect(seen.size).toBe(300_010);
  });

  it('holds a million addresses in a table of 16 MB', () => {
    const seen = createAddressFingerprints();
    expect(firstSights(seen, 0, 1_000_000)).toBe(1_000_000);
    expect(seen.bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
  });

  it('starts at the size the expected addresses need, half full at most, and never grows for them', () => {
    const seen = createAddressFingerprints(600_000);
    const sized = seen.bytes;
    expect(sized).toBe(2 ** 21 * 8);
    expect(firstSights(seen, 0, 600_000)).toBe(600_000);
    expect(seen.bytes).toBe(sized);
  });

  it('starts small for a small file, and still grows past what was expected', () => {
    const seen = createAddressFingerprints(10);
    expect(seen.bytes).toBe(2 ** 16 * 8);
    expect(firstSights(seen, 0, 100_000)).toBe(100_000);
    expect(firstSights(seen, 0, 100_000)).toBe(0);
    expect(seen.bytes).toBe(2 ** 18 * 8);
  });
});
