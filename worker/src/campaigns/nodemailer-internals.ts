/**
 * Every part of Nodemailer that campaign sends use below its `sendMail` API,
 * in one place. `mime-node`, `qp` and `shared` are Nodemailer's own modules
 * but not its documented API: nodemailer is pinned to an exact version in
 * worker/package.json, and `nodemailer-internals.test.ts` fails on an upgrade
 * that changes what the campaign's MIME and transport rely on.
 */
import type { Socket } from 'node:net';
import MimeNode from 'nodemailer/lib/mime-node';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

export { MimeNode, SMTPConnection };
export { encode as encodeQuotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp';
export { parseConnectionUrl, type ConnectionUrlOptions } from 'nodemailer/lib/shared';
export { foldLines } from 'nodemailer/lib/mime-funcs';

/** What `MimeNode.buildHeaders` writes after `key: `, from its own encoder (not in its typings). */
export type HeaderValueEncoder = (key: string, value: string | Date) => string;

/**
 * MimeNode's encoding of one header's value, as its `buildHeaders` calls it
 * for each header (RFC 2047 words for text, `<>` around ids, addresses
 * parsed and their domains in punycode), without a node's header list.
 */
export function headerValueEncoder(): HeaderValueEncoder {
  const node = new MimeNode() as unknown as { encodeHeaderValue?: HeaderValueEncoder };
  const encode = node.encodeHeaderValue;
  if (typeof encode !== 'function') {
    throw new Error("MimeNode's encodeHeaderValue is not where it was");
  }
  return (key, value) => encode.call(node, key, value);
}

/** What an `SMTPConnection` keeps of its session, read by `takeOverConnection` alone. */
interface ConnectionInternals {
  _socket?: Socket;
  _onSocketData?: (chunk: Buffer) => void;
  _supportedExtensions?: string[];
}

/**
 * Hands a connection that has greeted (and signed in) over to its new
 * reader: its socket, whose replies Nodemailer no longer reads, and the
 * extensions the server offered (EHLO). Nodemailer keeps its handlers for the
 * socket's errors, timeout and close, so the connection still ends as it did.
 */
export function takeOverConnection(connection: SMTPConnection): {
  socket: Socket;
  extensions: readonly string[];
} {
  const internals = connection as unknown as ConnectionInternals;
  const { _socket: socket, _onSocketData: onData, _supportedExtensions: extensions } = internals;
  if (!socket || typeof onData !== 'function' || !Array.isArray(extensions)) {
    throw new Error("SMTPConnection's socket, reader or extensions are not where they were");
  }
  socket.removeListener('data', onData);
  return { socket, extensions: [...extensions] };
}
