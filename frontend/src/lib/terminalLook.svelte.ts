// How terminal panes look, shared by every pane view and Settings →
// Terminal: a saved change reaches each open pane at once (PaneView sets
// xterm's options from `options`).
import type { ITerminalOptions } from '@xterm/xterm';
import { settingsApi, type Palette, type TerminalPrefs } from './api/settings';
import { bound } from './wails';
import { on } from './events';
import { defaults, xtermOptions } from './terminalPrefs';

/** Colours until the palettes are loaded: the app's own dark theme. */
export const initialBackground = '#141417';

class TerminalLook {
  prefs = $state<TerminalPrefs>({ ...defaults });
  palettes = $state<Palette[]>([]);
  palette = $derived(this.palettes.find((p) => p.id === this.prefs.palette) ?? this.palettes[0]);
  options: ITerminalOptions = $derived(xtermOptions(this.prefs, this.palette));
  background = $derived(this.palette?.background ?? initialBackground);
  #loading: Promise<void> | null = null;
  #followers = 0;
  #off: (() => void) | null = null;

  /** follow keeps prefs current with every saved change (settings:terminal),
   * whoever made it, while at least one caller follows; returns the stop. */
  follow(): () => void {
    // Every saved setting sends it (the layout too): only a change redraws.
    const same = (a: TerminalPrefs, b: TerminalPrefs) => (Object.keys(a) as (keyof TerminalPrefs)[]).every((k) => a[k] === b[k]);
    if (this.#followers++ === 0) this.#off = on('settings:terminal', (t) => !same(t, this.prefs) && (this.prefs = t));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.#followers === 0) {
        this.#off?.();
        this.#off = null;
      }
    };
  }

  /** load reads the saved settings and the palettes once; later calls
   * share the first. A failed read leaves the defaults and may retry. */
  load(): Promise<void> {
    if (!bound('settings', 'Binding')) return Promise.resolve();
    this.#loading ??= Promise.all([settingsApi.get(), settingsApi.terminalPalettes()]).then(
      ([p, pals]) => {
        if (p.terminal) this.prefs = p.terminal;
        this.palettes = pals ?? [];
      },
      (e) => {
        this.#loading = null;
        throw e;
      },
    );
    return this.#loading;
  }

  /** save checks and saves t in Go; every open pane follows. */
  async save(t: TerminalPrefs): Promise<void> {
    const p = await settingsApi.setTerminal(t);
    this.prefs = p.terminal;
  }
}

export const terminalLook = new TerminalLook();
