import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type Koa from 'koa';

/** How many requests of each kind a timing comparison sends. */
export const TIMED_REQUESTS = 30;
/** The largest difference of medians that tells nothing (ms). */
export const TIMING_TOLERANCE_MS = 1;

export interface TimedServer {
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<number>;
  close(): Promise<void>;
}

/** The app on a real socket; `post` answers how long the answer took, in ms. */
export async function timedServer(app: Koa): Promise<TimedServer> {
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async post(path, body, headers = {}) {
      const started = performance.now();
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      return performance.now() - started;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Times two kinds of request, one of each in turn so that a busy moment of
 * the machine weighs on both alike (which kind goes first alternates too),
 * and answers the medians.
 */
export async function compareMedians(
  count: number,
  first: (index: number) => Promise<number>,
  second: (index: number) => Promise<number>,
): Promise<{ first: number; second: number; difference: number }> {
  const a: number[] = [];
  const b: number[] = [];
  for (let index = 0; index < count; index += 1) {
    if (index % 2 === 0) {
      a.push(await first(index));
      b.push(await second(index));
    } else {
      b.push(await second(index));
      a.push(await first(index));
    }
  }
  const medians = { first: median(a), second: median(b) };
  return { ...medians, difference: Math.abs(medians.first - medians.second) };
}

/** What a failed comparison shows: both medians (ms, to 0.01) and whether they are close enough. */
export function timingReport(medians: { first: number; second: number; difference: number }) {
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    first: round(medians.first),
    second: round(medians.second),
    withinTolerance: medians.difference <= TIMING_TOLERANCE_MS,
  };
}

/**
 * Up to `rounds` comparisons of medians, stopping at the first within the
 * tolerance. A real difference (a check left out: 3 ms and more here)
 * shows in every round; a busy moment of the shared machine seldom lasts
 * through three. Answers the last round's report.
 */
export async function closestOfRounds(
  rounds: number,
  compare: () => Promise<{ first: number; second: number; difference: number }>,
): Promise<ReturnType<typeof timingReport>> {
  let report = timingReport(await compare());
  for (let round = 1; round < rounds && !report.withinTolerance; round += 1) {
    report = timingReport(await compare());
  }
  return report;
}
