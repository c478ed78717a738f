// Seeds the app's HOME with a Claude Code store and a Codex store shaped
// like the files Claude Code 2.1.328 and Codex 0.169 write (field names,
// nesting, folder layout, title records before the first cwd), two git
// folders, and a fake `claude` for the PATH the app gets, which prints its
// folder and argv so the spec can check what "Open in Terminal" ran.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The seeded sessions, for the spec (03-external-agents.mjs). */
export const seeded = {
  mismatch: { id: '7f3c2a10-5b8e-4c1d-9e2f-a1b2c3d4e5f6', title: 'Fix double charge on checkout retry', branch: 'fix/checkout-retry' },
  permissive: { id: '2d9e4b71-0c3a-4f5e-8b6d-112233445566', title: 'Tidy the payment logs', branch: 'main', mode: 'acceptEdits' },
  gone: { id: '9a8b7c6d-1e2f-4a3b-8c5d-667788990011', title: 'Prototype the old importer' },
  codex: { id: '019a2f1c-7d0e-7b31-9c4e-5a6b7c8d9e0f', title: 'Add the checkout e2e test', branch: 'test/checkout-e2e' },
  model: 'claude-opus-4-5',
  effort: 'high',
  toolRecords: 700, // assistant/tool pairs in the mismatch session: several transcript pages
};

export const folders = (tmp) => ({
  shopApi: join(tmp, 'work', 'shop-api'),
  shopWeb: join(tmp, 'work', 'shop-web'),
  gone: join(tmp, 'work', 'old-importer'), // never created: the folder is missing
});

const line = (o) => JSON.stringify(o) + '\n';
export const escape = (cwd) => cwd.replace(/[^A-Za-z0-9]/g, '-');

export function put(p, text, mtimeMs) {
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
  if (mtimeMs) utimesSync(p, new Date(mtimeMs), new Date(mtimeMs));
}

function git(dir, ...args) {
  execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
}

function gitRepo(dir, branch) {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', branch);
  git(dir, '-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', 'commit', '-q', '--allow-empty', '-m', 'init');
}

/** claudeTranscript: title/mode records first, the first cwd on line 6, then
 * conversation records with thinking, text, tool_use and tool_result blocks. */
