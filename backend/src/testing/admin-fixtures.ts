import { Types } from 'mongoose';
import request from 'supertest';
import type { Role } from '@agency/contracts';
import { createUser } from '../modules/users';
import type { TestContext } from './test-context';

export const TEST_PASSWORD = 'correct horse battery staple';

export interface SignedInUser {
  id: string;
  username: string;
  role: Role;
  token: string;
}

let counter = 0;

/** A user of this role, created through the service, then signed in through the API. */
export async function signedInUser(
  ctx: TestContext,
  role: Role,
  password = TEST_PASSWORD,
): Promise<SignedInUser> {
  counter += 1;
  const username = `${role}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const user = await createUser({ username, email: `${username}@agency.test`, role, password });
  const response = await request(ctx.app.callback())
    .post('/api/admin/login')
    .send({ username, password });
  if (response.status !== 200) {
    throw new Error(
      `sign-in of ${username} failed: ${response.status} ${JSON.stringify(response.body)}`,
    );
  }
  return { id: user.id, username, role, token: response.body.token as string };
}

/** One signed-in user of each role. */
export async function oneUserPerRole(ctx: TestContext): Promise<Record<Role, SignedInUser>> {
  const [admin, manager, editor, viewer] = await Promise.all([
    signedInUser(ctx, 'admin'),
    signedInUser(ctx, 'manager'),
    signedInUser(ctx, 'editor'),
    signedInUser(ctx, 'viewer'),
  ]);
  return { admin, manager, editor, viewer };
}

export function unknownId(): string {
  return new Types.ObjectId().toHexString();
}

/** A supertest agent call with the bearer token of a user (or none). */
export function as(ctx: TestContext, user: Pick<SignedInUser, 'token'> | null) {
  const agent = request(ctx.app.callback());
  const withToken = (test: request.Test) =>
    user ? test.set('Authorization', `Bearer ${user.token}`) : test;
  return {
    get: (path: string) => withToken(agent.get(path)),
    post: (path: string, body?: unknown) => withToken(agent.post(path)).send(body as object),
    put: (path: string, body?: unknown) => withToken(agent.put(path)).send(body as object),
    patch: (path: string, body?: unknown) => withToken(agent.patch(path)).send(body as object),
    delete: (path: string) => withToken(agent.delete(path)),
  };
}

export const validEnquiry = {
  firstName: 'Amira',
  lastName: 'Ben Salah',
  email: 'amira@example.tn',
  phone: '+216 20 123 456',
  service: 'web-design',
  message: 'We need a new website for our bakery chain.',
} as const;

/**
 * The consent an enquiry stores when its visitor ticked "send me news", for
 * enquiries written straight to the store that a campaign should mail.
 */
export const ENQUIRY_CONSENT = {
  requestedAt: new Date('2026-01-05T10:00:00Z'),
  locale: 'en',
  source: 'contact-form',
  wordingVersion: 'contact-news-consent-v1',
} as const;

/** An enquiry as stored by a visitor who ticked "send me news". */
export const consentedEnquiry = { ...validEnquiry, consent: ENQUIRY_CONSENT } as const;

export const validClient = {
  companyName: 'Carthage Bakeries',
  contactPerson: 'Sami Trabelsi',
  email: 'sami@carthage-bakeries.tn',
  phone: '+216 71 000 000',
  website: 'https://carthage-bakeries.tn',
  monthlyBudget: 1500.5,
  industry: 'retail',
  status: 'potential',
} as const;

export const validLead = {
  name: 'Leila Mansour',
  email: 'leila@example.tn',
  company: 'Mansour Textiles',
  source: 'referral',
  status: 'contacted',
  estimatedValue: 12000,
  notes: 'Met at the Sfax fair.',
} as const;

export const validCampaign = {
  name: 'Spring offer',
  subject: 'Our spring packages',
  content: '<h1>Spring</h1><p>Discover <a href="https://agency.tn">our packs</a>.</p>',
  recipientType: 'subscribers',
} as const;

/** A copy of `record` without some of its keys, as a form that leaves fields out would send. */
export function without<T extends object, K extends keyof T>(record: T, ...keys: K[]): Omit<T, K> {
  return Object.fromEntries(
    Object.entries(record).filter(([key]) => !keys.includes(key as K)),
  ) as Omit<T, K>;
}
