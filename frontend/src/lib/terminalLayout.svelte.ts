// The Terminal screen's split, kept for the whole app (the screen is
// rebuilt each time it is opened) and saved in the app's settings, so the
// layout and which pane is in which slot come back at the next start.
import { settingsApi } from './api/settings';
import { bound } from './wails';
import { defaultLayout, fromSaved, sameLayout, type Layout } from './terminalLayout';

// Before the split existed the selected pane was kept here; it seeds the
// first slot once.
const legacySelectedKey = 'osfoundry.terminal.selected';

function legacySelected(): string {
  try {
    const id = localStorage.getItem(legacySelectedKey) ?? '';
    localStorage.removeItem(legacySelectedKey);
    return id;
  } catch {
    return '';
  }
}

class TerminalLayout {
  layout = $state<Layout>(defaultLayout());
  /** Why the last save failed, shown on the Terminal screen. */
  error = $state('');
  #loading: Promise<void> | null = null;
  #saving = false;
  #pending = false;

  /** load reads the saved layout once; later calls share the first. */
  load(): Promise<void> {
    this.#loading ??= (async () => {
      const seed = legacySelected();
      if (!bound('settings', 'Binding')) {
        if (seed) this.layout = { ...this.layout, slots: [seed] };
        return;
      }
      try {
        const p = await settingsApi.get();
        const l = fromSaved(p.layout);
        this.layout = l.slots.some(Boolean) || !seed ? l : { ...l, slots: [seed] };
      } catch {
        // The defaults: one pane at a time.
      }
    })();
    return this.#loading;
  }

  /** set shows next and saves it; the same layout again saves nothing. */
  set(next: Layout) {
    if (sameLayout(this.layout, next)) return;
    this.layout = next;
    this.#save();
  }

  /** One save in flight; changes meanwhile are saved after it, the latest. */
  async #save() {
    if (!bound('settings', 'Binding')) return;
    if (this.#saving) {
      this.#pending = true;
      return;
    }
    this.#saving = true;
    try {
      do {
        this.#pending = false;
        const l = $state.snapshot(this.layout);
        try {
          await settingsApi.setLayout({ kind: l.kind, slots: l.slots, split: l.split, focus: l.focus });
          this.error = '';
        } catch (e) {
          this.error = `The layout could not be saved: ${e instanceof Error ? e.message : e}`;
        }
      } while (this.#pending);
    } finally {
      this.#saving = false;
    }
  }
}

export const terminalLayout = new TerminalLayout();
