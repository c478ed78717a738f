// What is typed into a pane view, sent to its pane in the order typed.
//
// Each binding call is served on its own goroutine in Go, so two calls in
// flight can reach the PTY the other way round ("brown" arrived as
// "bnrow"). A view therefore keeps one call in flight and gathers what is
// typed meanwhile into the next call. That alone orders one view's input;
// each call also carries the view's name and a number from 1, which the
// pane uses to write in order anyway (backend/terminal/input.go), so a
// second view of the same pane, or one started after a reload, cannot be
// mixed into this view's chunks. Gathering also means a burst costs the web
// view a call per round trip instead of one per key.

/** SendChunk delivers chunk seq (from 1) of view's typing to pane id. */
export type SendChunk = (id: string, view: string, seq: number, data: string) => Promise<void>;
/** SendSize tells pane id its new size. */
export type SendSize = (id: string, cols: number, rows: number) => Promise<void>;

// What a view sends, in order: typing, or the size its program is told.
// The size goes through the same queue as the keys for the same reason:
// a Resize call in flight beside a Type call could land after it, and a
// program that read its size right after a layout change (`stty size`, a
// TUI's first frame) got the old one.
type Op = { data: string } | { cols: number; rows: number };

const views = new Map<string, Set<PaneInput>>();

export class PaneInput {
  readonly view = newViewName();
  private seq = 0;
  private ops: Op[] = [];
  private inFlight = false;
  private waiting: { seq: number; resolve: () => void }[] = [];
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly send: SendChunk,
    private readonly onError: (e: unknown) => void = () => {},
    private readonly sendSize: SendSize = async () => {},
  ) {
    let set = views.get(id);
    if (!set) views.set(id, (set = new Set()));
    set.add(this);
  }

  /** type queues data after everything typed before it. */
  type(data: string) {
    if (data === '' || this.disposed) return;
    const last = this.ops.at(-1);
    if (last && 'data' in last) last.data += data;
    else this.ops.push({ data });
    if (!this.inFlight) this.next();
  }

  /** resize queues the pane's new size after what was typed before it; a
   * size asked for while another waits replaces it. */
  resize(cols: number, rows: number) {
    if (this.disposed) return;
    const last = this.ops.at(-1);
    if (last && 'cols' in last) this.ops.pop();
    this.ops.push({ cols, rows });
    if (!this.inFlight) this.next();
  }

  /** settled resolves once everything typed so far has reached the pane
   * (or was refused): what the person does next acts after it. */
  settled(): Promise<void> {
    const seq = this.seq + this.ops.filter((op) => 'data' in op).length;
    if (!this.inFlight && this.ops.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ seq, resolve }));
  }

  /** dispose stops taking keys; what was typed before is still sent. */
  dispose() {
    this.disposed = true;
    if (!this.inFlight) this.forget();
  }

  // next sends the first op once the one before it has answered: every
  // chunk up to this.seq has then reached the pane.
  private next() {
    this.waiting = this.waiting.filter((w) => (w.seq <= this.seq ? (w.resolve(), false) : true));
    const op = this.ops.shift();
    if (!op) {
      this.inFlight = false;
      if (this.disposed) this.forget();
      return;
    }
    if ('cols' in op) {
      this.inFlight = true;
      // A refused size (the pane closed) is dropped like refused typing.
      this.sendSize(this.id, op.cols, op.rows)
        .catch(() => {})
        .then(() => this.next());
      return;
    }
    this.inFlight = true;
    this.send(this.id, this.view, ++this.seq, op.data)
      .catch((e) => this.onError(e))
      .then(() => this.next());
  }

  private forget() {
    const set = views.get(this.id);
    set?.delete(this);
    if (set?.size === 0) views.delete(this.id);
  }
}

/** inputSettled resolves once what every view has typed into pane id so far
 * has reached it: a click that closes, pauses or resizes the pane acts
 * after the keys typed before it. */
export function inputSettled(id: string): Promise<void> {
  const set = views.get(id);
  if (!set) return Promise.resolve();
  return Promise.all([...set].map((v) => v.settled())).then(() => {});
}

function newViewName(): string {
  const b = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
