// The bound services of External AI, Pipeline Roles, Local Folders and the
// Agents list (backend/roles/binding.go) and of Chat and agent runs
// (backend/chat/binding.go).
import { service, type Narrow, type Optional } from '../wails';
import type { agentcli, chat, roles, runs, tools } from '../wailsjs/go/models';

export type RunState = 'running' | 'needs_you' | 'paused' | 'idle' | 'done' | 'failed';

/** One row of the External AI tab (roles.CLI = agentcli.Install + Enabled). */
export type CLI = Narrow<roles.CLI, { agent: 'claude' | 'codex'; keysInEnv: string[] | null }>;
export type Verification = agentcli.Verification;
/** One CLI's sign-in check, kept by the backend (event pipeline:verify); startedAt is unix ms, 0 when never checked. */
export type VerifyState = roles.VerifyState;
export type SignInPane = roles.SignInPane;
export type Role = roles.Role;
export type ModelOption = roles.ModelOption;
export type ModelGroup = roles.ModelGroup;
export type Folder = roles.Folder;
/** One tool of the articles' worker catalogue and whether this app offers it (backend/tools/catalogue.go). */
export type CatalogueTool = tools.CatalogueTool;
/** An agent; a new one has no times yet. */
export type Agent = Optional<roles.Agent, 'createdAt' | 'updatedAt'>;
export type Chat = Narrow<chat.Chat, { state: RunState }>;
export type Message = Narrow<chat.Message, { role: 'user' | 'assistant' | 'error' }>;
export type Usage = agentcli.Usage;
export type Run = Narrow<runs.Run, { state: RunState }>;
/** One point where a chat was compacted ('button': the person pressed Compact; 'auto': a run found the chat past 80% of what it can send). */
export type Compaction = Narrow<chat.Compaction, { reason: 'button' | 'auto' }>;
export type ChatDetail = Narrow<chat.ChatDetail, { chat: Chat; messages: Message[]; runs: Run[]; compactions: Compaction[] }>;
export type NewChat = chat.NewChat;

/** pipeline:run: a run's progress line, partial text, session id or end (state: the run's final state on "end"). */
export type RunEvent = Narrow<runs.RunEvent, { kind: 'progress' | 'partial' | 'text' | 'raw' | 'error' | 'session' | 'end'; state?: RunState }>;

const svc = service('chat', 'Binding');
const setup = service('roles', 'Binding');

export const pipelineApi = {
  externalAI: () => setup('ExternalAI') as Promise<CLI[]>,
  setEnabled: (agent: string, on: boolean) => setup('SetEnabled', agent, on) as Promise<CLI>,
  startVerify: (agent: string) => setup('StartVerify', agent),
  cancelVerify: (agent: string) => setup('CancelVerify', agent),
  verifyStates: () => setup('VerifyStates'),
  signIn: (agent: string) => setup('SignIn', agent),
  roleNames: () => setup('RoleNames'),
  roles: () => setup('Roles'),
  toolCatalogue: () => setup('ToolCatalogue'),
  setRoleModel: (role: string, model: string) => setup('SetRoleModel', role, model),
  modelGroups: (role: string) => setup('ModelGroups', role),
  folders: () => setup('Folders'),
  addFolder: (path: string) => setup('AddFolder', path),
  removeFolder: (id: number) => setup('RemoveFolder', id),
  agents: () => setup('Agents'),
  saveAgent: (a: Agent) => setup('SaveAgent', a as roles.Agent),
  deleteAgent: (id: string) => setup('DeleteAgent', id),
  runAgent: (agentId: string, task: string, planMode = false) => svc('RunAgent', agentId, task, planMode) as Promise<Run>,
  chats: () => svc('Chats') as Promise<Chat[]>,
  createChat: (n: NewChat) => svc('CreateChat', n) as Promise<Chat>,
  setPlanMode: (chatId: string, on: boolean) => svc('SetPlanMode', chatId, on) as Promise<Chat>,
  getChat: (id: string) => svc('GetChat', id) as Promise<ChatDetail>,
  send: (chatId: string, text: string) => svc('Send', chatId, text) as Promise<Run>,
  cancel: (runId: string) => svc('Cancel', runId),
  /** pause freezes a chat's run in progress (chat id) or an agent run (run id); resume continues it. */
  pause: (id: string) => svc('Pause', id),
  resume: (id: string) => svc('Resume', id),
  endChat: (id: string) => svc('EndChat', id),
  deleteChat: (id: string) => svc('DeleteChat', id),
  getRun: (id: string) => svc('GetRun', id) as Promise<Run>,
  discardBranch: (runId: string) => svc('DiscardBranch', runId),
  /** compact has the Compaction role summarise the chat so far; resolves once the summary is saved. */
  compact: (chatId: string) => svc('Compact', chatId) as Promise<Compaction>,
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
