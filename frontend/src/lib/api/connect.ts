// The Connected agents panel's Go API (backend/connect/panel.go) and the
// project/channel picker (backend/connect/notesres/picker.go).
import { service, bound, type Narrow } from '../wails';
import type { connect, notesres } from '../wailsjs/go/models';

export type PanelTexts = connect.PanelTexts;

export type ConnectionStatus = 'pending' | 'connected' | 'revoked';

/** A connection; connectedAt is Go's zero time when it never connected. */
export type Connection = Narrow<connect.Connection, { status: ConnectionStatus }>;
export type ToolSetting = connect.ToolSetting;
/** One tool call; decision is "allowed", "allowed (tool error)", "denied: <code>" or "error". */
export type Activity = connect.Activity;
/**
 * A proposal waiting for the person: connection is the display name;
 * changes (or patch) is a change set, branch/commit/diff an applied one,
 * problem why approving did not apply it (it stays waiting).
 */
export type Proposal = connect.Proposal;
export type FileChange = connect.FileChange;
/** A project to add; opens is what adding it opens besides its Notes. */
export type PickProject = Narrow<notesres.PickProject, { opens: PickResource[] }>;
export type PickResource = Narrow<notesres.PickResource, { kind: 'knowledge_base' | 'record_channel' | 'message_channel' }>;
export type PickWorkspace = notesres.PickWorkspace;
/** A channel to invite to; a private Message channel opens only by its owner's invite. */
export type PickChannel = notesres.PickChannel;

const panel = service('connect', 'Panel');
const picker = service('notesres', 'Picker');

export const connectApi = {
  available: () => bound('connect', 'Panel'),
  texts: () => panel('Texts'),
  serverAddress: () => panel('ServerAddress'),
  addAssistant: (assistant: string, displayName: string) => panel('AddAssistant', assistant, displayName) as Promise<Connection>,
  connections: () => panel('Connections') as Promise<Connection[]>,
  addToProject: (connId: string, projectId: string) => panel('AddToProject', connId, projectId) as Promise<Connection>,
  removeFromProject: (connId: string, projectId: string) => panel('RemoveFromProject', connId, projectId) as Promise<Connection>,
  inviteChannel: (connId: string, channelId: string) => panel('InviteChannel', connId, channelId) as Promise<Connection>,
  removeChannel: (connId: string, channelId: string) => panel('RemoveChannel', connId, channelId) as Promise<Connection>,
  tools: (connId: string) => panel('Tools', connId),
  saveTools: (connId: string, enabled: string[]) => panel('SaveTools', connId, enabled),
  revoke: (connId: string) => panel('Revoke', connId) as Promise<Connection>,
  recentActivity: (connId: string) => panel('RecentActivity', connId),
  needsApproval: () => panel('NeedsApproval'),
  approve: (id: string) => panel('Approve', id),
  decline: (id: string) => panel('Decline', id),
  signInLink: () => panel('SignInLink'),
  // The picker may be absent (no notes store): the sections then say so.
  projects: () => (bound('notesres', 'Picker') ? picker('Projects') as Promise<PickProject[]> : Promise.resolve([] as PickProject[])),
  channels: () => (bound('notesres', 'Picker') ? picker('Channels') : Promise.resolve([] as PickChannel[])),
  workspaces: () => (bound('notesres', 'Picker') ? picker('Workspaces') : Promise.resolve([] as PickWorkspace[])),
};
