// The Settings screen's Go API (backend/settings/binding.go).
import { service } from '../wails';
import type { settings } from '../wailsjs/go/models';

/** The person's preferences. */
export type Prefs = settings.Prefs;
/** How terminal panes look (Settings → Terminal). */
export type TerminalPrefs = settings.TerminalPrefs;
/** A built-in terminal colour palette. */
export type Palette = settings.Palette;
/** The Terminal screen's split (backend/settings/layout.go). */
export type LayoutPrefs = settings.LayoutPrefs;

const prefs = service('settings', 'Binding');

export const settingsApi = {
  get: () => prefs('Get'),
  setNotifications: (on: boolean) => prefs('SetNotifications', on),
  /** setTerminal saves how panes look; invalid values are refused. */
  setTerminal: (t: TerminalPrefs) => prefs('SetTerminal', t),
  terminalPalettes: () => prefs('TerminalPalettes'),
  /** setLayout saves the Terminal's split and which pane is in which slot. */
  setLayout: (l: LayoutPrefs) => prefs('SetLayout', l),
  /** setShortcuts saves the changed shortcuts (id → key, '' for off). */
  setShortcuts: (m: Record<string, string>) => prefs('SetShortcuts', m),
  /** chooseFolder opens the system folder dialog; '' when cancelled. */
  chooseFolder: (start: string) => prefs('ChooseFolder', start),
};
