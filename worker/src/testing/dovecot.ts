import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from '@agency/platform/testing/own-redis';
import type { BounceMailboxSettings } from '../bounces/bounce-mailbox-settings';

const DOVECOT_BIN = process.env.DOVECOT_BIN ?? '/usr/sbin/dovecot';
const USER = 'bounces';
const PASSWORD = 'mailbox-password-of-the-test';

/** A real IMAP server of one test's own: Dovecot on loopback, one user, a maildir in a temporary folder. */
export interface OwnDovecot {
  /** Settings that reach its mailbox, as the worker's configuration would give them. */
  settings: BounceMailboxSettings;
  /** A client logged in as the mailbox's user, for the test to append and look. */
  client(): Promise<ImapFlow>;
  close(): Promise<void>;
}

/**
 * Dovecot refuses to run its login process or to open mail as root: as
 * root (CI) those run as the users its Debian package creates and as
 * nobody; as anyone else, everything runs as that user (and nothing is
 * chrooted, which only root may do: see the configuration).
 */
function accounts() {
  if (process.getuid?.() === 0) {
    return {
      internal: 'dovecot',
      group: 'dovecot',
      login: 'dovenull',
      mailUid: 'nobody',
      mailGid: 'nogroup',
    };
  }
  const { username, uid, gid } = userInfo();
  const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  return {
    internal: username,
    group,
    login: username,
    mailUid: String(uid),
    mailGid: String(gid),
  };
}

function configOf(dir: string, port: number): string {
  const { internal, group, login, mailUid, mailGid } = accounts();
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${internal}
default_internal_group = ${group}
default_login_user = ${login}
first_valid_uid = 1
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${dir}/home/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`;
}

async function accepts(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

export async function startDovecot(): Promise<OwnDovecot> {
  try {
    accessSync(DOVECOT_BIN, constants.X_OK);
  } catch {
    throw new Error(
      `Dovecot not found at ${DOVECOT_BIN}: install it with apt-get install -y dovecot-imapd ` +
        '(npm test does, as root), or set DOVECOT_BIN',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'agency-dovecot-'));
  // The login and mail processes run as other users: they must reach these folders.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'home', USER), { recursive: true });
  chmodSync(join(dir, 'home', USER), 0o777);
  writeFileSync(join(dir, 'users'), `${USER}:{PLAIN}${PASSWORD}\n`);
  const port = await freePort();
  writeFileSync(join(dir, 'dovecot.conf'), configOf(dir, port));

  const child: ChildProcess = spawn(DOVECOT_BIN, ['-F', '-c', join(dir, 'dovecot.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const log = () => {
    try {
      return readFileSync(join(dir, 'dovecot.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const reason = `Dovecot did not start: ${output}${log()}`;
      await stop();
      throw new Error(reason);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const settings: BounceMailboxSettings = {
    host: '127.0.0.1',
    port,
    secure: false,
    requireTls: false,
    user: USER,
    password: PASSWORD,
    mailbox: 'INBOX',
    processedFolder: 'Processed',
  };
  return {
    settings,
    async client() {
      const client = new ImapFlow({
        host: settings.host,
        port,
        secure: false,
        doSTARTTLS: false,
        auth: { user: USER, pass: PASSWORD },
        logger: false,
      });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
    close: stop,
  };
}
