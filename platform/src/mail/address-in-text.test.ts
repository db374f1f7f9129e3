import { addressCandidatePattern, addressInTextPattern } from './address-in-text';

describe('an address inside a text', () => {
  const exact = addressInTextPattern('Ann@Example.tn');

  it.each([
    'ann@example.tn',
    '12,ANN@example.TN,Ann',
    '{"email":"ann@example.tn"}',
    '550 5.1.1 <ann@example.tn>: user unknown',
    'Write to ann@example.tn.',
  ])('is found in %s', (text) => {
    expect(exact.test(text)).toBe(true);
  });

  it.each(['joann@example.tn', 'ann@example.tn.evil', 'ann@example.tnx', 'x.ann@example.tn'])(
    'is not found in the longer address %s, which the loose pattern still selects',
    (text) => {
      expect(exact.test(text)).toBe(false);
      expect(addressCandidatePattern('ann@example.tn').test(text)).toBe(true);
    },
  );

  it('replaces every occurrence with the global flag', () => {
    const text = 'ann@example.tn, joann@example.tn, ANN@example.tn';
    expect(text.replace(addressInTextPattern('ann@example.tn', 'gi'), 'erased')).toBe(
      'erased, joann@example.tn, erased',
    );
  });
});
