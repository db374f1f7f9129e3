/**
 * The media library's image process: the API forks it (media-image.pool.ts)
 * and hands it each upload as the file it was kept in. Here it is read,
 * hashed, checked and made mail-ready. Decoding a 12-megapixel photo keeps a
 * core busy for about 100 ms; here that work runs only on cores nothing
 * else wants, so on a small server the scheduler always prefers the API's
 * requests, the store and Redis, and images take the cores they leave.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { constants, setPriority } from 'node:os';
import { contentIdOf, processImage } from './media-image';
import { MediaRefusal } from './media-refusal';
import type { ImageJob, ImageJobAnswer } from './media-image.pool';

/**
 * On Linux a priority belongs to each thread, and a thread takes its
 * creator's: every thread this process has now (V8's among them) is lowered,
 * and those libuv and libvips start later inherit it. Elsewhere it is the
 * process's.
 */
function lowerOwnPriority(): void {
  const lowest = constants.priority.PRIORITY_LOW;
  const threads = process.platform === 'linux' ? readdirSync('/proc/self/task').map(Number) : [0];
  for (const thread of threads) {
    try {
      setPriority(thread, lowest);
    } catch {
      // A thread that ended since the listing has nothing to lower.
    }
  }
  runOnlyWhenIdle();
}

/**
 * On Linux, moves every thread to the SCHED_IDLE policy (util-linux's
 * `chrt`; any process may lower its own). At nice 19 the image work still
 * has a small share of a busy core, and a thread that wakes may wait for
 * its turn; under SCHED_IDLE any other thread that wakes takes the core at
 * once, so the image work fills the gaps between requests instead of
 * delaying them. Without `chrt`, nice 19 stays.
 */
function runOnlyWhenIdle(): void {
  if (process.platform !== 'linux') return;
  try {
    execFileSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], {
      stdio: 'ignore',
    });
  } catch {
    // No chrt here: the threads keep the lowest nice value.
  }
}

async function answer(job: ImageJob): Promise<ImageJobAnswer> {
  try {
    const bytes = await readFile(job.path);
    const image = await processImage(bytes, job.declaredType);
    return { id: job.id, hash: contentIdOf(bytes), image };
  } catch (error) {
    if (error instanceof MediaRefusal) {
      return { id: job.id, refusal: { code: error.code, reason: error.reason } };
    }
    return { id: job.id, failure: error instanceof Error ? error.message : String(error) };
  }
}

lowerOwnPriority();
process.on('message', (job: ImageJob) => {
  void answer(job).then((reply) => process.send?.(reply));
});
// The API went away: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
