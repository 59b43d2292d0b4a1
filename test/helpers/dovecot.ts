import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';

/**
 * A real IMAP server for tests: Dovecot from Debian's `dovecot-imapd` (scripts/setup.sh installs it), started in the
 * foreground with its own configuration, state and maildirs in a temporary folder, plain IMAP on a free loopback
 * port, one user with a password. Run as a normal user, every Dovecot process is that user; run as root, Dovecot's
 * login processes must not be root, so they are the package's `dovenull` and `dovecot` users, and the mail belongs to
 * `dovecot`.
 */

export const DOVECOT_BIN = '/usr/sbin/dovecot';

/** Why Dovecot cannot run here, or undefined when it can. */
export function dovecotUnavailable(): string | undefined {
  if (!fs.existsSync(DOVECOT_BIN)) return `${DOVECOT_BIN} is missing: install dovecot-imapd (scripts/setup.sh does as root)`;
  if (process.getuid?.() === 0 && !passwdEntry('dovecot')) return "running as root needs the package's dovecot user";
  return undefined;
}

export interface TestDovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Appends a raw message to a mailbox of the user (INBOX unless named), as a mail delivery would. */
  append(raw: Buffer | string, mailbox?: string): Promise<void>;
  /** Creates a mailbox (a folder) of the user. */
  createMailbox(name: string): Promise<void>;
  stop(): Promise<void>;
}

function passwdEntry(name: string): { uid: number; gid: number } | undefined {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function greeted(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(2000);
      socket.once('data', (d) => {
        socket.destroy();
        resolve(/^\* OK .*ready/m.test(d.toString()));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dovecot did not greet on port ${port}: ${log()}`);
}

export async function startDovecot(): Promise<TestDovecot> {
  const why = dovecotUnavailable();
  if (why) throw new Error(why);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-dovecot-'));
  fs.chmodSync(root, 0o755);
  const asRoot = process.getuid?.() === 0;
  const me = os.userInfo();
  const mailOwner = asRoot ? passwdEntry('dovecot')! : { uid: me.uid, gid: me.gid };
  const internal = asRoot ? 'dovecot' : me.username;
  const login = asRoot ? 'dovenull' : me.username;
  const group = asRoot
    ? 'dovecot'
    : (fs
        .readFileSync('/etc/group', 'utf8')
        .split('\n')
        .find((l) => l.split(':')[2] === String(me.gid))
        ?.split(':')[0] ?? me.username);
  for (const dir of ['mail', 'home']) {
    fs.mkdirSync(path.join(root, dir));
    if (asRoot) fs.chownSync(path.join(root, dir), mailOwner.uid, mailOwner.gid);
  }
  const port = await freePort();
  const user = 'receipts';
  const password = 'p4ss-w0rd';
  fs.writeFileSync(path.join(root, 'users'), `${user}:{PLAIN}${password}\n`);
  const conf = path.join(root, 'dovecot.conf');
  fs.writeFileSync(
    conf,
    `base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
instance_name = finops-test-${port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = ${internal}
default_internal_group = ${group}
default_login_user = ${login}
first_valid_uid = 0
mail_location = maildir:${root}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${root}/users
}
userdb {
  driver = static
  args = uid=${mailOwner.uid} gid=${mailOwner.gid} home=${root}/home/%u
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
`,
  );
  const child = spawn(DOVECOT_BIN, ['-F', '-c', conf], { stdio: 'ignore' });
  const log = () => {
    try {
      return fs.readFileSync(path.join(root, 'dovecot.log'), 'utf8');
    } catch {
      return '(no log)';
    }
  };
  try {
    await greeted(port, child, log);
  } catch (err) {
    child.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  }

  const withClient = async (fn: (c: ImapFlow) => Promise<void>) => {
    const client = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
    await client.connect();
    try {
      await fn(client);
    } finally {
      await client.logout();
    }
  };
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    append: (raw, mailbox = 'INBOX') =>
      withClient(async (c) => {
        await c.append(mailbox, raw);
      }),
    createMailbox: (name) =>
      withClient(async (c) => {
        await c.mailboxCreate(name);
      }),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
