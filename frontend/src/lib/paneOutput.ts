// Pane output routed by pane id: one runtime listener for every pane view,
// so an event reaches only its own pane's view (not each view in turn),
// and a pane view delivered in order: the attach replay, then live output.
import { decodeBase64, on, type PaneOutputEvent } from './events';
import { terminalApi } from './api/terminal';

type Handler = (ev: PaneOutputEvent) => void;

const handlers = new Map<string, Set<Handler>>();
let offRuntime: (() => void) | null = null;

function dispatch(ev: PaneOutputEvent) {
  const hs = handlers.get(ev?.id);
  if (hs) for (const h of hs) h(ev);
}

/** onPaneOutput subscribes to one pane's output events; returns the stop
 * function. The runtime listener exists only while some pane listens. */
export function onPaneOutput(id: string, cb: Handler): () => void {
  let hs = handlers.get(id);
  if (!hs) handlers.set(id, (hs = new Set()));
  hs.add(cb);
  if (!offRuntime) offRuntime = on('pane:output', dispatch);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    hs.delete(cb);
    if (hs.size === 0) handlers.delete(id);
    if (handlers.size === 0 && offRuntime) {
      offRuntime();
      offRuntime = null;
    }
  };
}

/** paneListeners is how many panes have a listener (tests, diagnostics). */
export function paneListeners(): number {
  return handlers.size;
}

/** Live output that arrives before the attach replay is held, up to this
 * many bytes (the newest kept); the replay covers what came before it. */
export const earlyLimit = 1 << 20;

/** restoredBlock is how a view draws a pane's output from the last
 * session: the text, the terminal's state reset, then as many line feeds
 * as the view has rows, which move every line of it into the scrollback
 * (however tall the view), so the pane's own replay starts on a blank
 * screen at the top, where the pane's emulator has it. Resetting the
 * scroll region homes the cursor: it is saved and restored around that. */
export function restoredBlock(restored: Uint8Array, rows: number): Uint8Array {
  const tail = new TextEncoder().encode('\x1b[0m\x1b7\x1b[r\x1b8' + '\r\n'.repeat(Math.max(1, rows)) + '\x1b[H');
  const out = new Uint8Array(restored.length + tail.length);
  out.set(restored);
  out.set(tail, restored.length);
  return out;
}

/** feedPane writes a pane's attach replay (after its output restored from
 * the last session, if any; rows is the view's height then), then its live
 * output newer than the replay, to write. When attach fails, onError gets
 * the message and nothing more is held or delivered. Returns the stop
 * function, which detaches the view. */
export function feedPane(id: string, write: (data: Uint8Array) => void, onError: (message: string) => void, rows: () => number = () => 24): () => void {
  let attachedSeq = -1;
  let stopped = false;
  let early: { seq: number; data: Uint8Array }[] = [];
  let earlyBytes = 0;
  const off = onPaneOutput(id, (ev) => {
    const data = decodeBase64(ev.data);
    if (attachedSeq >= 0) {
      if (ev.seq > attachedSeq) write(data);
      return;
    }
    early.push({ seq: ev.seq, data });
    earlyBytes += data.length;
    while (earlyBytes > earlyLimit && early.length > 1) earlyBytes -= early.shift()!.data.length;
  });
  // The pane sends output events only while a view is attached (Go counts
  // Attach and Detach): a view that stops detaches once its attach counted.
  let counted = false;
  const detach = () => {
    if (!counted) return;
    counted = false;
    terminalApi.detach(id).catch(() => {});
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    early = [];
    earlyBytes = 0;
    off();
    detach();
  };
  terminalApi.attach(id).then(
    (a) => {
      counted = true;
      if (stopped) {
        detach();
        return;
      }
      if (a.restored) write(restoredBlock(decodeBase64(a.restored), rows()));
      write(decodeBase64(a.data));
      attachedSeq = a.seq;
      for (const e of early) if (e.seq > a.seq) write(e.data);
      early = [];
      earlyBytes = 0;
    },
    (e) => {
      if (stopped) return;
      stop();
      onError(`This pane's output could not be shown: ${e instanceof Error ? e.message : String(e)}. Close the pane or restart osFoundry.`);
    },
  );
  return stop;
}
