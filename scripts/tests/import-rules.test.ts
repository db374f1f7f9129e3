import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface Sample {
  /** Where the import stands. */
  path: string;
  /** What it imports, and from where. */
  name: string;
  from: string;
  /** The start of the message eslint.config.mjs refuses it with, or null where it is allowed. */
  refused: string | null;
}

const ANOTHER_MODULES_MODEL = "Another module's model";
const THROUGH_THE_ENTRY = 'Import @agency/platform through its entry';

const samples: Sample[] = [
  // Each platform module's models stay its own.
  {
    path: 'platform/src/stats/sample.ts',
    name: 'CampaignModel',
    from: '../campaigns/campaign.model',
    refused: ANOTHER_MODULES_MODEL,
  },
  {
    path: 'platform/src/campaigns/rendering/sample.ts',
    name: 'ContactModel',
    from: '../../contact/contact.model',
    refused: ANOTHER_MODULES_MODEL,
  },
  {
    path: 'platform/src/campaigns/rendering/sample.ts',
    name: 'CampaignModel',
    from: '../campaign.model',
    refused: null,
  },
  {
    path: 'platform/src/audience/sample.ts',
    name: 'SubscriberModel',
    from: '../newsletter/subscriber.model',
    refused: null,
  },
  {
    path: 'platform/src/stats/sample.ts',
    name: 'countCampaigns',
    from: '../campaigns/campaign-queries',
    refused: null,
  },
  {
    path: 'platform/src/stats/sample.test.ts',
    name: 'CampaignModel',
    from: '../campaigns/campaign.model',
    refused: null,
  },
  // The API and the worker enter the platform by its entry; their tests may use its models.
  ...[
    'backend/src/modules/lists/sample.ts',
    'backend/src/sample.ts',
    'worker/src/jobs/sample.ts',
  ].map((path) => ({
    path,
    name: 'MailingListModel',
    from: '@agency/platform/testing/audience-models',
    refused: THROUGH_THE_ENTRY,
  })),
  ...[
    'backend/src/modules/lists/sample.test.ts',
    'backend/src/testing/sample.ts',
    'worker/src/jobs/sample.test.ts',
    'worker/src/testing/sample.ts',
  ].map((path) => ({
    path,
    name: 'MailingListModel',
    from: '@agency/platform/testing/audience-models',
    refused: null,
  })),
];

const codeOf = ({ name, from }: Sample) => `import { ${name} } from '${from}';\nvoid ${name};\n`;

/**
 * Lints each sample as if it stood at its path, in one ESLint run of its own
 * (the config is an ES module, which jest's module system cannot load), and
 * prints the messages of the import rules, one list per sample.
 */
const LINT_SCRIPT = `
import { ESLint } from 'eslint';
import { join } from 'node:path';
const eslint = new ESLint({ cwd: process.cwd() });
const answers = [];
for (const { path, code } of JSON.parse(process.argv[1])) {
  const [result] = await eslint.lintText(code, { filePath: join(process.cwd(), path) });
  answers.push(result.messages.filter(({ ruleId }) => ruleId === 'no-restricted-imports').map(({ message }) => message));
}
process.stdout.write(JSON.stringify(answers));
`;

let answers: string[][] = [];
beforeAll(() => {
  const linted = samples.map((sample) => ({ path: sample.path, code: codeOf(sample) }));
  answers = JSON.parse(
    execFileSync('node', ['--input-type=module', '-e', LINT_SCRIPT, JSON.stringify(linted)], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as string[][];
}, 60_000);

describe('the import rules that keep each collection to its module', () => {
  it.each(samples.map((sample, index) => [sample.path, sample.from, sample, index] as const))(
    '%s importing %s',
    (_path, _from, sample, index) => {
      const messages = answers[index];
      if (sample.refused === null) expect(messages).toEqual([]);
      else expect(messages).toEqual([expect.stringContaining(sample.refused)]);
    },
  );
});