export function claudeTranscript({ id, cwd, branch, title, firstMessage, mode = 'default', pairs = 2, at }) {
  // at: when the last record was written (the session's "last used"); by
  // default a fixed day, so rows show their date.
  const start = at ? at - 2 * pairs * 1000 : Date.UTC(2026, 10, 4, 10, 0, 0);
  const ts = (k) => new Date(start + k * 1000).toISOString();
  const base = (type, k) => ({ parentUuid: null, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.328', gitBranch: branch, type, uuid: `${id.slice(0, 8)}-${type}-${k}`, timestamp: ts(k) });
  let out = '';
  out += line({ type: 'custom-title', customTitle: title, sessionId: id });
  out += line({ type: 'mode', mode: 'normal', sessionId: id });
  out += line({ type: 'agent-name', agentName: 'main', sessionId: id });
  out += line({ type: 'queue-operation', operation: 'enqueue', timestamp: ts(0), sessionId: id, content: firstMessage });
  out += line({ type: 'file-history-snapshot', messageId: 'm-0', snapshot: { messageId: 'm-0', trackedFileBackups: {}, timestamp: ts(0) }, isSnapshotUpdate: false });
  out += line({ ...base('user', 0), permissionMode: mode, message: { role: 'user', content: firstMessage } });
  for (let k = 1; k <= pairs; k++) {
    out += line({
      ...base('assistant', 2 * k - 1),
      requestedModel: 'opus',
      effort: seeded.effort,
      message: {
        model: seeded.model, id: `msg_${k}`, type: 'message', role: 'assistant', stop_reason: 'tool_use',
        content: [
          { type: 'thinking', thinking: `Step ${k}: the retry path may create a second payment intent.`, signature: 'sig' },
          { type: 'text', text: `Running the payment tests (round ${k}).` },
          { type: 'tool_use', id: `toolu_${k}`, name: 'Bash', input: { command: 'go test ./payments/...', description: 'Run payment tests' } },
        ],
        usage: { input_tokens: 10, output_tokens: 20 },
      },
    });
    out += line({
      ...base('user', 2 * k),
      permissionMode: mode,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${k}`, content: `ok  \tshop/payments\t0.${k % 10}12s`, is_error: false }] },
      toolUseResult: { stdout: 'ok', stderr: '', interrupted: false },
    });
  }
  out += line({ type: 'ai-title', aiTitle: title, sessionId: id });
  return out;
}

function codexRollout({ id, cwd, branch, title, at }) {
  const start = at ? at - 8000 : Date.UTC(2026, 10, 9, 9, 0, 0);
  const ts = (k) => new Date(start + k * 1000).toISOString();
  const rec = (k, type, payload) => line({ timestamp: ts(k), type, payload });
  return (
    rec(0, 'session_meta', {
      id, timestamp: ts(0), cwd, originator: 'codex_cli_rs', cli_version: '0.169.0', source: 'cli', model_provider: 'openai',
      base_instructions: { text: 'You are Codex, a coding agent. '.repeat(50) }, git: { commit_hash: 'a1b2c3d', branch, repository_url: 'git@example.com:shop/web.git' },
    }) +
    rec(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }] }) +
    rec(2, 'turn_context', { cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write', network_access: false }, model: 'gpt-5.3-codex', effort: 'high', summary: 'auto' }) +
    rec(3, 'event_msg', { type: 'user_message', message: title, images: [] }) +
    rec(4, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: title }] }) +
    rec(5, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Looking for the checkout flow' }], encrypted_content: 'gAAA' }) +
    rec(6, 'response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['rg', '-n', 'checkout', 'src'], workdir: cwd }), call_id: 'call_1' }) +
    rec(7, 'response_item', { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'src/checkout.ts:12: export async function checkout()', metadata: { exit_code: 0, duration_seconds: 0.1 } }) }) +
    rec(8, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Added e2e/checkout.spec.ts.' }] })
  );
}

function codexStateDB(home, { id, cwd, branch, title }, rolloutPath, updatedMs) {
  const db = join(home, '.codex', 'state_5.sqlite');
  const q = (s) => `'${String(s).replace(/'/g, "''")}'`;
  const sql = `CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL, sandbox_policy TEXT NOT NULL,
  approval_mode TEXT NOT NULL, tokens_used INTEGER NOT NULL DEFAULT 0, has_user_event INTEGER NOT NULL DEFAULT 0,
  archived INTEGER NOT NULL DEFAULT 0, archived_at INTEGER, git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT,
  first_user_message TEXT, agent_nickname TEXT, agent_role TEXT, memory_mode TEXT, model TEXT, reasoning_effort TEXT,
  updated_at_ms INTEGER, originator TEXT);
INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode,
  has_user_event, git_sha, git_branch, cli_version, first_user_message, model, reasoning_effort, updated_at_ms, originator)
VALUES (${q(id)}, ${q(rolloutPath)}, ${Math.floor(updatedMs / 1000) - 60}, ${Math.floor(updatedMs / 1000)}, 'cli', 'openai', ${q(cwd)},
  ${q(title)}, '{"type":"workspace-write","network_access":false}', 'on-request', 1, 'a1b2c3d', ${q(branch)}, '0.169.0', ${q(title)},
  'gpt-5.3-codex', 'high', ${updatedMs}, 'codex_cli_rs');`;
  try {
    execFileSync('sqlite3', [db], { input: sql, stdio: ['pipe', 'ignore', 'pipe'] });
  } catch {
    // Without the sqlite3 tool the store is rollouts only, as older Codex
    // versions wrote it; the index reads those too.
  }
}

const fakeClaudeHelp = `Usage: claude [options] [command] [prompt]

Options:
  --permission-mode <mode>          Permission mode to use for the session (choices: "acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan")
  --model <model>                   Model for the current session
  --effort <level>                  Effort level for the session (choices: "low", "medium", "high", "xhigh", "max")
  -r, --resume [value]              Resume a conversation by session ID
  -h, --help                        Display help for command
`;

export default async function ({ home, tmp }) {
  const now = Date.now();
  const f = folders(tmp);
  gitRepo(f.shopApi, 'main');
  gitRepo(f.shopWeb, seeded.codex.branch);

  const projects = join(home, '.claude', 'projects');
  const m = seeded.mismatch;
  put(join(projects, escape(f.shopApi), m.id + '.jsonl'),
    claudeTranscript({ id: m.id, cwd: f.shopApi, branch: m.branch, title: m.title, firstMessage: 'Why does a retry charge the card twice?', pairs: seeded.toolRecords, at: now - 6 * DAY - 2 * HOUR }),
    now - 6 * DAY - 2 * HOUR);
  // A sub-agent transcript: never listed.
  put(join(projects, escape(f.shopApi), m.id, 'subagents', 'agent-a1b2c3.jsonl'),
    claudeTranscript({ id: m.id, cwd: f.shopApi, branch: m.branch, title: 'Sub-agent work', firstMessage: 'Search the code' }), now - 6 * DAY);
  const p = seeded.permissive;
  put(join(projects, escape(f.shopApi), p.id + '.jsonl'),
    claudeTranscript({ id: p.id, cwd: f.shopApi, branch: p.branch, title: p.title, firstMessage: 'Make the payment logs shorter', mode: p.mode, at: now - 2 * HOUR }),
    now - 2 * HOUR);
  const g = seeded.gone;
  put(join(projects, escape(f.gone), g.id + '.jsonl'),
    claudeTranscript({ id: g.id, cwd: f.gone, branch: 'main', title: g.title, firstMessage: 'Sketch an importer', at: now - 20 * DAY }), now - 20 * DAY);

  const c = seeded.codex;
  const rollout = join(home, '.codex', 'sessions', '2026', '11', '09', `rollout-2026-11-09T09-00-00-${c.id}.jsonl`);
  const codexMs = now - DAY - 3 * HOUR;
  put(rollout, codexRollout({ id: c.id, cwd: f.shopWeb, branch: c.branch, title: c.title, at: codexMs }), codexMs);
  codexStateDB(home, { id: c.id, cwd: f.shopWeb, branch: c.branch, title: c.title }, rollout, codexMs);

  // The fake claude, first on the PATH the app (and its panes) get.
  const bin = join(tmp, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'claude'), `#!/bin/sh
if [ "$1" = "--help" ]; then
cat <<'EOF'
${fakeClaudeHelp}EOF
exit 0
fi
echo "fake-claude cwd=$(pwd)"
for a in "$@"; do echo "arg=$a"; done
read -r _
`);
  chmodSync(join(bin, 'claude'), 0o755);
  if (!existsSync(join(bin, 'claude'))) throw new Error('could not write the fake claude');
  // A seed that runs the real Claude Code (pipeline.mjs) sets PATH after
  // this one and wins; the spec then checks the real claude's first screen.
  return { env: { PATH: `${bin}${delimiter}${process.env.PATH}` } };
}

/** whichClaude says which claude the app's panes run: the fake one this
 * seed wrote, or a real Claude Code another seed put first on the PATH. */
export function whichClaude(env, tmp) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'claude'))) return dir === join(tmp, 'bin') ? 'fake' : join(dir, 'claude');
  }
  return 'none';
}
