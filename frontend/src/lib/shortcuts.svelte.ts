// The keyboard shortcuts for the whole app: one listener (started by
// App.svelte) sees each key before a terminal pane does, runs the action
// the key belongs to, and leaves every other key where the focus is.
// Screens register what an action does while they are open (the Terminal:
// next pane, close pane…); App.svelte registers what it does elsewhere.
import { settingsApi } from './api/settings';
import { bound } from './wails';
import { isMac } from './sessions';
import { defaultKeys, effective, formatKey, hint, match, typingTarget, type ActionId, type Keys } from './shortcuts';

class Shortcuts {
  readonly mac = isMac();
  /** The person's changes (Settings → Keyboard): id → key, '' for off. */
  changed = $state<Record<string, string>>({});
  keys: Keys = $derived(effective(defaultKeys(this.mac), this.changed));
  /** The shortcuts sheet (`?`, the status bar's button). */
  sheetOpen = $state(false);
  /** Settings → Keyboard is recording a key: no shortcut runs meanwhile. */
  recording = false;
  #handlers = new Map<ActionId, (() => void)[]>();
  #loading: Promise<void> | null = null;

  /** start listens for keys on the whole window; returns the stop. */
  start(): () => void {
    this.load().catch(() => {});
    const onKey = (e: KeyboardEvent) => {
      if (this.recording) return;
      const id = match(e, this.keys, typingTarget(document.activeElement));
      if (!id) return;
      const fn = this.#handlers.get(id)?.at(-1);
      if (!fn) return;
      e.preventDefault();
      e.stopPropagation();
      fn();
    };
    // Capture: the focused xterm.js would otherwise take the key.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }

  /** on makes fn what action id does until the returned stop is called;
   * the latest registration wins (a screen over the app's default). */
  on(id: ActionId, fn: () => void): () => void {
    const list = this.#handlers.get(id) ?? [];
    list.push(fn);
    this.#handlers.set(id, list);
    return () => {
      const l = this.#handlers.get(id) ?? [];
      const i = l.lastIndexOf(fn);
      if (i >= 0) l.splice(i, 1);
    };
  }

  /** load reads the saved changes once; later calls share the first. */
  load(): Promise<void> {
    if (!bound('settings', 'Binding')) return Promise.resolve();
    this.#loading ??= settingsApi.get().then(
      (p) => {
        this.changed = p.shortcuts ?? {};
      },
      (e) => {
        this.#loading = null;
        throw e;
      },
    );
    return this.#loading;
  }

  /** save stores the person's changes; a refused one throws the reason. */
  async save(changed: Record<string, string>): Promise<void> {
    const p = await settingsApi.setShortcuts(changed);
    this.changed = p.shortcuts ?? {};
  }

  /** label is an action's key as shown ("Ctrl+Shift+T", "⌘T"), '' when off. */
  label(id: ActionId): string {
    return formatKey(this.keys[id], this.mac);
  }

  /** hint is a tooltip's suffix: " (Ctrl+Shift+T)", '' when off. */
  hint(id: string): string {
    return hint(this.keys[id as ActionId] ?? '', this.mac);
  }
}

export const shortcuts = new Shortcuts();
