import {
  ListImportModel,
  ListMemberModel,
  MailingListModel,
} from '@agency/platform/testing/audience-models';
import { importApi, type ImportApi } from '../testing/import-api';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { buildWorker, startWorkerProcess, type WorkerProcess } from '../testing/worker-process';

/**
 * The worker as a real process, killed (SIGKILL) in the middle of a file
 * and started again: the import resumes from its last saved chunk, and
 * nobody is in the list twice or counted twice.
 */
const ROWS = 40_000;
const INVALID_EVERY = 1000;

let ctx: PipelineContext;
let api: ImportApi;
const processes: WorkerProcess[] = [];

beforeAll(async () => {
  buildWorker();
  ctx = await createPipelineContext();
  api = await importApi(ctx);
}, 180_000);

afterAll(async () => {
  for (const worker of processes) {
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  }
  await ctx.close();
});

function startWorker(): Promise<WorkerProcess> {
  return startWorkerProcess({
    MONGODB_URI: ctx.config.mongodbUri,
    REDIS_URL: ctx.config.redisUrl,
    QUEUE_PREFIX: ctx.config.queuePrefix,
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_TO: 'inbox@agency.test',
    // A dead worker's import is taken over within about two seconds.
    CAMPAIGN_LOCK_SECONDS: '2',
  }).then((worker) => {
    processes.push(worker);
    return worker;
  });
}

/** Every thousandth row has no usable address: the report must list each once. */
function bigFile(): string {
  const lines = ['email,first name'];
  for (let index = 1; index <= ROWS; index += 1) {
    lines.push(
      index % INVALID_EVERY === 0 ? `broken-${index},X` : `p${index}@crash.test,P${index}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function checkpointOf(id: string): Promise<number> {
  const stored = await ListImportModel.findById(id, { checkpointRow: 1, status: 1 }).lean();
  return stored?.checkpointRow ?? 0;
}

describe('a worker killed during an import', () => {
  it('resumes after a restart, and nothing is duplicated', async () => {
    const list = await api.post('/api/admin/lists', { name: 'Crash test' });
    const listId = list.body.id as string;
    const uploaded = await api.upload(bigFile(), 'big.csv');
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.id as string;

    const first = await startWorker();
    const started = await api.start(id, listId, uploaded.body.suggestedMapping as object);
    expect(started.status).toBe(202);
    // Killed once a few chunks are stored, well before the end.
    const deadline = Date.now() + 60_000;
    while ((await checkpointOf(id)) < 3000) {
      if (Date.now() > deadline) throw new Error('the import never got going');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const atKill = await checkpointOf(id);
    expect(atKill).toBeLessThan(ROWS);
    expect((await ListImportModel.findById(id).lean())?.status).toBe('running');

    const second = await startWorker();
    const result = await api.waitForEnd(id, 120_000).catch((error: Error) => {
      // What the worker said, to tell a slow run from a stuck one.
      const said = second.lines.filter(
        (line) => Number(line.level) >= 40 || /import/.test(String(line.msg)),
      );
      throw new Error(`${error.message}: ${JSON.stringify(said).slice(0, 3000)}`);
    });
    const invalid = ROWS / INVALID_EVERY;
    // The second run took over from the checkpoint, not from the start.
    const resumedFrom = second.lines.find((line) => line.msg === 'list import started')?.fromRow;
    expect(resumedFrom).toBeGreaterThanOrEqual(atKill);
    expect(result.status).toBe('done');
    expect(result.counts).toEqual({
      read: ROWS,
      created: ROWS - invalid,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      invalid,
    });
    expect(await ListMemberModel.countDocuments({ list: listId })).toBe(ROWS - invalid);
    expect((await MailingListModel.findById(listId).lean())?.memberCount).toBe(ROWS - invalid);

    const report = await api.get(`/api/admin/imports/${id}/report`);
    const lines = report.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1);
    expect(lines).toEqual(
      Array.from(
        { length: invalid },
        (_, i) => `${(i + 1) * INVALID_EVERY},broken-${(i + 1) * INVALID_EVERY},invalid-email`,
      ),
    );
  }, 240_000);
});
