import { describe, expect, it } from 'vitest';
import type { Connection, PickChannel, PickProject, ToolSetting } from './api/connect';
import {
  channelChoices,
  cloudCaveat,
  decisionView,
  displayNameError,
  enabledNames,
  formatWhen,
  groupByWorkspace,
  isLoopbackAddress,
  isSet,
  nameOf,
  projectChoices,
  setupSteps,
  statusTone,
  toolGroups,
  toolsDirty,
} from './connected';

const conn = (over: Partial<Connection> = {}): Connection => ({
  id: 'conn_1',
  displayName: 'Claude on laptop',
  assistant: 'Claude',
  status: 'pending',
  statusText: 'Setup pending. This assistant cannot read or change anything yet.',
  workspace: '',
  approver: '',
  scopes: [],
  projects: [],
  channels: [],
  chatLinks: [],
  createdAt: '2026-03-04T10:00:00Z',
  connectedAt: '0001-01-01T00:00:00Z',
  ...over,
});

const projects: PickProject[] = [
  { id: 'p-a', name: 'Launch', workspace: 'ws-1', workspaceName: 'Acme', opens: [] },
  { id: 'p-b', name: 'Finance', workspace: 'ws-1', workspaceName: 'Acme', opens: [] },
  { id: 'p-c', name: 'Hiring', workspace: 'ws-2', workspaceName: 'Beta', opens: [] },
];

const channels: PickChannel[] = [
  { id: 'rc-1', name: 'Bugs', kind: 'message_channel', private: false, project: 'p-a', workspace: 'ws-1', workspaceName: 'Acme' },
  { id: 'rc-2', name: 'All hands', kind: 'message_channel', private: false, project: '', workspace: 'ws-1', workspaceName: 'Acme' },
  { id: 'rc-3', name: 'Other', kind: 'message_channel', private: false, project: '', workspace: 'ws-2', workspaceName: 'Beta' },
];

describe('decisionView', () => {
  it.each([
    ['allowed', 'Allowed', 'ok'],
    ['allowed (tool error)', 'Allowed (tool error)', 'warn'],
    ['denied: not_in_project', 'Denied: not in project', 'deny'],
    ['denied: connection_revoked', 'Denied: connection revoked', 'deny'],
    ['denied: insufficient_scope', 'Denied: insufficient scope', 'deny'],
    ['error', 'Error', 'deny'],
    ['', 'Unknown', 'warn'],
  ])('%s → %s', (d, label, tone) => {
    expect(decisionView(d)).toEqual({ label, tone });
  });
});

describe('times', () => {
  it('treats the Go zero time as unset', () => {
    expect(isSet('0001-01-01T00:00:00Z')).toBe(false);
    expect(isSet('')).toBe(false);
    expect(isSet('not a date')).toBe(false);
    expect(isSet('2026-03-04T10:00:00Z')).toBe(true);
  });
  it('shows the clock for today and the date otherwise', () => {
    const now = new Date(2026, 2, 4, 18, 0, 0);
    expect(formatWhen(new Date(2026, 2, 4, 9, 5, 7).toISOString(), now)).toBe('09:05:07');
    expect(formatWhen(new Date(2026, 2, 3, 23, 59, 1).toISOString(), now)).toBe('Mar 3 23:59');
    expect(formatWhen(new Date(2025, 11, 31, 8, 0, 0).toISOString(), now)).toBe('Dec 31, 2025 08:00');
    expect(formatWhen('0001-01-01T00:00:00Z', now)).toBe('');
  });
});

describe('pickers', () => {
  it('offers every workspace before the consent picked one', () => {
    expect(projectChoices(projects, conn()).map((p) => p.id)).toEqual(['p-a', 'p-b', 'p-c']);
  });
  it('offers only the connected workspace, minus added projects', () => {
    const c = conn({ status: 'connected', workspace: 'ws-1', projects: ['p-a'] });
    expect(projectChoices(projects, c).map((p) => p.id)).toEqual(['p-b']);
  });
  it('offers a project\'s channels even when the project is added (only its discussion channel opens), not invited ones', () => {
    const c = conn({ status: 'connected', workspace: 'ws-1', projects: ['p-a'] });
    expect(channelChoices(channels, c).map((x) => x.id)).toEqual(['rc-1', 'rc-2']);
    expect(channelChoices(channels, { ...c, channels: ['rc-1', 'rc-2'] })).toEqual([]);
    expect(channelChoices(channels, conn()).map((x) => x.id)).toEqual(['rc-1', 'rc-2', 'rc-3']);
  });
  it('groups by workspace in order', () => {
    expect(groupByWorkspace(projects).map((g) => [g.workspace, g.items.length])).toEqual([
      ['Acme', 2],
      ['Beta', 1],
    ]);
  });
  it('names a deleted project by its id', () => {
    expect(nameOf('p-b', projects)).toBe('Finance');
    expect(nameOf('p-gone', projects)).toBe('p-gone');
  });
});

