// @ts-check
import { createServer } from 'node:net';

export const LOOPBACK = '127.0.0.1';

/**
 * Resolves with the port the OS gave a listener on `port` (0 = any free one),
 * or null when that port is taken.
 * @param {number} port
 * @param {string} host
 * @returns {Promise<number | null>}
 */
function tryListen(port, host) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error) => {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      if (code === 'EADDRINUSE' || code === 'EACCES') resolve(null);
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const boundPort = typeof address === 'object' && address ? address.port : null;
      server.close(() => resolve(boundPort));
    });
  });
}

/**
 * A port nobody listens on right now (the OS picks it).
 * @param {string} [host]
 */
export async function getFreePort(host = LOOPBACK) {
  const port = await tryListen(0, host);
  if (port === null) throw new Error(`No free port on ${host}`);
  return port;
}

/**
 * @param {number} port
 * @param {string} [host]
 */
export async function isPortFree(port, host = LOOPBACK) {
  return (await tryListen(port, host)) !== null;
}

/**
 * The preferred port when it is free, else any free port.
 * @param {number | undefined} preferred
 * @param {string} [host]
 */
export async function pickPort(preferred, host = LOOPBACK) {
  if (preferred && (await isPortFree(preferred, host))) return preferred;
  return getFreePort(host);
}

/**
 * Distinct free ports (each listener is closed before the next is opened, so
 * the OS could hand the same one out twice; retry until all differ).
 * @param {number} count
 * @param {string} [host]
 */
export async function getFreePorts(count, host = LOOPBACK) {
  /** @type {Set<number>} */
  const ports = new Set();
  while (ports.size < count) ports.add(await getFreePort(host));
  return [...ports];
}
