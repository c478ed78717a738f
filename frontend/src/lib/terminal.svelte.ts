import { terminalApi, type ACPRequest, type PaneInfo } from './api/terminal';
import type { PaneState } from './api/board';
import { on } from './events';
import { Router } from './router.svelte';
import { terminalLayout } from './terminalLayout.svelte';
import { fill, focused, place, setKind, show, step, type LayoutKind } from './terminalLayout';

/** TerminalState holds the rail's panes and the split: the selected pane
 * is the one in the focused slot (terminalLayout, kept across restarts). */
export class TerminalState {
  panes = $state<PaneInfo[]>([]);
  error = $state('');
  /** loaded turns true after the first list: until then "no panes" is unknown. */
  loaded = $state(false);
  /** Saved panes still coming back at this start (the login shell is read first). */
  restoring = $state(0);
  /** The pane whose Close waits for the user's confirmation. */
  closing = $state<PaneInfo | null>(null);
  /** The pane whose rail entry is being renamed. */
  renaming = $state<string | null>(null);
  /** The pane being dragged from the rail or a slot's head onto a slot. */
  dragging = $state<string | null>(null);
  /** Folders panes were started in, the last one first (New pane form). */
  folders = $state<string[]>([]);

  /** selected is the pane in the focused slot; setting it shows the pane
   * (its slot gets the keyboard, or it takes the focused slot's place). */
  get selected(): string | null {
    return focused(terminalLayout.layout);
  }

  set selected(id: string | null) {
    if (id) terminalLayout.set(show(terminalLayout.layout, id));
  }

  get layout() {
    return terminalLayout.layout;
  }

