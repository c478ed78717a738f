// Highlighting runs one block at a time in its own task, in the order the
// blocks asked (top first), so the diff is drawn and scrolls while the
// colours arrive.
const queue: { run: () => void; live: boolean }[] = [];
let scheduled = false;

function drain() {
  scheduled = false;
  const start = performance.now();
  while (queue.length && performance.now() - start < 12) {
    const job = queue.shift()!;
    if (job.live) job.run();
  }
  if (queue.length) schedule();
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  setTimeout(drain, 0);
}

/** highlightLater runs fn soon; the returned function cancels it. */
export function highlightLater(fn: () => void): () => void {
  const job = { run: fn, live: true };
  queue.push(job);
  schedule();
  return () => (job.live = false);
}
