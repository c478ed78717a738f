// One typed map of event names → payloads, mirroring the Go constants
// (backend/terminal/manager.go, backend/inventory/binding.go, …).
import { onRuntimeEvent } from './wails';

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
  /** The External agents list changed (a session appeared, grew or went). */
  'inventory:changed': null;
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
