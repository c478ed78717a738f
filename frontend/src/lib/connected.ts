// Pure helpers of the Connected agents panel: what the pickers offer,
// how a decision or a time reads, whether the Tools checklist has unsaved
// changes. No Svelte, no Wails: unit-tested in logic.test.ts.
import type { Connection, PickChannel, PickProject, PickResource, PickWorkspace, ToolSetting } from './api/connect';

export type Tone = 'ok' | 'warn' | 'deny';

/** decisionView turns an activity decision ("allowed", "denied: not_in_project", …) into words. */
export function decisionView(decision: string): { label: string; tone: Tone } {
  const d = decision.trim();
  if (d === 'allowed') return { label: 'Allowed', tone: 'ok' };
  if (d.startsWith('allowed')) return { label: 'Allowed' + d.slice('allowed'.length), tone: 'warn' };
  if (d.startsWith('denied:')) {
    const code = d.slice('denied:'.length).trim();
    return { label: 'Denied: ' + code.replace(/_/g, ' '), tone: 'deny' };
  }
  if (d === 'error') return { label: 'Error', tone: 'deny' };
  return { label: d || 'Unknown', tone: 'warn' };
}

/** isSet reports whether a Go time (JSON) is set: the zero time is year 1. */
export function isSet(iso: string | undefined | null): boolean {
  if (!iso) return false;
  const t = Date.parse(iso);
  return Number.isFinite(t) && new Date(t).getUTCFullYear() > 1;
}

