// The team server and extra desktops for the browser specs.
//
// startTeam runs backend/teamserver/testkit/cmd/teamkit (PostgreSQL, two
// replicas behind haproxy with TLS, the zitadel example OIDC provider and,
// when asked, a private D-Bus session with gnome-keyring's Secret Service)
// and hands back its URLs; offline()/online() take the server off the
// network and back for every desktop.
//
// startDesktop runs another copy of the dev build with its own HOME, XDG
// folders and data folder, under its own Xvfb. Its "system browser" is
// the one Linux uses (xdg-open, found on PATH): here a small script that
// writes the URL the app asked to open to a file, which the spec then
// opens in Chromium as the person would. The app's code path is the real
// one (Wails → pkg/browser → xdg-open).
import { spawn, execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { freePort, waitHTTP, until } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const run = promisify(execFile);

/** startTeam builds and starts the team kit; stop() ends all it started. */
export async function startTeam(tmp, { secretService = false } = {}) {
  const kitBin = join(tmp, 'teamkit');
  const goBin = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';
  await run(goBin, ['build', '-o', kitBin, './backend/teamserver/testkit/cmd/teamkit'], { cwd: repo, maxBuffer: 1 << 24 });
  const args = secretService ? ['-secret-service', join(repo, 'backend/teamclient/testdata/login.keyring')] : [];
  const kit = spawn(kitBin, args, { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  kit.stderr.on('data', (d) => (log += d));
  const lines = createInterface({ input: kit.stdout });
  const waiting = [];
  const queued = [];
  lines.on('line', (l) => (waiting.length ? waiting.shift()(l) : queued.push(l)));
  const exited = new Promise((r) => kit.on('exit', r));
  const next = (what) =>
    Promise.race([
      new Promise((r) => (queued.length ? r(queued.shift()) : waiting.push(r))),
      exited.then((code) => {
        throw new Error(`the team kit exited (${code}) before ${what}:\n${log.slice(-3000)}`);
      }),
      new Promise((_, fail) => setTimeout(() => fail(new Error(`the team kit gave no ${what} in 5 min:\n${log.slice(-3000)}`)), 300000)),
    ]);
  let info;
  try {
    info = JSON.parse(await next('its URLs'));
  } catch (e) {
    kit.kill('SIGTERM');
    throw e;
  }
  const command = async (cmd) => {
    kit.stdin.write(cmd + '\n');
    const got = await next(`an answer to ${cmd}`);
    if (got !== 'ok ' + cmd) throw new Error(`the team kit answered ${got} to ${cmd}`);
  };
  return {
    ...info,
    offline: () => command('offline'),
    online: () => command('online'),
    log: () => log,
    async stop() {
      kit.stdin.end();
      kit.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30000))]);
    },
  };
}

/** startDesktop starts the dev build at bin (serving dist) as its own
 * desktop under tmp/name; env adds to its environment. */
export async function startDesktop({ bin, dist, tmp, name, env = {} }) {
  const root = join(tmp, name);
  const dirs = { home: join(root, 'home'), data: join(root, 'data'), shims: join(root, 'bin') };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const opened = join(root, 'opened.txt');
  writeFileSync(opened, '');
  writeFileSync(join(dirs.shims, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const full = {
    ...process.env,
    HOME: dirs.home,
    OSFOUNDRY_HOME: dirs.data,
    XDG_CONFIG_HOME: join(dirs.home, '.config'),
    XDG_DATA_HOME: join(dirs.home, '.local/share'),
    XDG_CACHE_HOME: join(dirs.home, '.cache'),
    PATH: `${dirs.shims}:${process.env.PATH}`,
    SHELL: '/bin/bash',
    WEBKIT_DISABLE_DMABUF_RENDERER: '1',
    OSF_FROM_TERMINAL: '1',
    ...env,
  };
  const app = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x820x24', bin, '-devserver', `127.0.0.1:${port}`, '-assetdir', dist], {
    env: full,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  app.stderr.on('data', (d) => (log += d));
  try {
    await waitHTTP(base + '/', 60000);
  } catch (e) {
    throw new Error(`${e.message}\n${log.slice(-2000)}`);
  }
  let seen = 0;
  return {
    name,
    base,
    ...dirs,
    log: () => log,
    /** nextOpened waits for the next URL the app hands the system browser. */
    async nextOpened() {
      const url = await until(`${name} to open the system browser`, () => {
        const all = readFileSync(opened, 'utf8').split('\n').filter(Boolean);
        return all.length > seen ? all[seen] : null;
      });
      seen++;
      return url;
    },
    async stop() {
      try {
        process.kill(-app.pid, 'SIGTERM');
      } catch {}
      await new Promise((r) => setTimeout(r, 500));
      try {
        process.kill(-app.pid, 'SIGKILL');
      } catch {}
    },
  };
}
