// @ts-check
/**
 * How many commands of each kind the store has served, every client
 * together (`serverStatus`, which MongoDB and FerretDB both report).
 * @param {any} db @returns {Promise<Record<string, number>>}
 */
export async function storeCommands(db) {
  const status = await db.admin().command({ serverStatus: 1 });
  /** @type {Record<string, { total?: number }>} */
  const commands = status.metrics?.commands ?? {};
  return Object.fromEntries(
    Object.entries(commands).map(([name, counts]) => [name, Number(counts.total ?? 0)]),
  );
}

/** The reads and writes served between two `storeCommands` readings. */
const COUNTED = ['insert', 'find', 'getMore', 'update', 'delete', 'findAndModify', 'aggregate'];

/** @param {Record<string, number>} before @param {Record<string, number>} after */
export function commandsSince(before, after) {
  return Object.fromEntries(
    COUNTED.map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]),
  );
}

/**
 * "insert 0.24, find 1.00": each kind's count per unit (an enquiry, a batch), those served at all.
 * @param {Record<string, number>} commands @param {number} units
 */
export function commandsPer(commands, units) {
  return Object.entries(commands)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${(count / Math.max(1, units)).toFixed(2)}`)
    .join(', ');
}
