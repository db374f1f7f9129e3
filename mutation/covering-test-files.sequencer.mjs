// @ts-check
/**
 * Runs, for a mutant, only the test files that hold a test covering it.
 *
 * StrykerJS's jest runner narrows a mutant's run twice: `--findRelatedTests`
 * picks every test file that imports the mutated file, however indirectly,
 * and `--testNamePattern` picks the covering tests by their full names. Jest
 * still loads each related file to find out it has none of those tests, and
 * on the mail path a file loads the backend, mongoose and BullMQ: about a
 * second each, with a dozen files related to a store module. Here the full
 * names are matched against each file's top-level `describe` titles before
 * any file loads. A file whose titles cannot be read from its source (a
 * computed title, a test outside any `describe`) is always kept, so a file is
 * dropped only when none of the covering tests can live in it.
 */
import { readFileSync } from 'node:fs';
import DefaultSequencer from '@jest/test-sequencer';

/** A `describe('…'` at the start of a line: a top-level block with a literal title. */
const TOP_LEVEL_DESCRIBE = /^describe\(\s*(['"])((?:\\.|(?!\1).)*)\1/gm;
/**
 * Anything else at the top level that can hold tests: a test outside any
 * block, a `describe.each` (its titles are formatted per row), a title that
 * is not a plain string.
 */
const UNREADABLE_TOP_LEVEL = /^(?:it|test)\b|^describe\.|^describe\(\s*[^'"\s]/m;

/**
 * The full test names in the pattern the jest runner builds: each name
 * regex-escaped, wrapped in parentheses, joined with `|`. An escaped name
 * cannot contain a bare `)|(`.
 * @param {string} pattern
 */
export function namesInPattern(pattern) {
  if (!pattern.startsWith('(') || !pattern.endsWith(')')) return undefined;
  return pattern
    .slice(1, -1)
    .split(')|(')
    .map((escaped) => escaped.replace(/\\(.)/g, '$1'));
}

/**
 * The top-level `describe` titles of a test file, or undefined when some of
 * its tests could sit under a title its source does not spell out.
 * @param {string} source
 */
export function topLevelTitles(source) {
  if (UNREADABLE_TOP_LEVEL.test(source)) return undefined;
  return [...source.matchAll(TOP_LEVEL_DESCRIBE)].map(([, quote, title]) =>
    // Undo the source's escapes of the quote and of backslashes.
    (title ?? '').replaceAll(`\\${quote}`, quote ?? '').replaceAll('\\\\', '\\'),
  );
}

export default class CoveringTestFilesSequencer extends DefaultSequencer {
  /** @type {string[] | undefined} */
  #names;

  /** @param {ConstructorParameters<typeof DefaultSequencer>[0]} options */
  constructor(options) {
    super(options);
    const pattern = options.globalConfig.testNamePattern;
    this.#names = pattern ? namesInPattern(pattern) : undefined;
  }

  /** @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    const names = this.#names;
    if (!names) return super.sort(tests);
    const covering = tests.filter((test) => {
      const titles = topLevelTitles(readFileSync(test.path, 'utf8'));
      if (!titles) return true;
      return names.some((name) => titles.some((title) => name.startsWith(`${title} `)));
    });
    // Never narrow to nothing: an unmatched pattern then runs as jest would run it.
    return super.sort(covering.length > 0 ? covering : tests);
  }
}
