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

const views = new Map<string, Set<PaneInput>>();

export class PaneInput {
  readonly view = newViewName();
  private seq = 0;
  private pending = '';
  private inFlight = false;
  private waiting: { seq: number; resolve: () => void }[] = [];
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly send: SendChunk,
    private readonly onError: (e: unknown) => void = () => {},
  ) {
    let set = views.get(id);
    if (!set) views.set(id, (set = new Set()));
    set.add(this);
  }

  /** type queues data after everything typed before it. */
  type(data: string) {
    if (data === '' || this.disposed) return;
    this.pending += data;
    if (!this.inFlight) this.next();
  }

  /** settled resolves once everything typed so far has reached the pane
   * (or was refused): what the person does next acts after it. */
  settled(): Promise<void> {
    const seq = this.pending ? this.seq + 1 : this.seq;
    if (!this.inFlight && !this.pending) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ seq, resolve }));
  }

  /** dispose stops taking keys; what was typed before is still sent. */
  dispose() {
    this.disposed = true;
    if (!this.inFlight) this.forget();
  }

  private next() {
    const data = this.pending;
    this.pending = '';
    const seq = ++this.seq;
    this.inFlight = true;
    this.send(this.id, this.view, seq, data)
      .catch((e) => this.onError(e))
      .then(() => {
        this.inFlight = false;
        this.waiting = this.waiting.filter((w) => (w.seq <= seq ? (w.resolve(), false) : true));
        if (this.pending) this.next();
        else if (this.disposed) this.forget();
      });
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