describe('tools checklist', () => {
  const list: ToolSetting[] = [
    { name: 'edit_note_tab', scope: 'osfoundry:write', readOnly: false, enabled: true },
    { name: 'list_granted_resources', scope: 'osfoundry:read', readOnly: true, enabled: true },
    { name: 'run_graph_session', scope: 'osfoundry:run', readOnly: false, enabled: false },
    { name: 'read_note_tab', scope: 'osfoundry:read', readOnly: true, enabled: true },
  ];
  it('groups by scope, read first, keeping catalogue order', () => {
    const g = toolGroups(list);
    expect(g.map((x) => x.title)).toEqual(['Read', 'Change', 'Run']);
    expect(g[0].tools.map((t) => t.name)).toEqual(['list_granted_resources', 'read_note_tab']);
  });
  it('is dirty only when a tick differs from what is saved', () => {
    const draft = Object.fromEntries(list.map((t) => [t.name, t.enabled]));
    expect(toolsDirty(list, draft)).toBe(false);
    expect(toolsDirty(list, { ...draft, read_note_tab: false })).toBe(true);
    expect(toolsDirty(list, { ...draft, run_graph_session: true })).toBe(true);
  });
  it('sends exactly the ticked tools', () => {
    expect(enabledNames({ a: true, b: false, c: true })).toEqual(['a', 'c']);
  });
});

describe('display name', () => {
  it.each([
    ['', /Give the assistant a name/],
    ['   ', /Give the assistant a name/],
    ['x'.repeat(81), /under 80/],
    ['claude ON laptop', /exists already/],
  ])('%j is refused', (name, msg) => {
    expect(displayNameError(name, [conn()])).toMatch(msg);
  });
  it('accepts a new name, and the name of a revoked connection', () => {
    expect(displayNameError('Codex', [conn()])).toBe('');
    expect(displayNameError('Claude on laptop', [conn({ status: 'revoked' })])).toBe('');
  });
});

describe('server address', () => {
  it.each([
    ['http://127.0.0.1:8765/mcp', true],
    ['http://localhost:8765/mcp', true],
    ['http://[::1]:8765/mcp', true],
    ['https://osfoundry.example.com/mcp', false],
    ['', false],
  ])('%s loopback=%s', (a, want) => expect(isLoopbackAddress(a)).toBe(want));
  it('knows an address without a host is not ready', async () => {
    const { addressReady } = await import('./connected');
    expect(addressReady('http:///mcp')).toBe(false);
    expect(addressReady('')).toBe(false);
    expect(addressReady('http://127.0.0.1:8765/mcp')).toBe(true);
  });
  it('puts the address into the setup command', () => {
    expect(setupSteps('Claude', 'http://127.0.0.1:1/mcp')[0].command).toBe('claude mcp add --transport http osfoundry http://127.0.0.1:1/mcp');
    expect(setupSteps('Other MCP client', 'http://127.0.0.1:1/mcp')[0].command).toBe('codex mcp add osfoundry --url http://127.0.0.1:1/mcp');
    expect(setupSteps('ChatGPT', 'x')[0].command).toBeUndefined();
  });
  it('warns that a cloud chat cannot reach a loopback address', () => {
    expect(cloudCaveat('ChatGPT', 'http://127.0.0.1:8765/mcp')).toMatch(/this computer only/);
    expect(cloudCaveat('Claude', 'https://team.example.com/mcp')).toBe('');
    expect(cloudCaveat('Other MCP client', 'http://127.0.0.1:8765/mcp')).toBe('');
  });
});

it('colours statuses', () => {
  expect([statusTone('connected'), statusTone('pending'), statusTone('revoked')]).toEqual(['ok', 'warn', 'deny']);
});

describe('words', () => {
  it('names proposal kinds', async () => {
    const { kindLabel } = await import('./connected');
    expect(kindLabel('pull_request')).toBe('Pull request');
    expect(kindLabel('something_new')).toBe('Something new');
  });
  it('says scopes plainly', async () => {
    const { scopeWords } = await import('./connected');
    expect(scopeWords(['osfoundry:read'])).toBe('Can read');
    expect(scopeWords(['osfoundry:read', 'osfoundry:write', 'osfoundry:run'])).toBe('Can read, change and run sessions');
    expect(scopeWords([])).toBe('');
  });
});
