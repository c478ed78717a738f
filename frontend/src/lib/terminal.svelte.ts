import { terminalApi, type PaneInfo } from './api/terminal';
import { on } from './events';
import { Router } from './router.svelte';

/** TerminalState holds the rail's panes and the selected pane. */
export class TerminalState {
  panes = $state<PaneInfo[]>([]);
  selected = $state<string | null>(null);
  error = $state('');
  /** loaded turns true after the first list: until then "no panes" is unknown. */
  loaded = $state(false);

  /** start subscribes to pane list changes; returns the stop function. */
  start(): () => void {
    // #/terminal?pane=<id> opens the screen on that pane (Open in Terminal).
    const want = Router.query().get('pane');
    if (want) this.selected = want;
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

  async refresh() {
    try {
      this.panes = await terminalApi.list();
      if (this.selected && !this.panes.some((p) => p.id === this.selected)) this.selected = null;
      if (!this.selected && this.panes.length) this.selected = this.panes[this.panes.length - 1].id;
    } catch (e) {
      this.error = String(e);
    }
    this.loaded = true;
  }

  async create(dir: string, command: string) {
    this.error = '';
    try {
      const info = await terminalApi.create({ dir, command, cols: 120, rows: 32 });
      this.selected = info.id;
      await this.refresh();
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

  async close(id: string) {
    try {
      await terminalApi.close(id);
    } catch (e) {
      this.error = String(e);
    }
    await this.refresh();
  }
}

/** label is what the rail shows for a pane: folder · program. */
export function paneLabel(p: PaneInfo): string {
  const prog = p.exited ? `exited ${p.exitCode}` : p.foreground || p.argv[0]?.split('/').pop() || '';
  return `${p.folder} · ${prog}`;
}