  #order(): string[] {
    return this.panes.map((p) => p.id);
  }

  /** setKind changes the split (the layout picker). */
  setKind(kind: LayoutKind) {
    terminalLayout.set(setKind(terminalLayout.layout, kind, this.#order()));
  }

  /** place puts a pane dragged from the rail (or a slot) on a slot. */
  place(id: string, slot: number) {
    terminalLayout.set(place(terminalLayout.layout, id, slot));
  }

  /** focusSlot gives slot i the keyboard; false when the layout has no such slot. */
  focusSlot(i: number): boolean {
    const l = terminalLayout.layout;
    if (i < 0 || i >= l.slots.length) return false;
    terminalLayout.set({ ...l, focus: i });
    return true;
  }

  /** setSplit moves a divider; save false while it is being dragged. */
  setSplit(split: [number, number]) {
    terminalLayout.set({ ...terminalLayout.layout, split });
  }

  /** step shows the next (+1) or previous (-1) pane in rail order. */
  step(dir: 1 | -1) {
    const id = step(this.#order(), this.selected, dir);
    if (id) this.selected = id;
  }

  /** start subscribes to pane list changes; returns the stop function. */
  start(): () => void {
    // #/terminal?pane=<id> opens the screen on that pane (Open in Terminal).
    const want = Router.query().get('pane');
    const ready = terminalLayout.load();
    if (want) ready.then(() => (this.selected = want));
    // Asked beside the first list, which waits (a few seconds at most) for
    // a pending restore: meanwhile the rail says the panes are coming.
    terminalApi.restoring().then(
      (n) => {
        if (!this.loaded) this.restoring = n ?? 0;
      },
      () => {},
    );
    this.refresh();
    const offs = [on('panes:changed', () => this.refresh()), on('pane:exit', () => this.refresh())];
    // Mod+. and notification clicks change ?pane= while the screen is open.
    const onHash = () => {
      const id = Router.query().get('pane');
      if (id) this.selected = id;
    };
    window.addEventListener('hashchange', onHash);
    offs.push(() => window.removeEventListener('hashchange', onHash));
    // The foreground program changes without an event (the user starts an
    // agent from the shell): poll the cheap list while the screen is open.
    const t = setInterval(() => this.refresh(), 1500);
    return () => {
      offs.forEach((off) => off());
      clearInterval(t);
    };
  }

  /** loadFolders reads the folders the New pane form offers. */
  async loadFolders() {
    this.folders = (await terminalApi.folders().catch(() => [])) ?? [];
  }

  /** Numbers refreshes; an answer older than #applied is dropped. */
  #refreshes = 0;
  #applied = 0;

  async refresh() {
    const seq = ++this.#refreshes;
    try {
      const [panes] = await Promise.all([terminalApi.list(), terminalLayout.load()]);
      // A list asked before a newer one was applied, or before a pane was
      // created (the first list waits for the restore), must not bring back
      // an older rail or take the selection away from the new pane.
      if (seq < this.#applied) return;
      this.#applied = seq;
      this.panes = panes;
      // Before the restore is done (or with no pane listed) a saved slot
      // keeps its pane's place.
      terminalLayout.set(fill(terminalLayout.layout, this.#order(), this.restoring > 0 || panes.length === 0));
      // Not awaited: the selection above must not wait behind another call
      // while a new pane is being created.
      if (this.restoring) terminalApi.restoring().then((n) => (this.restoring = n ?? 0), () => {});
    } catch (e) {
      this.error = String(e);
    }
    this.loaded = true;
  }

  /** create starts a pane running command, or the app's own ACP client with acp. */
  async create(dir: string, command: string, branch?: { name: string; base: string }, acp?: ACPRequest) {
    this.error = '';
    try {
      const info = await terminalApi.create({ dir, command, cols: 120, rows: 32, branch, acp });
      this.selected = info.id;
      this.#applied = this.#refreshes + 1; // lists asked before this one are stale
      await this.refresh();
      this.loadFolders();
      return true;
    } catch (e) {
      this.error = String(e);
      return false;
    }
  }

  /** pause freezes everything running in a pane (the rail's ⏸ button). */
  pause(id: string) {
    return this.setPaused(id, true);
  }

  /** resume continues a paused pane (the rail's ▶ button, the paused bar). */
  resume(id: string) {
    return this.setPaused(id, false);
  }

  private async setPaused(id: string, pause: boolean) {
    try {
      await (pause ? terminalApi.pause(id) : terminalApi.resume(id));
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    await this.refresh();
  }

  /** requestClose closes a pane, first asking when something in it is at
   * work or waits for the user (see closeQuestion). */
  async requestClose(id: string, st: PaneState | undefined) {
    // What holds the terminal now, not at the last list: a program started
    // a moment ago, or one that ended since.
    const now = await terminalApi.list().then((ps) => ps.find((x) => x.id === id), () => undefined);
    const p = now ?? this.panes.find((x) => x.id === id);
    if (p && closeQuestion(p, st)) this.closing = p;
    else return this.close(id);
  }

  /** rename saves a pane's new name (the rail's Rename). */
  async rename(id: string, name: string) {
    this.renaming = null;
    try {
      await terminalApi.rename(id, name);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    await this.refresh();
  }

  async close(id: string) {
    if (this.closing?.id === id) this.closing = null;
    try {
      await terminalApi.close(id);
    } catch (e) {
      this.error = String(e);
    }
    await this.refresh();
  }
}

const base = (path: string) => path.split(/[\\/]/).pop() ?? path;

/** paneCommand is the command a pane was started with ("" for the shell). */
function startCommand(p: PaneInfo): string {
  return p.argv.length ? [base(p.argv[0]), ...p.argv.slice(1)].join(' ') : '';
}

const stateWords: Record<PaneState['state'], string> = { blocked: 'Needs you', working: 'Working', idle: 'Idle' };

/** paneName is what the rail calls a pane: the name the person gave it,
 * else its folder. */
export function paneName(p: PaneInfo): string {
  return p.name || p.folder;
}

/** railState is the first line of a pane's rail entry, the same for every
 * pane: its state, then its folder ("Working · shop-api"). */
export function railState(p: PaneInfo, st: PaneState | undefined): string {
  const name = paneName(p);
  if (p.exited) return `Exited ${p.exitCode} · ${name}`;
  if (st?.paused) return `Paused · ${name}`;
  return `${stateWords[st?.state ?? 'idle'] ?? 'Idle'} · ${name}`;
}

/** railWhat is the second line: the agent by name, else the command that
 * runs ("npm run dev", "bash"), so panes in one folder can be told apart. */
export function railWhat(p: PaneInfo, st: PaneState | undefined): string {
  if (p.exited) return startCommand(p) || 'shell';
  if (st?.agentName && !st.ended) return st.agentName;
  return st?.command || p.command || p.foreground || startCommand(p) || 'shell';
}

/** railTip is the rail entry's tooltip: both lines, the folder, why the
 * state is what it is and how a restore brought the pane back. */
export function railTip(p: PaneInfo, st: PaneState | undefined): string {
  const branch = p.branch ? `${p.branch.name} from ${p.branch.base} · ${branchCounts(p.added ?? 0, p.removed ?? 0)} · OSF_PORT_OFFSET=${p.branch.portOffset}` : '';
  return [`${railState(p, st)} — ${railWhat(p, st)}`, p.dir, branch, st?.reason, p.resumed].filter(Boolean).join('\n');
}

/** branchCounts is a branch pane's lines since its base ("+12 −3"). */
export function branchCounts(added: number, removed: number): string {
  return `+${added} −${removed}`;
}

/** Remembered per repository: whether the New pane form starts "On a new branch". */
const onBranchKey = (repo: string) => `osfoundry.terminal.onBranch:${repo}`;

export function rememberOnBranch(repo: string, on: boolean) {
  try {
    if (on) localStorage.setItem(onBranchKey(repo), '1');
    else localStorage.removeItem(onBranchKey(repo));
  } catch {
    // No storage: the form starts without a new branch.
  }
}

/** Remembered per repository: the base branch the last pane on a new branch started from. */
const baseKey = (repo: string) => `osfoundry.terminal.branchBase:${repo}`;

export function rememberBase(repo: string, base: string) {
  try {
    localStorage.setItem(baseKey(repo), base);
  } catch {
    // No storage: the form starts from the current branch.
  }
}

/** pickBase is the base the form starts with: the one remembered for the
 * repository while it still exists, else the checkout's branch. */
export function pickBase(repo: string, branches: string[], current: string): string {
  let last: string | null = null;
  try {
    last = localStorage.getItem(baseKey(repo));
  } catch {
    last = null;
  }
  return last && branches.includes(last) ? last : current || branches[0] || '';
}

export function wantsOnBranch(repo: string): boolean {
  try {
    return localStorage.getItem(onBranchKey(repo)) === '1';
  } catch {
    return false;
  }
}

/** closeQuestion is the question Close asks first, or null to close at
 * once: an agent that is working or waits for the user, or a program
 * other than the shell running in a pane without an agent. It names the
 * pane as the rail does (paneName). */
export function closeQuestion(p: PaneInfo, st: PaneState | undefined): string | null {
  if (p.exited) return null;
  const where = paneName(p);
  if (st?.agent && !st.ended && (st.state === 'working' || st.state === 'blocked')) {
    const who = st.agentName || 'The agent';
    const doing = st.state === 'blocked' ? 'is waiting for your decision' : 'is working';
    return `${who} ${doing} in ${where}${st.paused ? ' (paused)' : ''}. Closing the pane ends it and everything else running there.`;
  }
  if (st?.agent) return null;
  // The board names a program once it printed; the pane's own list names
  // the one in front of the shell at once (a quiet `vim`, a server that
  // has not printed yet), as the rail already shows it.
  const running = st?.command || (p.shellInFront ? '' : p.command);
  return running ? `${running} is running in ${where}. Closing the pane ends it and everything else running there.` : null;
}
