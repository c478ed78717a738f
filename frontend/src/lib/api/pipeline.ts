// The pipeline's bound service (backend/pipeline/binding.go): External AI
// tab, Pipeline Roles, Local Folders, Agents and Chat.
import { call } from '../wails';

/** One row of the External AI tab (pipeline.CLI = agentcli.Install + Enabled). */
export interface CLI {
  agent: 'claude' | 'codex';
  name: string;
  installed: boolean;
  path: string;
  source: string;
  models: string[];
  keysInEnv: string[] | null;
  noLiveStream: boolean;
  note?: string;
  signInHint?: string;
  enabled: boolean;
  /** The CLI's own `--version` number; versionError says why it is missing. */
  version?: string;
  versionError?: string;
}

export interface Verification {
  agent: string;
  signedIn: boolean;
  label: string; // "✓ Signed in" | "Needs sign-in" | "Cannot reach <service>"
  detail: string;
  argv: string[];
  duration: number; // ns
  /** The CLI could not reach its service (network, proxy, base URL): not a sign-in problem. */
  unreachable: boolean;
  service: string;
}

/** One CLI's sign-in check, kept by the backend (pipeline.VerifyState; event pipeline:verify). */
export interface VerifyState {
  agent: string;
  running: boolean;
  /** The live line while it runs: "Waiting for Anthropic to answer…", Codex's "Reconnecting…". */
  status: string;
  startedAt: number; // unix ms; 0 when never checked
  result?: Verification;
  /** Why the check could not run ("Check cancelled.", CLI missing). */
  error?: string;
}

export interface SignInPane {
  paneId: string;
  argv: string[];
  hint: string;
}

export interface Role {
  name: string;
  needsTools: boolean;
  prompt: string;
  /** The assigned model, else the default one (default is then true); "" when no CLI can play the role. */
  model: string;
  default: boolean;
}

export interface ModelOption {
  id: string;
  label: string;
  available: boolean;
  reason?: string;
}

export interface ModelGroup {
  label: string;
  /** Who serves the group's models, e.g. "External AI (subscription)". */
  provider?: string;
  note?: string;
  models: ModelOption[];
}

export interface Folder {
  id: number;
  path: string;
  addedAt: string;
  current: boolean;
  missing: boolean;
}

export interface Agent {
  id: string;
  name: string;
  modelPreference: string;
  runtimeRole: string;
  instructions: string;
  createdAt?: string;
  updatedAt?: string;
}

export type RunState = 'running' | 'needs_you' | 'paused' | 'idle' | 'done' | 'failed';

export interface Chat {
  id: string;
  title: string;
  folder: string;
  agentId: string;
  worktree: boolean;
  /** The chat's tasks run in plan mode: tools that change things are refused. */
  planMode: boolean;
  cliAgent: string;
  cliSession: string;
  state: RunState;
  ended: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Message {
  id: number;
  role: 'user' | 'assistant' | 'error';
  text: string;
  runId?: string;
  createdAt: string;
}

export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheCreationTokens: number;
  outputTokens: number;
  contextTokens: number;
}

export interface Run {
  id: string;
  chatId?: string;
  agentId?: string;
  title: string;
  model: string;
  role: string;
  folder: string;
  state: RunState;
  text: string;
  error?: string;
  progress: string[];
  usage: Usage;
  costUsd: number;
  sessionId?: string;
  repo?: string;
  branch?: string;
  diffStat?: string;
  diff?: string;
  startedAt: string;
  finishedAt: string;
}

export interface ChatDetail {
  chat: Chat;
  messages: Message[];
  runs: Run[];
  /** Where the chat was compacted, oldest first (backend/pipeline/compaction.go). */
  compactions: Compaction[];
  /** The id of a compaction in progress (Cancel stops it like a run). */
  compacting?: string;
  /** The last run failed because the conversation is too long to send: offer Compact. */
  tooLong: boolean;
}

