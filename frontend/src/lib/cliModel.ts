// A model id is a mode (cli:claude, cli:claude:agent, cli:codex:agent),
// optionally "@" and the model the CLI runs (cli:claude:agent@opus); the
// same rule as agentcli.ParseModel.

/** splitModel parts an id into its mode and CLI model ("" = the CLI's default). */
export function splitModel(id: string): { mode: string; cli: string } {
  const s = id.trim();
  const at = s.indexOf('@');
  return at < 0 ? { mode: s, cli: '' } : { mode: s.slice(0, at), cli: s.slice(at + 1) };
}

/** withCliModel is mode running the CLI's model cli ("" gives the mode alone). */
export function withCliModel(id: string, cli: string): string {
  const { mode } = splitModel(id);
  return cli.trim() ? `${mode}@${cli.trim()}` : mode;
}

/** agentOf is the CLI a mode runs ("claude", "codex"), or "" for another model. */
export function agentOf(id: string): '' | 'claude' | 'codex' {
  const { mode } = splitModel(id);
  if (mode === 'cli:claude' || mode.startsWith('cli:claude:')) return 'claude';
  if (mode.startsWith('cli:codex')) return 'codex';
  return '';
}

/** programAgent is the agent CLI a command line starts ("claude --resume x" → claude), or "". */
export function programAgent(command: string): '' | 'claude' | 'codex' {
  const first = command.trim().split(/\s+/)[0] ?? '';
  const base = first.replace(/^.*[\\/]/, '').replace(/\.exe$/i, '').replace(/^['"]|['"]$/g, '').toLowerCase();
  return base === 'claude' || base === 'codex' ? base : '';
}

/** argvModel is the model a pane's agent was started with (`claude --model X`, `codex -m X`, the app's `acp --model X -- …`), as board.ArgvModel. */
export function argvModel(argv: string[] | undefined): string {
  if (!argv?.length) return '';
  const agent = programAgent(argv[0]);
  if (!agent && argv[1] !== 'acp') return '';
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a.startsWith('--model=')) return a.slice('--model='.length);
    if ((a === '--model' || (agent === 'codex' && a === '-m')) && i + 1 < argv.length) return argv[i + 1];
  }
  return '';
}

/** commandHasModel reports whether a command line already names a model. */
export function commandHasModel(command: string): boolean {
  const words = command.trim().split(/\s+/);
  return argvModel(words) !== '' || words.includes('--model') || (programAgent(command) === 'codex' && words.includes('-m'));
}

/** modelFlag is the argv a picked model adds after the program: --model X (Claude Code) or -m X (Codex). */
export function modelFlag(agent: 'claude' | 'codex', model: string): string[] {
  if (!model) return [];
  return agent === 'codex' ? ['-m', model] : ['--model', model];
}

const lastKey = (agent: string) => `osfoundry.cliModel.last:${agent}`;

/** lastModel is the model last picked for an agent ("" = the CLI's default). */
export function lastModel(agent: string): string {
  try {
    return localStorage.getItem(lastKey(agent)) ?? '';
  } catch {
    return '';
  }
}

/** rememberModel keeps the model picked for an agent for the next form. */
export function rememberModel(agent: string, model: string) {
  try {
    if (model) localStorage.setItem(lastKey(agent), model);
    else localStorage.removeItem(lastKey(agent));
  } catch {
    // No storage: the next form starts on the default.
  }
}
