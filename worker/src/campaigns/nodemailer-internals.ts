/**
 * Every part of Nodemailer that campaign sends use below its `sendMail` API,
 * in one place. `mime-node`, `qp` and `shared` are Nodemailer's own modules
 * but not its documented API: nodemailer is pinned to an exact version in
 * worker/package.json, and `nodemailer-internals.test.ts` fails on an upgrade
 * that changes what the campaign's MIME and transport rely on.
 */
import MimeNode from 'nodemailer/lib/mime-node';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

export { MimeNode, SMTPConnection };
export { encode as encodeQuotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp';
export { parseConnectionUrl, type ConnectionUrlOptions } from 'nodemailer/lib/shared';
