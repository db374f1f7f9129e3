import { request } from 'node:http';

export interface AnswerFromAddress {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * POSTs JSON over a socket bound to `localAddress` (any of 127.0.0.0/8 on
 * Linux), as a visitor at that address would: the server sees that address
 * as the peer, whatever headers the request carries.
 */
export function postJsonFrom(
  localAddress: string,
  url: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<AnswerFromAddress> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(payload)),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON (a proxy's own error page): kept as text for the failure message.
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
