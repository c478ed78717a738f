// Live state of the Connected agents panel. The backend has no event for
// an assistant signing in or calling a tool, so the panel polls while it
// is open: an approval in the browser shows "Connected." within a moment.
import {
  connectApi,
  type Activity,
  type Connection,
  type PanelTexts,
  type PickChannel,
  type PickProject,
  type PickWorkspace,
  type Proposal,
} from './api/connect';
import { on } from './events';
import { addressReady } from './connected';

export const pollMs = 1500;

export class ConnectedState {
  texts = $state<PanelTexts | null>(null);
  address = $state('');
  connections = $state<Connection[]>([]);
  selectedId = $state('');
  activity = $state<Activity[]>([]);
  proposals = $state<Proposal[]>([]);
  /** change sets approved in this window, shown with their branch and diff until dismissed */
  applied = $state<Proposal[]>([]);
  projects = $state<PickProject[]>([]);
  channels = $state<PickChannel[]>([]);
  workspaces = $state<PickWorkspace[]>([]);
  error = $state('');
  loaded = $state(false);

  selected = $derived(this.connections.find((c) => c.id === this.selectedId) ?? null);

  #busy = false;

  /** start loads and keeps polling; returns the stop function. */
  start(): () => void {
    let stopped = false;
    const tick = async () => {
      if (stopped) return;
      await this.refresh();
      if (!stopped) timer = setTimeout(tick, pollMs);
    };
    let timer = setTimeout(tick, 0);
    // What a project opens changes with Notes, Records and Messages: show
    // it at once rather than at the next poll.
    const offs = (['notes:changed', 'records:changed', 'messages:posted'] as const).map((e) => on(e, () => void this.refresh()));
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const off of offs) off();
    };
  }

  async refresh() {
    if (this.#busy) return;
    this.#busy = true;
    try {
      if (!this.texts) this.texts = await connectApi.texts();
      if (!addressReady(this.address)) this.address = await connectApi.serverAddress();
      const [conns, props, projects, channels, workspaces] = await Promise.all([
        connectApi.connections(),
        connectApi.needsApproval(),
        connectApi.projects(),
        connectApi.channels(),
        connectApi.workspaces(),
      ]);
      this.workspaces = workspaces;
      this.connections = conns;
      this.proposals = props;
      this.projects = projects;
      this.channels = channels;
      if (!conns.some((c) => c.id === this.selectedId)) this.selectedId = conns[0]?.id ?? '';
      this.activity = this.selectedId ? await connectApi.recentActivity(this.selectedId) : [];
      this.loaded = true;
    } catch (e) {
      this.error = message(e);
    } finally {
      this.#busy = false;
    }
  }

  select(id: string) {
    if (id === this.selectedId) return;
    this.selectedId = id;
    this.activity = [];
    this.refresh();
  }

  /** run performs a panel action, replaces the connection it returns and shows any error. */
  /** decide approves or declines a proposal; an applied change set, opened pull request or written import joins "Applied". */
  decide(id: string, approve: boolean): Promise<boolean> {
    return this.run(async () => {
      const p = approve ? await connectApi.approve(id) : await connectApi.decline(id);
      if (p.status === 'approved' && (p.branch || p.url || p.imported?.length)) this.applied = [p, ...this.applied.filter((x) => x.id !== p.id)];
      return p;
    });
  }

  async run(action: () => Promise<Connection | unknown>): Promise<boolean> {
    this.error = '';
    try {
      const r = await action();
      if (r && typeof r === 'object' && 'statusText' in r) this.replace(r as Connection);
      await this.refresh();
      return true;
    } catch (e) {
      this.error = message(e);
      return false;
    }
  }

  replace(c: Connection) {
    const i = this.connections.findIndex((x) => x.id === c.id);
    if (i < 0) this.connections = [c, ...this.connections];
    else this.connections[i] = c;
  }

  async add(assistant: string, name: string): Promise<boolean> {
    this.error = '';
    try {
      const c = await connectApi.addAssistant(assistant, name.trim());
      this.replace(c);
      this.selectedId = c.id;
      this.activity = [];
      return true;
    } catch (e) {
      this.error = message(e);
      return false;
    }
  }
}

/** signIn opens a one-time sign-in link in the system browser, where the
 * "Connect an agent" page waits for the person at this machine, and
 * returns the link (shown to copy when no browser opens). */
export async function signIn(): Promise<string> {
  const link = await connectApi.signInLink();
  if (window.runtime?.BrowserOpenURL) window.runtime.BrowserOpenURL(link);
  else window.open(link, '_blank', 'noopener');
  return link;
}

export { copyText } from './clipboard';

export function message(e: unknown): string {
  const s = e instanceof Error ? e.message : String(e);
  return s.replace(/^Error:\s*/, '');
}
