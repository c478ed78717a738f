import { call, service, type Narrow } from '../wails';
import type { inventory } from '../wailsjs/go/models';

// Mirrors backend/inventory (types.go, resume.go, binding.go). Every string
// that comes from another app's files is untrusted: render it as text only.

export type Session = inventory.Session;
export type AppInfo = inventory.AppInfo;
export type Field = inventory.Field;
/** A session's details; Go sends an empty list as null. */
export type Detail = Narrow<inventory.Detail, { fields: Field[] | null }>;

export type RowKind = 'user' | 'assistant' | 'thinking' | 'tool_call' | 'tool_result' | 'system' | 'skipped';
export type Row = Narrow<inventory.Row, { kind: RowKind }>;
export type Page = Narrow<inventory.Page, { rows: Row[] | null }>;
export type ValueNote = inventory.ValueNote;
export type BranchCheck = inventory.BranchCheck;
export type Plan = inventory.Plan;
export type OpenRequest = inventory.OpenRequest;
export type OpenResult = inventory.OpenResult;
export type TextStatus = inventory.TextStatus;
export type TextHit = inventory.TextHit;

const svc = service('inventory', 'Binding');

export const inventoryApi = {
  sessions: (query = '', app = '') => svc('Sessions', query, app) as Promise<Session[] | null>,
  apps: () => svc('Apps') as Promise<AppInfo[] | null>,
  setAppEnabled: (app: string, on: boolean) => svc('SetAppEnabled', app, on),
  refresh: () => svc('Refresh'),
  detail: (ref: string) => svc('Detail', ref) as Promise<Detail>,
  transcript: (ref: string, cursor: number, limit: number) => svc('Transcript', ref, cursor, limit) as Promise<Page>,
  plan: (ref: string, keep: string[]) => svc('Plan', ref, keep),
  openInTerminal: (req: OpenRequest) => svc('OpenInTerminal', req),
  /** "Search in conversations": its state, the switch, and a query. */
  textSearch: () => svc('TextSearch') as Promise<TextStatus>,
  setTextSearch: (on: boolean) => svc('SetTextSearch', on) as Promise<TextStatus>,
  searchText: (query: string) => svc('SearchText', query) as Promise<TextHit[] | null>,
};

/** continueHere opens a pipeline chat that continues a Claude Code or Codex
 * session (backend/pipeline Binding.ContinueHere). */
export const continueHere = (agent: 'claude' | 'codex', sessionId: string, folder: string, title: string) =>
  call('chat', 'Binding', 'ContinueHere', agent, sessionId, folder, title);