/** One point where a chat was compacted: the next runs are sent the summary instead of the turns up to uptoMessageId. */
export interface Compaction {
  id: number;
  uptoMessageId: number;
  summary: string;
  model: string;
  /** 'button': the person pressed Compact; 'auto': a run found the chat past 80% of what it can send. */
  reason: 'button' | 'auto';
  turns: number;
  createdAt: string;
}

export interface NewChat {
  title: string;
  folder: string;
  agentId: string;
  worktree: boolean;
  planMode?: boolean;
}

/** pipeline:run (backend/pipeline/service.go RunEvent). */
export interface RunEvent {
  runId: string;
  chatId?: string;
  kind: 'progress' | 'partial' | 'text' | 'raw' | 'error' | 'session' | 'end';
  text: string;
  state?: RunState;
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('pipeline', 'Binding', method, ...args);

export const pipelineApi = {
  externalAI: () => svc<CLI[]>('ExternalAI'),
  setEnabled: (agent: string, on: boolean) => svc<CLI>('SetEnabled', agent, on),
  startVerify: (agent: string) => svc<VerifyState>('StartVerify', agent),
  cancelVerify: (agent: string) => svc<void>('CancelVerify', agent),
  verifyStates: () => svc<VerifyState[]>('VerifyStates'),
  signIn: (agent: string) => svc<SignInPane>('SignIn', agent),
  roleNames: () => svc<string[]>('RoleNames'),
  roles: () => svc<Role[]>('Roles'),
  setRoleModel: (role: string, model: string) => svc<Role>('SetRoleModel', role, model),
  modelGroups: (role: string) => svc<ModelGroup[]>('ModelGroups', role),
  folders: () => svc<Folder[]>('Folders'),
  addFolder: (path: string) => svc<Folder>('AddFolder', path),
  removeFolder: (id: number) => svc<void>('RemoveFolder', id),
  agents: () => svc<Agent[]>('Agents'),
  saveAgent: (a: Agent) => svc<Agent>('SaveAgent', a),
  deleteAgent: (id: string) => svc<void>('DeleteAgent', id),
  runAgent: (agentId: string, task: string, planMode = false) => svc<Run>('RunAgent', agentId, task, planMode),
  chats: () => svc<Chat[]>('Chats'),
  createChat: (n: NewChat) => svc<Chat>('CreateChat', n),
  setPlanMode: (chatId: string, on: boolean) => svc<Chat>('SetPlanMode', chatId, on),
  getChat: (id: string) => svc<ChatDetail>('GetChat', id),
  send: (chatId: string, text: string) => svc<Run>('Send', chatId, text),
  cancel: (runId: string) => svc<void>('Cancel', runId),
  /** pause freezes a chat's run in progress (chat id) or an agent run (run id); resume continues it. */
  pause: (id: string) => svc<void>('Pause', id),
  resume: (id: string) => svc<void>('Resume', id),
  endChat: (id: string) => svc<void>('EndChat', id),
  deleteChat: (id: string) => svc<void>('DeleteChat', id),
  getRun: (id: string) => svc<Run>('GetRun', id),
  discardBranch: (runId: string) => svc<void>('DiscardBranch', runId),
  /** compact has the Compaction role summarise the chat so far; resolves once the summary is saved. */
  compact: (chatId: string) => svc<Compaction>('Compact', chatId),
};

/** message turns a rejected call into the text to show. */
export function message(e: unknown): string {
  const s = (e instanceof Error ? e.message : String(e)).replace(/^Error: /, '');
  // Go errors start in lower case; shown alone they start a sentence. A
  // first word that is a name or an id (osFoundry, cli:claude, ~/x) stays.
  const first = s.split(/\s/, 1)[0];
  if (/^[a-z][a-z]*$/.test(first.replace(/[,;:.]$/, ''))) return s[0].toUpperCase() + s.slice(1);
  return s;
}