const pad = (n: number) => String(n).padStart(2, '0');
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** formatWhen shows a local clock time for today, else the date with the time. */
export function formatWhen(iso: string, now: Date = new Date()): string {
  if (!isSet(iso)) return '';
  const t = new Date(iso);
  const clock = `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
  const sameDay = t.getFullYear() === now.getFullYear() && t.getMonth() === now.getMonth() && t.getDate() === now.getDate();
  if (sameDay) return clock;
  const date = `${months[t.getMonth()]} ${t.getDate()}` + (t.getFullYear() === now.getFullYear() ? '' : `, ${t.getFullYear()}`);
  return `${date} ${clock.slice(0, 5)}`;
}

/** inWorkspace keeps the items a connection can use: its workspace once
 * connected; before that every workspace (the consent picks one). */
function inWorkspace<T extends { workspace: string }>(items: T[], conn: Connection): T[] {
  return conn.workspace ? items.filter((i) => i.workspace === conn.workspace) : items;
}

/** projectChoices are the projects Add to project offers: in the
 * connection's workspace and not added yet. */
export function projectChoices(all: PickProject[], conn: Connection): PickProject[] {
  return inWorkspace(all, conn).filter((p) => !conn.projects.includes(p.id));
}

/** channelChoices are the Message channels Invite offers: in the
 * workspace and not invited yet. Being in a project opens only its
 * discussion channel (never offered), so a project's other channels
 * still need their invite. */
export function channelChoices(all: PickChannel[], conn: Connection): PickChannel[] {
  return inWorkspace(all, conn).filter((c) => !conn.channels.includes(c.id));
}

/** groupByWorkspace groups picker items under their workspace name, in order. */
export function groupByWorkspace<T extends { workspaceName: string }>(items: T[]): { workspace: string; items: T[] }[] {
  const out: { workspace: string; items: T[] }[] = [];
  for (const it of items) {
    let g = out.find((x) => x.workspace === it.workspaceName);
    if (!g) out.push((g = { workspace: it.workspaceName, items: [] }));
    g.items.push(it);
  }
  return out;
}

/** opensText says what adding a project opens besides its Notes: its
 * knowledge bases and Record channels by name, then its discussion channel. */
export function opensText(opens: PickResource[] | undefined): string {
  const names = (kind: PickResource['kind']) =>
    (opens ?? [])
      .filter((o) => o.kind === kind)
      .map((o) => o.name)
      .sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
  const kb = names('knowledge_base');
  const rc = names('record_channel');
  return [kb.length ? 'Knowledge: ' + kb.join(', ') : '', rc.length ? 'Records: ' + rc.join(', ') : '', ...names('message_channel').map((n) => '#' + n)]
    .filter(Boolean)
    .join(' · ');
}

/** panelWorkspace is the line under the panel's title: the selected
 * connection's workspace; before its consent, the only workspace there is,
 * or that the consent chooses one. */
export function panelWorkspace(conn: Connection | null, workspaces: PickWorkspace[]): string {
  if (conn?.workspace) return 'Workspace: ' + (workspaces.find((w) => w.id === conn.workspace)?.name ?? conn.workspace);
  if (workspaces.length === 1) return 'Workspace: ' + workspaces[0].name;
  if (!workspaces.length) return 'No workspace yet: create one in Notes first.';
  return 'Workspace: chosen when you approve the assistant';
}

/** nameOf finds a project's or channel's name; a deleted one shows its id. */
export function nameOf(id: string, all: { id: string; name: string }[]): string {
  return all.find((x) => x.id === id)?.name ?? id;
}

export interface ToolGroup {
  scope: string;
  title: string;
  tools: ToolSetting[];
}

const scopeTitles: Record<string, string> = {
  'osfoundry:read': 'Read',
  'osfoundry:write': 'Change',
  'osfoundry:run': 'Run',
  'osfoundry:models': 'Models',
};

/** toolGroups groups the checklist by scope (Read, Change, Run, Models), keeping the catalogue order inside. */
export function toolGroups(list: ToolSetting[]): ToolGroup[] {
  const order = Object.keys(scopeTitles);
  const groups = new Map<string, ToolGroup>();
  for (const t of list) {
    if (!groups.has(t.scope)) groups.set(t.scope, { scope: t.scope, title: scopeTitles[t.scope] ?? t.scope, tools: [] });
    groups.get(t.scope)!.tools.push(t);
  }
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
  return [...groups.values()].sort((a, b) => rank(a.scope) - rank(b.scope));
}

/** enabledNames are the ticked tools, what Save tools sends. */
export function enabledNames(draft: Record<string, boolean>): string[] {
  return Object.keys(draft).filter((k) => draft[k]);
}

/** toolsDirty reports whether the draft ticks differ from what is saved. */
export function toolsDirty(saved: ToolSetting[], draft: Record<string, boolean>): boolean {
  return saved.some((t) => (draft[t.name] ?? t.enabled) !== t.enabled);
}

/** displayNameError says what is wrong with a display name, or ''. */
export function displayNameError(name: string, existing: Connection[]): string {
  const n = name.trim();
  if (!n) return 'Give the assistant a name you will recognise, e.g. “Claude on my laptop”.';
  if (n.length > 80) return 'Keep the name under 80 characters.';
  if (existing.some((c) => c.status !== 'revoked' && c.displayName.trim().toLowerCase() === n.toLowerCase()))
    return `A connection named “${n}” exists already; pick another name so the consent page can tell them apart.`;
  return '';
}

/** addressReady reports whether the server address has a host (the
 * endpoint is listening); before that it reads "http:///mcp". */
export function addressReady(addr: string): boolean {
  // Not new URL(): it reads "http:///mcp" as host "mcp".
  return /^https?:\/\/[^/\s]+\//.test(addr);
}

/** isLoopbackAddress reports whether the server address only works on this machine. */
export function isLoopbackAddress(addr: string): boolean {
  try {
    const h = new URL(addr).hostname.replace(/^\[|\]$/g, '');
    return h === 'localhost' || h === '::1' || /^127\./.test(h);
  } catch {
    return false;
  }
}

/** setupSteps tell where to paste the server address for each assistant (text is inline Markdown). */
export function setupSteps(assistant: string, addr: string): { text: string; command?: string }[] {
  switch (assistant) {
    case 'Claude':
      return [
        { text: 'Claude Code:', command: `claude mcp add --transport http osfoundry ${addr}` },
        { text: 'Then run `/mcp` in Claude Code and choose **Authenticate**. Claude Desktop: add it as a custom connector.' },
      ];
    case 'ChatGPT':
      return [{ text: 'In ChatGPT, add a custom connector (developer mode) with this address.' }];
    default:
      return [
        { text: 'Codex CLI:', command: `codex mcp add osfoundry --url ${addr}` },
        { text: 'Then run `codex mcp login osfoundry`. Other clients: add it as a remote MCP server (Streamable HTTP); they register themselves.' },
      ];
  }
}

/** cloudCaveat warns when a cloud chat cannot reach a loopback address. */
export function cloudCaveat(assistant: string, addr: string): string {
  if (!isLoopbackAddress(addr) || assistant === 'Other MCP client') return '';
  return 'This address works on this computer only. A chat running in the cloud needs a server it can reach: `osfoundry serve --public-url https://…`.';
}

/** statusTone colours a connection's status. */
export function statusTone(status: string): Tone {
  return status === 'connected' ? 'ok' : status === 'revoked' ? 'deny' : 'warn';
}

const kindLabels: Record<string, string> = {
  change_set: 'Change set',
  file_import: 'File import',
  pull_request: 'Pull request',
};

/** kindLabel names a proposal's kind. */
export function kindLabel(kind: string): string {
  return kindLabels[kind] ?? kind.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** scopeWords says what a connection's scopes allow, in plain words. */
export function scopeWords(scopes: string[]): string {
  const words: Record<string, string> = { 'osfoundry:read': 'read', 'osfoundry:write': 'change', 'osfoundry:run': 'run sessions', 'osfoundry:models': 'use models' };
  const w = scopes.map((s) => words[s] ?? s);
  if (!w.length) return '';
  const list = w.length === 1 ? w[0] : w.slice(0, -1).join(', ') + ' and ' + w[w.length - 1];
  return 'Can ' + list;
}
