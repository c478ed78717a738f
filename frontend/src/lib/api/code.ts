// The Code screen's bound service (backend/code/binding.go): a
// workspace's repository, its worktree isolation and the isolated runs.
import { service, type Narrow } from '../wails';
import type { code } from '../wailsjs/go/models';
import type { RunState } from './pipeline';

/** One Local Folder as a candidate repository; reason says why it cannot be picked. */
export type RepoFolder = code.RepoFolder;

/** What the Code screen shows for one workspace: repo "" = the most recently added Local Folder; uses is the folder isolated runs work in now. */
export type CodeSettings = Narrow<code.Settings, { usesFrom: 'code' | 'first-folder' }>;

/** One file of a run's diff. */
export type ChangedFile = Narrow<code.ChangedFile, { status: 'added' | 'deleted' | 'modified' | 'renamed' }>;

/** An isolated run with its files and the person's decision. */
export type CodeRun = Narrow<code.Run, { state: RunState; decision: '' | 'kept'; files: ChangedFile[] }>;

/** A chat's own isolation: on, off, or "" to follow the workspace. */
export type ChatIsolation = '' | 'on' | 'off';

/** An open chat's isolation: workspace is the Code screen's switch, effective whether its next writing run gets its own branch. */
export type ChatIsolationState = Narrow<code.ChatIsolationState, { mode: ChatIsolation }>;

const svc = service('code', 'Binding');

export const codeApi = {
  settings: (workspace: string) => svc('Settings', workspace) as Promise<CodeSettings>,
  setRepo: (workspace: string, path: string) => svc('SetRepo', workspace, path) as Promise<CodeSettings>,
  setEnabled: (workspace: string, on: boolean) => svc('SetEnabled', workspace, on) as Promise<CodeSettings>,
  runs: (workspace: string) => svc('Runs', workspace) as Promise<CodeRun[]>,
  keep: (runId: string) => svc('Keep', runId) as Promise<CodeRun>,
  discard: (runId: string) => svc('Discard', runId),
  setChatIsolation: (chatId: string, mode: ChatIsolation) => svc('SetChatIsolation', chatId, mode),
  chatIsolation: (chatId: string) => svc('ChatIsolation', chatId) as Promise<ChatIsolationState>,
};
