import { call } from '../wails';

export interface PaneInfo {
  id: string;
  pid: number;
  dir: string;
  folder: string;
  argv: string[];
  foreground: string;
  title: string;
  cols: number;
  rows: number;
  exited: boolean;
  exitCode: number;
  /** Frozen by Pause until Resume. */
  paused?: boolean;
  /** Pause works for this pane on this system. */
  canPause?: boolean;
  startedAt: number;
  /** Command line of the program holding the terminal ("npm run dev"). */
  command?: string;
  /** Id of the conversation the pane's agent reported, if any. */
  session?: string;
  /** How a restore brought the pane back ("Resumed Claude Code conversation …"). */
  resumed?: string;
}

export interface CreateRequest {
  dir: string;
  command: string;
  cols: number;
  rows: number;
}

export interface Attachment {
  seq: number;
  data: string; // base64
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('terminal', 'Service', method, ...args);

export const terminalApi = {
  create: (req: CreateRequest) => svc<PaneInfo>('Create', req),
  list: () => svc<PaneInfo[]>('List'),
  /** restoreSaved starts the panes of the last session (once; after the first frame). */
  restoreSaved: () => svc<void>('RestoreSaved'),
  close: (id: string) => svc<void>('Close', id),
  pause: (id: string) => svc<void>('Pause', id),
  resume: (id: string) => svc<void>('Resume', id),
  input: (id: string, data: string) => svc<void>('Input', id, data),
  resize: (id: string, cols: number, rows: number) => svc<void>('Resize', id, cols, rows),
  /** attach returns what a new view draws; the pane sends output events until detach. */
  attach: (id: string) => svc<Attachment>('Attach', id),
  detach: (id: string) => svc<void>('Detach', id),
  screenText: (id: string) => svc<string[]>('ScreenText', id),
  defaultShell: () => svc<string>('DefaultShell'),
  /** folders lists the folders panes were started in, the last one first. */
  folders: () => svc<string[]>('Folders'),
};
