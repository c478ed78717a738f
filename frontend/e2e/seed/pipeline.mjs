// Seeds the pipeline spec: starts the scripted fake model server
// (backend/testkit/cmd/fakemodel) and prepares the app's HOME so the REAL
// Claude Code from build/agents runs against it, exactly as
// backend/testkit/agentenv does (settings.json with an apiKeyHelper,
// .claude.json with onboarding done and the work folder trusted,
// IS_SANDBOX=1 when running as root). Returns the app's extra environment.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fakeKey = 'sk-ant-osf-fake-0000'; // what the apiKeyHelper prints; the fake server accepts anything

export default async function ({ home, tmp }) {
  const agentsBin = join(repo, 'build/agents/node_modules/.bin');
  if (!existsSync(join(agentsBin, 'claude'))) {
    // The spec reports this; other specs still run.
    writeFileSync(join(tmp, 'pipeline-seed.json'), JSON.stringify({ missing: `no Claude Code in ${agentsBin}: run build/scripts/agents.sh` }));
    return {};
  }
  const bin = join(tmp, 'fakemodel');
  execFileSync('go', ['build', '-o', bin, './backend/testkit/cmd/fakemodel'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  // stdin stays open as long as this node process lives: the server stops
  // when the runner exits, whatever way it exits.
  const srv = spawn(bin, ['-addr', '127.0.0.1:0'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    const rl = createInterface({ input: srv.stdout });
    rl.once('line', (l) => ok(JSON.parse(l).url));
    srv.once('exit', (c) => fail(new Error(`fakemodel exited with ${c}`)));
  });
  srv.unref();
  srv.stdout.unref?.();

  const work = join(tmp, 'work-pipeline');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'README.md'), '# Site\n');
  // A repository with one commit, so a chat can isolate its runs on a branch.
  const git = (...a) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@osfoundry.invalid', '-c', 'commit.gpgsign=false', ...a], { cwd: work, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'Start');
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ apiKeyHelper: 'echo ' + fakeKey }, null, 2));
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify(
      {
        hasCompletedOnboarding: true,
        lastOnboardingVersion: '2.1.328',
        theme: 'dark',
        bypassPermissionsModeAccepted: true,
        autoUpdates: false,
        projects: { [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
      },
      null,
      2,
    ),
  );
  // memory_search reads the knowledge folder of the app's data dir.
  const knowledge = join(tmp, 'data', 'knowledge');
  mkdirSync(knowledge, { recursive: true });
  writeFileSync(join(knowledge, 'launch-checklist.md'), '# Launch checklist\n\nShip the beta on Friday after the smoke test.\n');
  writeFileSync(join(tmp, 'pipeline-seed.json'), JSON.stringify({ url, work }));

  const node = dirname(process.execPath);
  const env = {
    ANTHROPIC_BASE_URL: url,
    PATH: [agentsBin, node, process.env.PATH ?? '/usr/bin:/bin'].join(delimiter),
    DISABLE_AUTOUPDATER: '1',
    // Shows the "API key in env" badge; the app must remove it from Claude's
    // environment (the apiKeyHelper authenticates against the fake server).
    ANTHROPIC_API_KEY: 'sk-ant-e2e-must-not-reach-claude',
  };
  if (process.getuid?.() === 0) env.IS_SANDBOX = '1'; // bypassPermissions refuses root otherwise
  return { env };
}
