// @ts-check
/** Timing a dashboard read as staff make it: one request after another, each read to its end. */

/**
 * The q-quantile of some latencies (nearest rank).
 * @param {number[]} sorted ascending @param {number} q
 */
const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;

/**
 * `path` requested `times` times one after another, as staff signed in, after
 * `warmUp` untimed ones; each answer read to its end.
 * @param {string} apiUrl @param {string} path @param {Record<string, string>} headers
 * @param {{ times: number, warmUp: number }} count
 */
export async function timeStaffRead(apiUrl, path, headers, { times, warmUp }) {
  const latencies = [];
  let body = '';
  for (let run = 0; run < warmUp + times; run += 1) {
    const begin = performance.now();
    const response = await fetch(`${apiUrl}${path}`, { headers });
    body = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${body}`);
    if (run >= warmUp) latencies.push(performance.now() - begin);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? 0,
    body,
  };
}
