import { CAMPAIGN_NAME_MAX, campaignCopyNames, originalNameOfCopy } from './campaign-copy-name';

describe('the names of a campaign copy', () => {
  it('names a copy in the asker’s language, then numbers the next ones', () => {
    expect(campaignCopyNames('Spring sale', 'en', 3)).toEqual([
      'Copy of Spring sale',
      'Copy of Spring sale (2)',
      'Copy of Spring sale (3)',
    ]);
    expect(campaignCopyNames('Soldes', 'fr', 1)).toEqual(['Copie de Soldes']);
    expect(campaignCopyNames('تخفيضات', 'ar', 2, 4)).toEqual([
      'نسخة من تخفيضات (4)',
      'نسخة من تخفيضات (5)',
    ]);
  });

  it('copies a copy as another copy of the original, whatever language named it', () => {
    expect(originalNameOfCopy('Copy of Spring sale (2)')).toBe('Spring sale');
    expect(originalNameOfCopy('Copie de Spring sale')).toBe('Spring sale');
    expect(campaignCopyNames('نسخة من Spring sale (7)', 'en', 1)).toEqual(['Copy of Spring sale']);
  });

  it('leaves a name that only looks like a copy in part as it is', () => {
    expect(originalNameOfCopy('Spring sale (2)')).toBe('Spring sale (2)');
    expect(originalNameOfCopy('Copy of ')).toBe('Copy of ');
  });

  it('cuts a long original so that the name with its number still fits', () => {
    const names = campaignCopyNames('x'.repeat(CAMPAIGN_NAME_MAX), 'en', 12);
    for (const name of names) expect(name.length).toBeLessThanOrEqual(CAMPAIGN_NAME_MAX);
    expect(names[11]).toMatch(/x \(12\)$/);
  });
});
