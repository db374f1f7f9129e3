import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Builds workspaces as they run in production (tsc -b is incremental: a
 * no-op when nothing changed), for tests that start a built file as a real
 * process: the worker, the API's image process.
 */
export function buildWorkspaces(...workspaces: string[]): void {
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b', ...workspaces], {
    cwd: ROOT,
    stdio: 'pipe',
  });
}
