import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import proxyAddr from 'proxy-addr';

/**
 * Whose X-Forwarded-For the API believes: nobody (`false`), every sender
 * (`true`, safe only while nothing but the proxy can reach the API), or the
 * proxies at these addresses, CIDR ranges and proxy-addr's names
 * (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = boolean | readonly string[];

/** TRUST_PROXY's spellings of yes and no, as envalid's `bool` reads them. */
const YES = new Set(['true', 't', 'yes', 'on', '1']);
const NO = new Set(['false', 'f', 'no', 'off', '0']);

/** Reads TRUST_PROXY; throws with the offending entry when one is not an address, range or name. */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (YES.has(value)) return true;
  if (NO.has(value)) return false;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('must be true, false or proxy addresses');
  for (const entry of entries) {
    try {
      proxyAddr.compile(entry);
    } catch {
      throw new Error(
        `must be true, false, or proxy addresses and CIDR ranges separated by commas ("${entry}" is neither)`,
      );
    }
  }
  return entries;
}

function trustedHop(setting: TrustProxy): (address: string, hop: number) => boolean {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  return proxyAddr.compile([...setting]);
}

/** Drops what a trusted proxy says about the visitor, and anyone else could forge. */
function dropForwardedHeaders(headers: IncomingHttpHeaders): void {
  delete headers['x-forwarded-for'];
  delete headers['x-forwarded-proto'];
  delete headers['x-forwarded-host'];
}

/**
 * Sets `ctx.ip` to the visitor's address, for the per-address limits and the
 * logs: X-Forwarded-For is walked from the nearest hop back, and believed
 * only as far as each hop is a trusted proxy. A request that reaches the API
 * straight from an untrusted address loses its forwarded headers, so it can
 * choose neither its address nor (through Koa's `proxy`) its protocol or host.
 */
export function clientAddress(setting: TrustProxy): Middleware {
  const trusted = trustedHop(setting);
  return async (ctx, next) => {
    const peer = ctx.req.socket.remoteAddress;
    if (peer === undefined || !trusted(peer, 0)) {
      dropForwardedHeaders(ctx.req.headers);
    }
    // Unset when the socket has already closed: Koa then falls back to its own answer.
    if (peer !== undefined) ctx.request.ip = proxyAddr(ctx.req, trusted);
    await next();
  };
}
