import { call } from '../wails';

// Mirrors backend/inventory (types.go, resume.go, binding.go). Every string
// that comes from another app's files is untrusted: render it as text only.

export interface Session {
  key: string;
  app: string;
  appName: string;
  id: string;
  title: string;
  folder: string;
  folderName: string;
  branch: string;
  model?: string;
  effort?: string;
  mode?: string;
  sandbox?: string;
  version?: string;
  updatedMs: number;
  path: string;
  bytes: number;
  archived?: boolean;
  resumeId?: string;
}

export interface AppInfo {
  app: string;
  name: string;
  enabled: boolean;
  count: number;
}

export interface Field {
  label: string;
  value: string;
}

export interface Detail {
  session: Session;
  fields: Field[] | null;
}

export type RowKind = 'user' | 'assistant' | 'thinking' | 'tool_call' | 'tool_result' | 'system' | 'skipped';

export interface Row {
  kind: RowKind;
  name?: string;
  text: string;
  time?: string;
  isError?: boolean;
  truncated?: boolean;
}

export interface Page {
  rows: Row[] | null;
  next: number;
  done: boolean;
}

export interface ValueNote {
  label: string;
  value: string;
  handling: string;
  permissive?: boolean;
  kept?: boolean;
}

export interface BranchCheck {
  recorded: string;
  current: string;
  checked: boolean;
  mismatch: boolean;
}

export interface Plan {
  sessionKey: string;
  app: string;
  folder: string;
  argv: string[] | null;
  warnings: string[] | null;
  values: ValueNote[] | null;
  branch: BranchCheck;
  ask: boolean;
  question?: string;
}

export interface OpenRequest {
  ref: string;
  keep: string[];
  openAnyway: boolean;
}

export interface OpenResult {
  paneId?: string;
  ask: boolean;
  question?: string;
  plan: Plan;
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('inventory', 'Binding', method, ...args);

export const inventoryApi = {
  sessions: (query = '', app = '') => svc<Session[] | null>('Sessions', query, app),
  apps: () => svc<AppInfo[] | null>('Apps'),
  setAppEnabled: (app: string, on: boolean) => svc<void>('SetAppEnabled', app, on),
  refresh: () => svc<boolean>('Refresh'),
  detail: (ref: string) => svc<Detail>('Detail', ref),
  transcript: (ref: string, cursor: number, limit: number) => svc<Page>('Transcript', ref, cursor, limit),
  plan: (ref: string, keep: string[]) => svc<Plan>('Plan', ref, keep),
  openInTerminal: (req: OpenRequest) => svc<OpenResult>('OpenInTerminal', req),
};

/** A chat of the app's pipeline (backend/pipeline Chat), as far as
 * "Continue here" needs it. */
export interface ContinuedChat {
  id: string;
  title: string;
}

/** continueHere opens a pipeline chat that continues a Claude Code or Codex
 * session (backend/pipeline Binding.ContinueHere). */
export const continueHere = (agent: 'claude' | 'codex', sessionId: string, folder: string, title: string) =>
  call<ContinuedChat>('pipeline', 'Binding', 'ContinueHere', agent, sessionId, folder, title);
