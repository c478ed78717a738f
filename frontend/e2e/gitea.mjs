// A real Gitea for the end-to-end specs that open pull requests: the pinned
// version build/scripts/gitea.sh builds from the Go module proxy (once,
// under build/agents/gitea), on loopback, SQLite in a throw-away folder,
// with a throw-away admin and API token — as backend/testkit/giteatest
// starts it for the Go tests. Only the specs that need it start it.
//   const g = await startGitea(tmp); … g.api('GET', '/repos/…'); … await g.stop();
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './lib.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const secret = () => randomBytes(24).toString('hex');

/** startGitea runs Gitea with its data under dir; stop() ends it. */
export async function startGitea(dir) {
  const out = execFileSync('bash', [join(root, 'build', 'scripts', 'gitea.sh')], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim().split('\n');
  const bin = out[out.length - 1];
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const conf = join(dir, 'app.ini');
  writeFileSync(
    conf,
    `APP_NAME = osFoundry e2e forge
RUN_MODE = prod
WORK_PATH = ${dir}

[database]
DB_TYPE = sqlite3
PATH = ${dir}/gitea.db

[repository]
ROOT = ${dir}/repos

[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = ${port}
ROOT_URL = ${url}/
DISABLE_SSH = true
OFFLINE_MODE = true
LFS_START_SERVER = false
APP_DATA_PATH = ${dir}/data
STATIC_ROOT_PATH = ${dirname(bin)}

[security]
INSTALL_LOCK = true
SECRET_KEY = ${secret()}
INTERNAL_TOKEN = ${secret()}
PASSWORD_HASH_ALGO = pbkdf2_hi

[oauth2]
ENABLED = false

[service]
DISABLE_REGISTRATION = true
REQUIRE_SIGNIN_VIEW = false

[mailer]
ENABLED = false

[indexer]
ISSUE_INDEXER_TYPE = db
REPO_INDEXER_ENABLED = false

[cron]
ENABLED = false

[log]
MODE = console
LEVEL = Warn
ROOT_PATH = ${dir}/log
`,
    { mode: 0o600 },
  );
  // Gitea's own HOME (its git config); as root (CI containers) its switch for that.
  const env = { ...process.env, HOME: dir, GITEA_WORK_DIR: dir, USER: 'osf-gitea' };
  if (process.getuid?.() === 0) env.GITEA_I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = 'true';
  const run = (...args) => execFileSync(bin, [...args, '--config', conf], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
  run('migrate');
  const admin = { name: 'osf-admin', password: 'admin-' + secret().slice(0, 16) };
  run('admin', 'user', 'create', '--admin', '--username', admin.name, '--password', admin.password, '--email', 'admin@example.invalid', '--must-change-password=false');
  admin.token = run('admin', 'user', 'generate-access-token', '--username', admin.name, '--token-name', 'e2e', '--scopes', 'all', '--raw').split('\n').pop().trim();

  const web = spawn(bin, ['web', '--config', conf], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let logs = '';
  web.stdout.on('data', (d) => (logs += d));
  web.stderr.on('data', (d) => (logs += d));
  let exited = false;
  const done = new Promise((ok) => web.once('exit', () => ((exited = true), ok())));
  const stop = async () => {
    if (exited) return;
    try {
      process.kill(-web.pid, 'SIGTERM');
    } catch {}
    await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
    if (!exited) {
      try {
        process.kill(-web.pid, 'SIGKILL');
      } catch {}
    }
  };
  const end = Date.now() + 60000;
  for (;;) {
    try {
      if ((await fetch(url + '/api/v1/version')).ok) break;
    } catch {}
    if (exited) throw new Error(`gitea web exited before answering:\n${logs}`);
    if (Date.now() > end) {
      await stop();
      throw new Error(`gitea web did not answer on ${url} within 60 s:\n${logs}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  /** api calls Gitea's REST API as the admin and returns the parsed answer. */
  const api = async (method, path, body) => {
    const r = await fetch(url + '/api/v1' + path, {
      method,
      headers: { Authorization: 'token ' + admin.token, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`Gitea ${method} ${path}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  return { url, host: `127.0.0.1:${port}`, admin, api, stop };
}
