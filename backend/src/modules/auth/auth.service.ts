import { createHash, randomBytes } from 'node:crypto';
import {
  formatValidationMessage,
  isTotpCode,
  type EnrolmentCompleteResponse,
  type Locale,
  type LoginInput,
  type LoginSecondFactorResponse,
  type LoginSuccessResponse,
  type PasswordChangeInput,
  type PasswordChangeResponse,
  type ReauthenticationInput,
  type RecoveryCodesResponse,
  type SecondFactorInput,
  type TwoFactorConfirmInput,
  type TwoFactorSetupInput,
  type TwoFactorSetupResponse,
  type TwoFactorStatusResponse,
  type ValidationMessageKey,
} from '@agency/contracts';
import type { AuthConfig } from '../../config';
import { HttpError } from '../../errors';
import {
  acceptTotpStep,
  enableTwoFactor,
  findUserById,
  findUserByLogin,
  recordSuccessfulLogin,
  replaceRecoveryCodes,
  removeTwoFactor,
  savePendingTwoFactorSecret,
  spendRecoveryCode,
  type Redis,
  type StoredUser,
} from '@agency/platform';
import { changeOwnPassword, hashPassword, toAuthUserDto, verifyPassword } from '../users';
import { recordActivity } from '../activity-log';
import type { LoginThrottle } from './login-throttle';
import type { SignInOrigin, TokenService } from './token.service';
import {
  decryptSecret,
  encryptSecret,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  parseRecoveryCode,
  totpStepOf,
} from './two-factor';

let dummyHash: Promise<string> | undefined;

/**
 * A hash of a random password with the same parameters as real ones: an
 * unknown username is checked against it, so it costs the same time as a
 * wrong password and the answer time does not reveal which names exist.
 */
export function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64'));
  return dummyHash;
}

export interface LoginDeps {
  tokens: TokenService;
  throttle: LoginThrottle;
  twoFactor: AuthConfig['twoFactor'];
  /**
   * The demo admin's username while demo mode is on, else null. A newcomer
   * trying the demo has no authenticator app at hand: that one account signs
   * in with its advertised password alone (demo mode never runs in production).
   */
  demoAdmin: string | null;
  /** Decrypts the stored TOTP secrets. */
  secretKey: Buffer;
  /** Guards against one code being used by two requests at the same moment. */
  redis: Redis;
  prefix: string;
}

const INVALID_CREDENTIALS = 'Invalid username or password';

/**
 * The sign-in throttle counts per name (username or e-mail, as the account
 * lookup reads it), whether or not an account has that name. The password
 * step takes from the name typed alone: were an account's two names one
 * counter, a username paused by failures and then an e-mail tried would
 * answer 429 exactly when that e-mail is the account's, pairing them for
 * anyone who probes. So an account takes at most twice the allowance of
 * password guesses in a window. Hashed: no e-mail address in Redis key names.
 */
function nameKey(name: string): string {
  return `name-${createHash('sha256').update(name.trim().toLowerCase()).digest('hex')}`;
}

/**
 * Both names of a known account: every step past the password (codes, a
 * signed-in user's password checks) takes from both, and a completed
 * sign-in clears both, so those steps and the sign-in page share one
 * allowance. Only someone past the password reaches them: they pair nothing.
 */
function accountKeys(user: Pick<StoredUser, 'username' | 'email'>): string[] {
  return [nameKey(user.username), nameKey(user.email)];
}

/** Why a request was refused, as the field it concerns and the reason's message key. */
export class FieldRefused extends Error {
  constructor(
    readonly field: string,
    readonly reason: ValidationMessageKey,
  ) {
    super(reason);
  }

  toHttpError(locale: Locale): HttpError {
    return new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      [this.field]: formatValidationMessage({ key: this.reason }, locale),
    });
  }
}

function activityOf(user: StoredUser) {
  return { id: String(user._id), username: user.username };
}

async function signIn(
  deps: LoginDeps,
  user: StoredUser,
  origin: SignInOrigin,
): Promise<LoginSuccessResponse> {
  await deps.throttle.succeeded(origin.ip, ...accountKeys(user));
  await recordSuccessfulLogin(String(user._id));
  await recordActivity({
    actor: activityOf(user),
    action: 'auth.login',
    target: { type: 'user', id: String(user._id), label: user.username },
    ip: origin.ip,
  });
  const { token, expiresAt } = await deps.tokens.issue(user, origin);
  return { success: true, token, expiresAt: expiresAt.toISOString(), user: toAuthUserDto(user) };
}

export function twoFactorRequired(
  deps: Pick<LoginDeps, 'twoFactor' | 'demoAdmin'>,
  user: StoredUser,
): boolean {
  if (deps.demoAdmin !== null && user.username === deps.demoAdmin) return false;
  return deps.twoFactor.requiredRoles.includes(user.role as never);
}

