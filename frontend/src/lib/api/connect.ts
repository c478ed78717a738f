// The Connected agents panel's Go API (backend/connect/panel.go) and the
// project/channel picker (backend/connect/notesres/picker.go).
import { call, bound } from '../wails';

export interface PanelTexts {
  Pending: string;
  Connected: string;
  Revoked: string;
  ToolsOn: string;
  Assistants: string[];
}

export type ConnectionStatus = 'pending' | 'connected' | 'revoked';

export interface Connection {
  id: string;
  displayName: string;
  assistant: string;
  status: ConnectionStatus;
  statusText: string;
  workspace: string;
  approver: string;
  scopes: string[];
  projects: string[];
  channels: string[];
  createdAt: string;
  connectedAt: string; // Go zero time when never connected
}

export interface ToolSetting {
  name: string;
  scope: string;
  readOnly: boolean;
  enabled: boolean;
}

export interface Activity {
  connectionId: string;
  tool: string;
  decision: string; // "allowed", "allowed (tool error)", "denied: <code>", "error"
  detail: string;
  at: string;
}

export interface Proposal {
  id: string;
  connectionId: string;
  connection: string; // display name
  kind: string;
  project: string;
  target: string;
  title: string;
  files: string[];
  details: string;
  status: string;
  createdAt: string;
  decidedAt: string;
  decidedBy: string;
  /** change_set: each file's text at HEAD when proposed and the new text */
  changes: FileChange[];
  /** change_set given as a unified patch instead of files */
  patch: string;
  /** an applied change set: its branch, commit and diff */
  branch: string;
  commit: string;
  diff: string;
  /** why approving did not apply it (it stays waiting; nothing was changed) */
  problem: string;
}

export interface FileChange {
  path: string;
  before: string;
  after: string;
  added: boolean;
}

export interface PickProject {
  id: string;
  name: string;
  workspace: string;
  workspaceName: string;
  /** what adding the project opens besides its Notes: knowledge bases, Record channels, its discussion channel */
  opens: PickResource[];
}

export interface PickResource {
  kind: 'knowledge_base' | 'record_channel' | 'message_channel';
  id: string;
  name: string;
}

export interface PickWorkspace {
  id: string;
  name: string;
}

export interface PickChannel {
  id: string;
  name: string;
  kind: string;
  /** a private Message channel: only its owner's invite opens it */
  private?: boolean;
  project: string;
  workspace: string;
  workspaceName: string;
}

const panel = <T>(method: string, ...args: unknown[]) => call<T>('connect', 'Panel', method, ...args);
const picker = <T>(method: string) => call<T>('notesres', 'Picker', method);

export const connectApi = {
  available: () => bound('connect', 'Panel'),
  texts: () => panel<PanelTexts>('Texts'),
  serverAddress: () => panel<string>('ServerAddress'),
  addAssistant: (assistant: string, displayName: string) => panel<Connection>('AddAssistant', assistant, displayName),
  connections: () => panel<Connection[]>('Connections'),
  addToProject: (connId: string, projectId: string) => panel<Connection>('AddToProject', connId, projectId),
  removeFromProject: (connId: string, projectId: string) => panel<Connection>('RemoveFromProject', connId, projectId),
  inviteChannel: (connId: string, channelId: string) => panel<Connection>('InviteChannel', connId, channelId),
  removeChannel: (connId: string, channelId: string) => panel<Connection>('RemoveChannel', connId, channelId),
  tools: (connId: string) => panel<ToolSetting[]>('Tools', connId),
  saveTools: (connId: string, enabled: string[]) => panel<ToolSetting[]>('SaveTools', connId, enabled),
  revoke: (connId: string) => panel<Connection>('Revoke', connId),
  recentActivity: (connId: string) => panel<Activity[]>('RecentActivity', connId),
  needsApproval: () => panel<Proposal[]>('NeedsApproval'),
  approve: (id: string) => panel<Proposal>('Approve', id),
  decline: (id: string) => panel<Proposal>('Decline', id),
  signInLink: () => panel<string>('SignInLink'),
  // The picker may be absent (no notes store): the sections then say so.
  projects: () => (bound('notesres', 'Picker') ? picker<PickProject[]>('Projects') : Promise.resolve([] as PickProject[])),
  channels: () => (bound('notesres', 'Picker') ? picker<PickChannel[]>('Channels') : Promise.resolve([] as PickChannel[])),
  workspaces: () => (bound('notesres', 'Picker') ? picker<PickWorkspace[]>('Workspaces') : Promise.resolve([] as PickWorkspace[])),
};
