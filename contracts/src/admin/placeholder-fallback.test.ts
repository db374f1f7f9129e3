import fc from 'fast-check';
import { campaignSchema } from './campaigns';
import {
  DEFAULT_PLACEHOLDER_FALLBACKS,
  PLACEHOLDER_FALLBACK_MAX,
  fallbackProblem,
  parsePlaceholders,
  strayPlaceholderBraces,
} from './placeholder-fallback';

const valid = {
  name: 'Spring',
  subject: 'Hello {{firstName|there}}',
  content: '<p>Dear {{ firstName | there }},</p>',
};

async function problemOf(input: Record<string, unknown>) {
  try {
    await campaignSchema.validate({ ...valid, ...input }, { abortEarly: true });
    return null;
  } catch (error) {
    const issue = error as { path?: string; message: { key: string } };
    return { path: issue.path, key: issue.message.key };
  }
}

/** Text a fallback may be: no braces, `|` or angle brackets, not blank, not too long. */
const plainText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: PLACEHOLDER_FALLBACK_MAX })
  .filter((text) => !/[{}<>|&]/.test(text) && text.trim() !== '' && text === text.trim());

const names = fc.constantFrom('firstName', 'lastName', 'email');
const spaces = fc.constantFrom('', ' ', '  ');

describe('the placeholder parser', () => {
  it('reads back any name and plain fallback however it is spaced', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }).filter((text) => !/[{}]/.test(text)),
        names,
        plainText,
        spaces,
        spaces,
        (before, name, fallback, inner, outer) => {
          const source = `${before}{{${outer}${name}${inner}|${inner}${fallback}${outer}}}!`;
          const [placeholder, ...others] = parsePlaceholders(source);
          expect(others).toEqual([]);
          expect(placeholder).toEqual({
            name,
            fallback,
            start: before.length,
            end: source.length - 1,
          });
          expect(fallbackProblem(fallback, false)).toBeNull();
          expect(strayPlaceholderBraces(source)).toBe(false);
        },
      ),
    );
  });

  it('gives no fallback to a placeholder written without a |', () => {
    fc.assert(
      fc.property(names, spaces, (name, space) => {
        expect(parsePlaceholders(`{{${space}${name}${space}}}`)).toEqual([
          { name, fallback: undefined, start: 0, end: name.length + 4 + space.length * 2 },
        ]);
      }),
    );
  });

  it('refuses any fallback holding a brace, a | or markup, raw or entity-encoded', () => {
    const forbidden = fc.constantFrom('{', '}', '<', '>', '|', '&lt;', '&#x7b;', '&gt;');
    fc.assert(
      fc.property(plainText, forbidden, plainText, (head, bad, tail) => {
        const fallback = `${head}${bad}${tail}`;
        const html = fallbackProblem(fallback, true);
        expect(
          html === 'fallbackMarkup' || strayPlaceholderBraces(`{{firstName|${fallback}}}`),
        ).toBe(true);
        if (!bad.startsWith('&')) {
          expect(
            fallbackProblem(fallback, false) === 'fallbackMarkup' ||
              strayPlaceholderBraces(`{{firstName|${fallback}}}`),
          ).toBe(true);
        }
      }),
    );
  });

  it('counts the length of a fallback in characters as read, not as encoded', () => {
    const longest = 'é'.repeat(PLACEHOLDER_FALLBACK_MAX);
    expect(fallbackProblem(longest.replace(/é/g, '&eacute;'), true)).toBeNull();
    expect(fallbackProblem(`${longest}x`, false)).toBe('fallbackTooLong');
    expect(fallbackProblem('   ', false)).toBe('fallbackEmpty');
  });
});

describe('a campaign with fallbacks', () => {
  it('accepts fallbacks on the recipient placeholders in subject and content', async () => {
    expect(await problemOf({})).toBeNull();
    expect(await problemOf({ content: '<p>Hi {{lastName|Tom &amp; Jerry}}</p>' })).toBeNull();
  });

  it.each([
    ['content', '<p>Dear {{firstName|<b>you</b>}},</p>', 'fallbackMarkup'],
    ['content', '<p>Dear {{firstName|&lt;b&gt;}},</p>', 'fallbackMarkup'],
    ['content', '<p>Dear {{firstName|the{re}},</p>', 'placeholderMalformed'],
    ['content', '<p>Dear {{firstName|}},</p>', 'fallbackEmpty'],
    [
      'content',
      `<p>Dear {{firstName|${'x'.repeat(PLACEHOLDER_FALLBACK_MAX + 1)}}},</p>`,
      'fallbackTooLong',
    ],
    ['content', '<p><a href="{{unsubscribeUrl|x}}">x</a></p>', 'fallbackNotAllowed'],
    ['subject', 'Dear {{firstName|a|b}}', 'fallbackMarkup'],
    ['subject', 'Dear {{firstName', 'placeholderMalformed'],
    ['subject', 'Dear {{nickname|you}}', 'unknownVariable'],
    // The footer's manage link is the compile step's own slot, never a campaign's.
    ['content', '<p><a href="{{manageUrl}}">x</a></p>', 'unknownVariable'],
  ])('refuses the %s %j with %s, naming the field', async (field, value, key) => {
    expect(await problemOf({ [field]: value })).toEqual({ path: field, key });
  });

  it('gives each language the shipped default fallback unless the campaign sets its own', async () => {
    const parsed = await campaignSchema.validate({
      ...valid,
      placeholderFallbacks: { fr: 'cher ami' },
    });
    expect(parsed.placeholderFallbacks).toEqual({
      ...DEFAULT_PLACEHOLDER_FALLBACKS,
      fr: 'cher ami',
    });
    expect((await campaignSchema.validate(valid)).placeholderFallbacks).toEqual(
      DEFAULT_PLACEHOLDER_FALLBACKS,
    );
  });

  it.each([
    [{ en: '' }, 'placeholderFallbacks.en', 'required'],
    [{ ar: '<i>x</i>' }, 'placeholderFallbacks.ar', 'fallbackMarkup'],
    [{ fr: '{{firstName}}' }, 'placeholderFallbacks.fr', 'fallbackMarkup'],
    [{ en: 'x'.repeat(PLACEHOLDER_FALLBACK_MAX + 1) }, 'placeholderFallbacks.en', 'maxLength'],
  ])('refuses the default fallbacks %j at %s', async (placeholderFallbacks, path, key) => {
    expect(await problemOf({ placeholderFallbacks })).toEqual({ path, key });
  });
});