/**
 * The password step. The attempt is reserved before the password is
 * checked (see LoginThrottle). A right password signs the user in, or, when
 * a second factor is needed, answers a challenge for the next step; the
 * account's count is cleared only once the sign-in is complete, so a known
 * password does not buy more guesses at the code.
 */
export async function login(
  deps: LoginDeps,
  input: LoginInput,
  origin: SignInOrigin,
): Promise<LoginSuccessResponse | LoginSecondFactorResponse> {
  const user = await findUserByLogin(input.username);
  await deps.throttle.reserve(origin.ip, nameKey(input.username));

  const valid = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyPassword(await unknownUserHash(), input.password).then(() => false);

  if (!user || !valid) {
    await recordActivity({
      actor: user ? activityOf(user) : null,
      action: 'auth.login-failed',
      target: { type: 'user', label: input.username },
      ip: origin.ip,
    });
    throw new HttpError('UNAUTHENTICATED', INVALID_CREDENTIALS);
  }

  const step = user.twoFactor ? 'totp' : twoFactorRequired(deps, user) ? 'enrol' : null;
  if (!step) return signIn(deps, user, origin);
  const { token, expiresAt } = deps.tokens.issueChallenge(user, step);
  return {
    success: false,
    secondFactor: step,
    challenge: token,
    challengeExpiresAt: expiresAt.toISOString(),
  };
}

function challengeExpired(): HttpError {
  return new HttpError('UNAUTHENTICATED', 'This sign-in has expired; please sign in again');
}

/**
 * Claims a one-time value for a moment in Redis, so that two requests
 * carrying the same code at once cannot both pass the store's check. When
 * Redis is away the store's conditional update alone decides.
 */
async function claimOnce(deps: LoginDeps, key: string): Promise<boolean> {
  try {
    const claimed = await deps.redis.set(
      `${deps.prefix}:two-factor-used:${key}`,
      '1',
      'EX',
      300,
      'NX',
    );
    return claimed === 'OK';
  } catch {
    return true;
  }
}

/** An authenticator code for this user's enabled second factor: right, in time, and never used before. */
async function acceptTotp(deps: LoginDeps, user: StoredUser, code: string): Promise<boolean> {
  const secret = user.twoFactor ? decryptSecret(user.twoFactor.secret, deps.secretKey) : null;
  const step = secret ? totpStepOf(secret, code) : null;
  if (step === null || !user.twoFactor || step <= user.twoFactor.lastStep) return false;
  const userId = String(user._id);
  return (await claimOnce(deps, `${userId}:step:${step}`)) && acceptTotpStep(userId, step);
}

/** A recovery code of this user: right and unused; it is spent by this call. */
async function spendRecovery(deps: LoginDeps, user: StoredUser, code: string): Promise<boolean> {
  const parsed = parseRecoveryCode(code);
  const entry = parsed && user.twoFactor?.recoveryCodes.find((stored) => stored.id === parsed.id);
  // A code with no such id costs one hash check too.
  const valid = await verifyPassword(
    entry?.hash ?? (await unknownUserHash()),
    parsed?.secret ?? code,
  );
  if (!valid || !entry || !parsed) return false;
  const userId = String(user._id);
  return (
    (await claimOnce(deps, `${userId}:recovery:${parsed.id}`)) &&
    spendRecoveryCode(userId, { id: entry.id ?? '', hash: entry.hash ?? '' })
  );
}

/** The sign-in's second step: an authenticator code or a recovery code. */
export async function completeSecondFactor(
  deps: LoginDeps,
  input: SecondFactorInput,
  origin: SignInOrigin,
): Promise<LoginSuccessResponse> {
  const challenge = await deps.tokens.resolveChallenge(input.challenge);
  if (!challenge || challenge.step !== 'totp' || !challenge.user.twoFactor) {
    throw challengeExpired();
  }
  const { user } = challenge;
  await deps.throttle.reserve(origin.ip, ...accountKeys(user));
  const byRecovery = !isTotpCode(input.code);
  const valid = byRecovery
    ? await spendRecovery(deps, user, input.code)
    : await acceptTotp(deps, user, input.code);
  if (!valid) {
    await recordActivity({
      actor: activityOf(user),
      action: 'auth.second-factor-failed',
      target: { type: 'user', id: String(user._id), label: user.username },
      ip: origin.ip,
    });
    throw new HttpError('UNAUTHENTICATED', 'This code is not valid');
  }
  if (!byRecovery) return signIn(deps, user, origin);
  await recordActivity({
    actor: activityOf(user),
    action: 'auth.recovery-code-used',
    target: { type: 'user', id: String(user._id), label: user.username },
    ip: origin.ip,
  });
  const signedIn = await signIn(deps, user, origin);
  const fresh = await findUserById(String(user._id));
  return { ...signedIn, recoveryCodesLeft: fresh?.twoFactor?.recoveryCodes.length ?? 0 };
}

