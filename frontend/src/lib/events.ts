// One typed map of event names → payloads, mirroring the Go constants
// (backend/terminal/manager.go, backend/inventory/binding.go, …).
import { onRuntimeEvent } from './wails';
import type { BoardCard, PaneState } from './api/board';
import type { RunEvent, VerifyState } from './api/pipeline';
import type { ApprovalRequest } from './api/approvals';
import type { PostedEvent } from './api/messages';
import type { RecordsChangedEvent } from './api/records';
import type { Job } from './api/orchestrate';

export interface PaneOutputEvent {
  id: string;
  seq: number;
  data: string; // base64
}

export interface PaneExitEvent {
  id: string;
  code: number;
}

/** notes:changed (backend/notes/binding.go EventChanged): a Note committed a new version. */
export interface NotesChangedEvent {
  note_id: string;
  version: number;
}

export interface EventMap {
  'pane:output': PaneOutputEvent;
  'pane:exit': PaneExitEvent;
  'panes:changed': null;
  'notes:changed': NotesChangedEvent;
  /** A post was committed in a Message channel, by the person or an assistant (backend/messages EventPosted). */
  'messages:posted': PostedEvent;
  /** A Record item committed a new version, from any writer (backend/notes EventRecordsChanged). */
  'records:changed': RecordsChangedEvent;
  /** The External agents list changed (a session appeared, grew or went). */
  'inventory:changed': null;
  /** A pipeline run's progress line, partial text, session id or end (backend/pipeline EventRun). */
  'pipeline:run': RunEvent;
  /** A sign-in check started, shows a new status line, or ended (backend/pipeline EventVerify). */
  'pipeline:verify': VerifyState;
  /** Chats, runs or roles changed; payload is the chat id or "" (backend/pipeline EventChanged). */
  'pipeline:changed': string;
  /** A tool call waits for Approve / Decline (backend/approvals EventRequest). */
  'tools:approval': ApprovalRequest;
  /** An approval request was answered, cancelled or expired (backend/approvals EventDone). */
  'tools:approval-done': { id: string };
  /** A fleet, loop or graph changed: a child started, showed progress or ended (backend/orchestrate EventChanged). */
  'orchestrate:changed': Job;
  /** The Sessions board's cards after any change (backend/board EventChanged). */
  'board:changed': BoardCard[];
  /** One pane's detected state changed (backend/panestate EventState). */
  'panes:state': PaneState;
  /** A desktop notification for this pane id was clicked. */
  'panes:focus': string;
  /** A message for a notice over any screen (app.go eventNotice), e.g. a link that opened nothing. */
  'app:notice': { title: string; text: string };
  /** A window route to show, e.g. "/chat?chat=<id>": a chat's or run's desktop notification was clicked (app.go eventOpen). */
  'app:open': string;
}

export function on<K extends keyof EventMap>(name: K, cb: (payload: EventMap[K]) => void): () => void {
  return onRuntimeEvent(name, cb);
}

/** decodeBase64 turns a Go []byte (base64 in JSON) into bytes. */
export function decodeBase64(s: string): Uint8Array {
  const bin = atob(s ?? '');
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
