import type { ValidationError } from 'yup';
import { imageInsertSchema } from './media';

function firstMessageKey(input: unknown): string | undefined {
  try {
    imageInsertSchema.validateSync(input);
    return undefined;
  } catch (error) {
    return ((error as ValidationError).errors[0] as unknown as { key: string }).key;
  }
}

describe('the image picker form', () => {
  it('requires alt text for an image that says something', () => {
    expect(firstMessageKey({ alt: '   ' })).toBe('altRequired');
    expect(imageInsertSchema.validateSync({ alt: ' Our team in Sfax ' })).toEqual({
      decorative: false,
      alt: 'Our team in Sfax',
    });
  });

  it('keeps the alt text of a decorative image empty, whatever was typed', () => {
    expect(imageInsertSchema.validateSync({ decorative: true, alt: 'a line' })).toEqual({
      decorative: true,
      alt: '',
    });
  });

  it('caps the alt text', () => {
    expect(firstMessageKey({ alt: 'x'.repeat(301) })).toBe('maxLength');
  });
});