async function startSetup(deps: LoginDeps, user: StoredUser): Promise<TwoFactorSetupResponse> {
  if (user.twoFactor) throw new HttpError('CONFLICT', 'Two-factor sign-in is already on');
  const secret = newTotpSecret();
  await savePendingTwoFactorSecret(String(user._id), encryptSecret(secret, deps.secretKey));
  return { secret, otpauthUri: otpauthUri(secret, user.username, deps.twoFactor.issuer) };
}

/**
 * Confirms an enrolment with a code from the new secret, then stores the
 * second factor with ten fresh recovery codes, returned once.
 */
async function confirmSetup(
  deps: LoginDeps,
  user: StoredUser,
  code: string,
  ip: string,
): Promise<RecoveryCodesResponse> {
  const pending = user.pendingTwoFactorSecret;
  if (user.twoFactor) throw new HttpError('CONFLICT', 'Two-factor sign-in is already on');
  if (!pending) {
    throw new HttpError('CONFLICT', 'Start the set-up again: no secret is waiting for a code');
  }
  await deps.throttle.reserve(ip, ...accountKeys(user));
  const secret = decryptSecret(pending, deps.secretKey);
  const step = secret ? totpStepOf(secret, code) : null;
  if (step === null) throw new FieldRefused('code', 'codeInvalid');
  const { codes, stored } = await newRecoveryCodes();
  const enabled = await enableTwoFactor(String(user._id), pending, {
    secret: pending,
    lastStep: step,
    recoveryCodes: stored,
  });
  if (!enabled) {
    throw new HttpError('CONFLICT', 'Start the set-up again: another set-up replaced this one');
  }
  return { recoveryCodes: codes };
}

async function enrolmentUser(deps: LoginDeps, challengeToken: string): Promise<StoredUser> {
  const challenge = await deps.tokens.resolveChallenge(challengeToken);
  if (!challenge || challenge.step !== 'enrol' || challenge.user.twoFactor) {
    throw challengeExpired();
  }
  return challenge.user;
}

/** Enrolment during sign-in, step 1: a new secret for the app. */
export async function startEnrolment(
  deps: LoginDeps,
  challengeToken: string,
): Promise<TwoFactorSetupResponse> {
  return startSetup(deps, await enrolmentUser(deps, challengeToken));
}

/** Enrolment during sign-in, step 2: the first code; the user is then signed in. */
export async function completeEnrolment(
  deps: LoginDeps,
  input: SecondFactorInput,
  origin: SignInOrigin,
): Promise<EnrolmentCompleteResponse> {
  const user = await enrolmentUser(deps, input.challenge);
  const { recoveryCodes } = await confirmSetup(deps, user, input.code, origin.ip);
  // Signed out still: the activity trail of the admin area does not see this call.
  await recordActivity({
    actor: activityOf(user),
    action: 'auth.two-factor-enable',
    target: { type: 'user', id: String(user._id), label: user.username },
    ip: origin.ip,
  });
  return { ...(await signIn(deps, user, origin)), recoveryCodes };
}

async function signedInUser(userId: string): Promise<StoredUser> {
  const user = await findUserById(userId);
  if (!user) throw new HttpError('UNAUTHENTICATED', 'Please sign in');
  return user;
}

/** Settings: whether the user has a second factor, and must. */
export async function twoFactorStatus(
  deps: LoginDeps,
  userId: string,
): Promise<TwoFactorStatusResponse> {
  const user = await signedInUser(userId);
  return {
    enabled: Boolean(user.twoFactor),
    required: twoFactorRequired(deps, user),
    enabledAt: user.twoFactor?.enabledAt.toISOString() ?? null,
    recoveryCodesLeft: user.twoFactor?.recoveryCodes.length ?? 0,
  };
}

/**
 * Proves, in the request itself, that the account's owner makes a security
 * change, not someone holding a stolen session: the password, or, while
 * two-factor sign-in is on, a current authenticator code (never one already
 * used). Recovery codes are not taken: they stand in for a lost phone at
 * sign-in, and the password is always there instead. Each try draws on the
 * sign-in allowance of the address and the account, so a session cannot
 * guess faster than the sign-in page lets anyone; a wrong one is logged.
 */
