import { createServer, type Server } from 'node:net';
import { getFreePort, isPortFree, pickPort } from '../lib/ports.mjs';
import { waitForHttpUrl, waitForTcpPort } from '../lib/wait.mjs';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('ports', () => {
  it('keeps a preferred port that is free and replaces one that is taken', async () => {
    const port = await getFreePort();
    expect(await pickPort(port)).toBe(port);

    const server = await listenOn(port);
    try {
      expect(await isPortFree(port)).toBe(false);
      const replacement = await pickPort(port);
      expect(replacement).not.toBe(port);
      expect(await isPortFree(replacement)).toBe(true);
    } finally {
      server.close();
    }
  });
});

describe('waiting', () => {
  it('waits for a TCP port and gives up after the timeout', async () => {
    const port = await getFreePort();
    await expect(waitForTcpPort(port, { timeoutMs: 300 })).rejects.toThrow(/Nothing listens/);

    const server = await listenOn(port);
    try {
      await expect(waitForTcpPort(port, { timeoutMs: 2000 })).resolves.toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('reports the last answer of a URL that never becomes ready', async () => {
    const port = await getFreePort();
    const { createServer: createHttpServer } = await import('node:http');
    const server = createHttpServer((_request, response) => response.writeHead(503).end());
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await expect(
        waitForHttpUrl(`http://127.0.0.1:${port}/`, {
          timeoutMs: 400,
          isReady: (status) => status === 200,
        }),
      ).rejects.toThrow(/last outcome: HTTP 503/);
    } finally {
      server.close();
    }
  });
});
