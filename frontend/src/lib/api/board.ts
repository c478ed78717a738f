import { service, type Narrow } from '../wails';
import type { board, panestate } from '../wailsjs/go/models';

/** A board column (backend/board/board.go). */
export type Column = 'running' | 'needs_you' | 'paused' | 'idle' | 'done' | 'failed';
export type Kind = 'chat' | 'agent' | 'team' | 'loop' | 'terminal';

/** One session on the Sessions board (board.Card). */
export type BoardCard = Narrow<board.Card, { kind: Kind; state: Column }>;

/** A terminal pane's detected state (panestate.PaneState). */
export type PaneState = Narrow<panestate.PaneState, { state: 'idle' | 'working' | 'blocked' }>;

export type DropResult = board.DropResult;

const svc = service('board', 'Service');

export const boardApi = {
  /** Broken detection-rule overrides found at start (ignored; bundled rules in use). */
  ruleProblems: () => svc('RuleProblems'),
  cards: () => svc('Cards') as Promise<BoardCard[]>,
  drop: (key: string, column: Column) => svc('Drop', key, column),
  end: (key: string) => svc('End', key),
  /** pause freezes a session until resume (cards with canPause). */
  pause: (key: string) => svc('Pause', key),
  resume: (key: string) => svc('Resume', key),
  paneStates: () => svc('PaneStates') as Promise<PaneState[]>,
  /** clear takes a Done or Failed card off the board (its summary is kept). */
  clear: (key: string) => svc('Clear', key),
  /** readSummary returns a Done summary's Markdown (only files in knowledge/sessions). */
  readSummary: (path: string) => svc('ReadSummary', path),
};
