import { call, type Narrow } from '../wails';
import type { panestate } from '../wailsjs/go/models';

/** A pane quitting would cut short: what is the agent's name ("Claude Code")
 * or the running command ("npm run dev"), agent says which; name is the
 * name the person gave the pane, absent when not renamed. */
export type BusyPane = Narrow<panestate.BusyPane, { state: 'working' | 'blocked' }>;

/** The window's quit question (backend/quitask Guard). */
export const quitApi = {
  /** Ctrl+Q: the same close request as the window's ✕. */
  quit: () => call('quitask', 'Guard', 'Quit') as Promise<void>,
  /** "Quit anyway": quits without asking again. */
  quitAnyway: () => call('quitask', 'Guard', 'QuitAnyway') as Promise<void>,
};
