// The Code screen's bound service (backend/pipeline/codeiso_binding.go): a
// workspace's repository, its worktree isolation and the isolated runs.
import { call } from '../wails';
import type { Run } from './pipeline';

/** One Local Folder as a candidate repository (pipeline.RepoFolder). */
export interface RepoFolder {
  path: string;
  git: boolean;
  missing: boolean;
  /** Why it cannot be picked; absent when it can. */
  reason?: string;
}

/** pipeline.CodeSettings: what the Code screen shows for one workspace. */
export interface CodeSettings {
  workspace: string;
  /** The picked repository; "" = the first Local Folder. */
  repo: string;
  enabled: boolean;
  /** The folder isolated runs work in now ("" when there is none). */
  uses: string;
  usesFrom: 'code' | 'first-folder';
  /** Why isolated runs could not start now. */
  problem?: string;
  folders: RepoFolder[];
}

/** pipeline.ChangedFile: one file of a run's diff. */
export interface ChangedFile {
  path: string;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
  added: number;
  removed: number;
  binary?: boolean;
  patch: string;
}

/** pipeline.CodeRun: an isolated run with its files and the user's decision. */
export interface CodeRun extends Run {
  workspace: string;
  decision: '' | 'kept';
  files: ChangedFile[];
}

/** A chat's own isolation: on, off, or "" to follow the workspace. */
export type ChatIsolation = '' | 'on' | 'off';

/** pipeline.ChatIsolationState: an open chat's isolation. */
export interface ChatIsolationState {
  mode: ChatIsolation;
  /** The workspace's switch (Code screen). */
  workspace: boolean;
  /** Its next writing run gets its own branch. */
  effective: boolean;
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('pipeline', 'CodeBinding', method, ...args);

export const codeApi = {
  settings: (workspace: string) => svc<CodeSettings>('Settings', workspace),
  setRepo: (workspace: string, path: string) => svc<CodeSettings>('SetRepo', workspace, path),
  setEnabled: (workspace: string, on: boolean) => svc<CodeSettings>('SetEnabled', workspace, on),
  runs: (workspace: string) => svc<CodeRun[]>('Runs', workspace),
  keep: (runId: string) => svc<CodeRun>('Keep', runId),
  discard: (runId: string) => svc<void>('Discard', runId),
  setChatIsolation: (chatId: string, mode: ChatIsolation) => svc<void>('SetChatIsolation', chatId, mode),
  chatIsolation: (chatId: string) => svc<ChatIsolationState>('ChatIsolation', chatId),
};
