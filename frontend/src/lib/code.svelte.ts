// The Code screen's state: the workspace shown, its repository and
// isolation, and its isolated runs, re-read when the pipeline changes and
// a running run's newest step as it happens.
import { codeApi, type CodeRun, type CodeSettings } from './api/code';
import { message } from './api/pipeline';
import { notesApi, type Workspace } from './api/notes';
import { bound } from './wails';
import { on } from './events';

export class CodeState {
  workspaces = $state<Workspace[]>([]);
  workspace = $state('default');
  settings = $state<CodeSettings | null>(null);
  runs = $state<CodeRun[]>([]);
  /** The newest step of each running run, by run id. */
  steps = $state<Record<string, string>>({});
  loaded = $state(false);
  /** Counts loads: the repository choices are redrawn from each, so a refused pick does not stay checked. */
  version = $state(0);
  busy = $state(false);
  error = $state('');
  /** Per run: why Keep or Discard failed. */
  runErrors = $state<Record<string, string>>({});

  /** start loads and follows changes; call the returned function to stop. */
  start(): () => void {
    this.load();
    const offs = [
      on('pipeline:changed', () => this.load()),
      on('pipeline:run', (ev) => {
        if (ev.kind === 'progress') this.steps = { ...this.steps, [ev.runId]: ev.text };
        if (ev.kind === 'end') this.load();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  async load(): Promise<void> {
    try {
      if (bound('notes', 'Binding') && !this.workspaces.length) {
        const o = await notesApi.overview();
        this.workspaces = o.workspaces ?? [];
      }
      const ws = this.workspace;
      const [s, r] = await Promise.all([codeApi.settings(ws), codeApi.runs(ws)]);
      if (ws !== this.workspace) return; // another workspace was picked meanwhile
      this.settings = s;
      this.runs = r ?? [];
      this.loaded = true;
      this.version++;
    } catch (e) {
      this.error = message(e);
    }
  }

  async pickWorkspace(id: string): Promise<void> {
    this.workspace = id;
    this.settings = null;
    this.runs = [];
    this.error = '';
    await this.load();
  }

  private async apply(fn: () => Promise<CodeSettings>): Promise<void> {
    this.busy = true;
    this.error = '';
    try {
      this.settings = await fn();
      this.version++;
    } catch (e) {
      this.error = message(e);
      await this.load();
    }
    this.busy = false;
  }

  setRepo(path: string): Promise<void> {
    return this.apply(() => codeApi.setRepo(this.workspace, path));
  }

  setEnabled(on: boolean): Promise<void> {
    return this.apply(() => codeApi.setEnabled(this.workspace, on));
  }

  async keep(id: string): Promise<void> {
    await this.decide(id, () => codeApi.keep(id));
  }

  async discard(id: string): Promise<void> {
    await this.decide(id, () => codeApi.discard(id));
  }

  private async decide(id: string, fn: () => Promise<unknown>): Promise<void> {
    this.runErrors = { ...this.runErrors, [id]: '' };
    try {
      await fn();
    } catch (e) {
      this.runErrors = { ...this.runErrors, [id]: message(e) };
    }
    await this.load();
  }
}
