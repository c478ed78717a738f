// One typed map of event names → payloads, generated from the Go code
// (bindings_events.go) like every bound method's types.
import { onRuntimeEvent, type Narrow } from './wails';
import type { main, notes, terminal } from './wailsjs/go/models';
import type { BoardCard, PaneState } from './api/board';
import type { RunEvent } from './api/pipeline';
import type { PostedEvent } from './api/messages';
import type { Job } from './api/orchestrate';
import type { BusyPane } from './api/quit';
import type { TeamStatus } from './api/team';
import type { KeptAfterDelete } from './deletes';

/** pane:output: a batch of a pane's output, at most one per frame; data is
 * base64 (decodeBase64). */
export type PaneOutputEvent = terminal.OutputEvent;
export type PaneExitEvent = terminal.ExitEvent;
/** notes:changed: a Note committed a new version. */
export type NotesChangedEvent = notes.ChangedEvent;

/**
 * EventMap: each event's payload as the Go code emits it, generated from
 * EventPayloads (bindings_events.go, which says what each event means),
 * narrowed where a string is one of a few states.
 */
export type EventMap = Narrow<
  main.EventPayloads,
  {
    'pipeline:run': RunEvent;
    'panes:state': PaneState;
    'messages:posted': PostedEvent;
    'orchestrate:changed': Job;
    'board:changed': BoardCard[];
    'app:quit-asked': BusyPane[];
    'team:status': TeamStatus;
    'team:kept-after-delete': KeptAfterDelete;
  }
> & {
  'panes:changed': null;
  /** The External agents list changed (a session appeared, grew or went). */
  'inventory:changed': null;
};

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
