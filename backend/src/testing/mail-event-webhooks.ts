import { execFileSync } from 'node:child_process';
import { createHmac, createSign, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createLogger } from '@agency/platform';
import { randomSecret } from '@agency/platform/testing/test-secrets';
import { createApp } from '../app';
import { createTestContext, type TestContext } from './test-context';

/** The SNS topic the API takes SES notifications from. */
export const SES_TOPIC = 'arn:aws:sns:eu-west-1:123456789012:ses-events';

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/* ---------------------------------------------------------------- signers */

/** The generic format's `X-Mail-Events-Signature`: an HMAC of `t.body`. */
export function genericSignature(
  body: string,
  secret: string,
  t: number | string = nowSeconds(),
): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** Mailgun's `signature` object: an HMAC of the timestamp then the token. */
export function mailgunSignature(timestamp: string, token: string, key: string) {
  return {
    timestamp,
    token,
    signature: createHmac('sha256', key).update(`${timestamp}${token}`).digest('hex'),
  };
}

/** SendGrid's signature header: ECDSA over the timestamp then the raw body, in base64. */
export function sendgridSignature(
  body: string,
  timestamp: number | string,
  privateKey: KeyObject,
): string {
  return sign('sha256', Buffer.from(String(timestamp) + body), privateKey).toString('base64');
}

/** The fields SNS signs, in its order: a notification's, or a subscription message's. */
export function snsStringToSign(message: Readonly<Record<string, string>>): string {
  const order =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return order
    .filter((field) => message[field] !== undefined)
    .map((field) => `${field}\n${message[field]}\n`)
    .join('');
}

/** The message with its `Signature`: RSA-SHA1 for SignatureVersion 1, RSA-SHA256 otherwise. */
export function signSnsMessage(
  message: Readonly<Record<string, string>>,
  privateKeyPem: string,
): Record<string, string> {
  const signer = createSign(message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
  signer.update(snsStringToSign(message));
  return { ...message, Signature: signer.sign(privateKeyPem, 'base64') };
}

/* ---------------------------------------------------------------- SNS's certificate server */

interface SnsCertificateServer {
  host: string;
  certificate: string;
  privateKeyPem: string;
  confirmations(): number;
  close(): Promise<void>;
}

function selfSignedCertificate(): { certificate: string; privateKeyPem: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sns-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'pipe' },
    );
    return {
      certificate: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      privateKeyPem: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A certificate of our own, served over https on loopback as SNS serves its
 * signing certificate; `/confirm…` counts subscription confirmations.
 */
async function serveSnsCertificate(): Promise<SnsCertificateServer> {
  const { certificate, privateKeyPem } = selfSignedCertificate();
  let confirmations = 0;
  const server: Server = createServer({ key: privateKeyPem, cert: certificate }, (req, res) => {
    if (req.url === '/SimpleNotificationService.pem') res.end(certificate);
    else if (req.url?.startsWith('/confirm')) {
      confirmations += 1;
      res.end('<ConfirmSubscriptionResponse/>');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    certificate,
    privateKeyPem,
    confirmations: () => confirmations,
    close: () =>
      new Promise<void>((resolve) => {
        // Node keeps the certificate fetch's connection alive: without this,
        // close() waits for it and jest does not exit.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/* ---------------------------------------------------------------- the API */

export interface MailEventWebhooks {
  ctx: TestContext;
  /** The API, trusting the certificate server's self-signed certificate for SNS. */
  app: ReturnType<typeof createApp>;
  /** Where the SNS signing certificate is served. */
  certUrl: string;
  secrets: {
    generic: string;
    mailgun: string;
    postmark: { username: string; password: string };
  };
  /** How many SNS subscriptions the API confirmed so far. */
  confirmations(): number;
  post(provider: string): request.Test;
  /** A generic-format body, signed with the configured secret unless a signature is given. */
  postGeneric(body: string, signature?: string): request.Test;
  /** A SendGrid batch signed with `timestamp` (now by default); `sent` replaces the body sent. */
  postSendgrid(
    body: string,
    options?: { timestamp?: number | string; sent?: string },
  ): request.Test;
  /** An SNS message from the configured topic, signed with the served certificate's key. */
  snsMessage(
    fields: Record<string, string>,
    options?: { signatureVersion?: '1' | '2' },
  ): Record<string, string>;
  close(): Promise<void>;
}

/**
 * The API with every mail-event provider set up (random generic secret and
 * Mailgun key, a SendGrid key pair, Postmark basic auth, SES through SNS
 * with a certificate served on loopback) and a 64kb body limit; `env` adds
 * or overrides settings.
 */
export async function startMailEventWebhooks(
  env: Record<string, string> = {},
): Promise<MailEventWebhooks> {
  const secrets = {
    generic: randomSecret(),
    mailgun: randomSecret(),
    postmark: { username: 'postmark', password: 'hook-password' },
  };
  const sendgridKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const sns = await serveSnsCertificate();
  const certUrl = `https://${sns.host}/SimpleNotificationService.pem`;
  const ctx = await createTestContext({
    env: {
      MAIL_EVENTS_GENERIC_SECRET: secrets.generic,
      MAIL_EVENTS_MAILGUN_SIGNING_KEY: secrets.mailgun,
      MAIL_EVENTS_POSTMARK_USERNAME: secrets.postmark.username,
      MAIL_EVENTS_POSTMARK_PASSWORD: secrets.postmark.password,
      MAIL_EVENTS_SENDGRID_PUBLIC_KEY: sendgridKeys.publicKey
        .export({ format: 'der', type: 'spki' })
        .toString('base64'),
      MAIL_EVENTS_SES_TOPIC_ARNS: SES_TOPIC,
      MAIL_EVENTS_SES_CERT_HOSTS: sns.host,
      MAIL_EVENTS_BODY_LIMIT: '64kb',
      ...env,
    },
  });
  const { ses } = ctx.config.mailEvents;
  const app = createApp({
    config: {
      ...ctx.config,
      mailEvents: {
        ...ctx.config.mailEvents,
        ses: { ...(ses as NonNullable<typeof ses>), certificateAuthorities: [sns.certificate] },
      },
    },
    logger: createLogger('api', 'silent'),
    queues: ctx.queues,
    campaignQueue: ctx.campaignQueue,
    redis: ctx.redis,
  });
  const post = (provider: string) =>
    request(app.callback()).post(`/api/webhooks/mail-events/${provider}`);
  return {
    ctx,
    app,
    certUrl,
    secrets,
    confirmations: sns.confirmations,
    post,
    postGeneric: (body, signature = genericSignature(body, secrets.generic)) =>
      post('generic')
        .set('Content-Type', 'application/json')
        .set('X-Mail-Events-Signature', signature)
        .send(body),
    postSendgrid: (body, { timestamp = nowSeconds(), sent = body } = {}) =>
      post('sendgrid')
        .set('Content-Type', 'application/json')
        .set(
          'X-Twilio-Email-Event-Webhook-Signature',
          sendgridSignature(body, timestamp, sendgridKeys.privateKey),
        )
        .set('X-Twilio-Email-Event-Webhook-Timestamp', String(timestamp))
        .send(sent),
    snsMessage: (fields, { signatureVersion = '2' } = {}) =>
      signSnsMessage(
        {
          MessageId: `msg-${Math.random().toString(36).slice(2)}`,
          TopicArn: SES_TOPIC,
          Timestamp: new Date().toISOString(),
          SignatureVersion: signatureVersion,
          SigningCertURL: certUrl,
          ...fields,
        },
        sns.privateKeyPem,
      ),
    async close() {
      await ctx.close();
      await sns.close();
    },
  };
}