async function reauthenticate(
  deps: LoginDeps,
  user: StoredUser,
  proof: ReauthenticationInput,
  ip: string,
): Promise<void> {
  const byCode = Boolean(user.twoFactor) && !proof.password && Boolean(proof.code);
  if (!byCode && !proof.password) throw new FieldRefused('password', 'passwordRequired');
  const accounts = accountKeys(user);
  await deps.throttle.reserve(ip, ...accounts);
  const valid = byCode
    ? await acceptTotp(deps, user, proof.code ?? '')
    : await verifyPassword(user.passwordHash, proof.password ?? '');
  if (!valid) {
    await recordActivity({
      actor: activityOf(user),
      action: 'auth.reauthentication-failed',
      target: { type: 'user', id: String(user._id), label: user.username },
      ip,
    });
    throw byCode
      ? new FieldRefused('code', 'codeInvalid')
      : new FieldRefused('password', 'passwordWrong');
  }
  await deps.throttle.succeeded(ip, ...accounts);
}

/** Settings, set-up step 1: after the password, a new secret for the app. */
export async function startOwnSetup(
  deps: LoginDeps,
  userId: string,
  { password }: TwoFactorSetupInput,
  ip: string,
): Promise<TwoFactorSetupResponse> {
  const user = await signedInUser(userId);
  if (user.twoFactor) throw new HttpError('CONFLICT', 'Two-factor sign-in is already on');
  await reauthenticate(deps, user, { password }, ip);
  return startSetup(deps, user);
}

/**
 * Settings, set-up step 2: the password again, so that a session alone never
 * turns the second factor on and carries the recovery codes away.
 */
export async function confirmOwnSetup(
  deps: LoginDeps,
  userId: string,
  { code, password }: TwoFactorConfirmInput,
  ip: string,
): Promise<RecoveryCodesResponse> {
  const user = await signedInUser(userId);
  if (user.twoFactor) throw new HttpError('CONFLICT', 'Two-factor sign-in is already on');
  if (!user.pendingTwoFactorSecret) {
    throw new HttpError('CONFLICT', 'Start the set-up again: no secret is waiting for a code');
  }
  await reauthenticate(deps, user, { password }, ip);
  return confirmSetup(deps, user, code, ip);
}

/** New recovery codes replace the old ones, after the password or a current authenticator code. */
export async function renewRecoveryCodes(
  deps: LoginDeps,
  userId: string,
  proof: ReauthenticationInput,
  ip: string,
): Promise<RecoveryCodesResponse> {
  const user = await signedInUser(userId);
  if (!user.twoFactor) throw new HttpError('CONFLICT', 'Two-factor sign-in is off');
  await reauthenticate(deps, user, proof, ip);
  const { codes, stored } = await newRecoveryCodes();
  await replaceRecoveryCodes(userId, stored);
  return { recoveryCodes: codes };
}

/**
 * Turns the user's own second factor off, after the password or a current
 * authenticator code; not for a role that requires it.
 */
export async function disableOwnTwoFactor(
  deps: LoginDeps,
  userId: string,
  proof: ReauthenticationInput,
  ip: string,
): Promise<void> {
  const user = await signedInUser(userId);
  if (!user.twoFactor) return;
  if (twoFactorRequired(deps, user)) {
    throw new HttpError(
      'CONFLICT',
      'Your role requires two-factor sign-in: it cannot be turned off',
    );
  }
  await reauthenticate(deps, user, proof, ip);
  await removeTwoFactor(userId, { endSessions: false });
}

/**
 * Before "sign out everywhere else": whoever holds a stolen session must not
 * be able to sign the owner out and keep the account to themselves.
 */
export async function confirmAccountOwner(
  deps: LoginDeps,
  userId: string,
  proof: ReauthenticationInput,
  ip: string,
): Promise<void> {
  await reauthenticate(deps, await signedInUser(userId), proof, ip);
}

/**
 * A signed-in user sets a new password. Wrong current passwords count as
 * failed sign-ins of the account, so a stolen session cannot be used to guess
 * the password faster than the sign-in page allows.
 */
export async function changePassword(
  deps: LoginDeps,
  userId: string,
  input: PasswordChangeInput,
  origin: SignInOrigin,
): Promise<PasswordChangeResponse> {
  const accounts = accountKeys(await signedInUser(userId));
  await deps.throttle.reserve(origin.ip, ...accounts);
  const outcome = await changeOwnPassword(userId, input);
  if (outcome === 'current-password-wrong') {
    throw new FieldRefused('currentPassword', 'currentPasswordWrong');
  }
  if (outcome === 'unchanged') throw new FieldRefused('newPassword', 'passwordUnchanged');
  await deps.throttle.succeeded(origin.ip, ...accounts);
  const { token, expiresAt } = await deps.tokens.issue(outcome, origin);
  return { token, expiresAt: expiresAt.toISOString(), user: toAuthUserDto(outcome) };
}
