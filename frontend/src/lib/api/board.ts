import { call } from '../wails';

/** A board column (backend/board/board.go). */
export type Column = 'running' | 'needs_you' | 'paused' | 'idle' | 'done' | 'failed';
export type Kind = 'chat' | 'agent' | 'team' | 'loop' | 'terminal';

/** One session on the Sessions board (board.Card). */
export interface BoardCard {
  key: string;
  source: string;
  id: string;
  kind: Kind;
  title: string;
  folder: string;
  dir?: string;
  state: Column;
  why: string;
  reason?: string;
  startedAt: number;
  updatedAt: number;
  link?: string;
  /** Pause works for this session (terminal panes where freezing is supported). */
  canPause: boolean;
  /** The Done summary's path, once the user ended the session here. */
  summary?: string;
  /** A Team's or Loop's runs, and how many of them are done. */
  children?: number;
  childrenDone?: number;
}

/** A terminal pane's detected state (panestate.PaneState). */
export interface PaneState {
  id: string;
  label: string;
  state: 'idle' | 'working' | 'blocked';
  agent: string;
  /** The agent's display name ("Claude Code"), "" when none. */
  agentName?: string;
  /** The program in front of the shell of a pane without an agent. */
  command?: string;
  source: string;
  reason: string;
  message: string;
  ended: boolean;
  /** The user froze the pane; state is what it was doing then, not live. */
  paused?: boolean;
  since: number;
}

export interface DropResult {
  allowed: boolean;
  message: string;
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('board', 'Service', method, ...args);

export const boardApi = {
  /** Broken detection-rule overrides found at start (ignored; bundled rules in use). */
  ruleProblems: () => svc<string[]>('RuleProblems'),
  cards: () => svc<BoardCard[]>('Cards'),
  drop: (key: string, column: Column) => svc<DropResult>('Drop', key, column),
  end: (key: string) => svc<string>('End', key),
  /** pause freezes a session until resume (cards with canPause). */
  pause: (key: string) => svc<void>('Pause', key),
  resume: (key: string) => svc<void>('Resume', key),
  paneStates: () => svc<PaneState[]>('PaneStates'),
  /** clear takes a Done or Failed card off the board (its summary is kept). */
  clear: (key: string) => svc<void>('Clear', key),
  /** readSummary returns a Done summary's Markdown (only files in knowledge/sessions). */
  readSummary: (path: string) => svc<string>('ReadSummary', path),
};
