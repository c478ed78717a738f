import { afterEach, describe, expect, it } from 'vitest';
import { PaneInput, inputSettled } from './paneInput';
import { terminalApi } from './api/terminal';

// A fake pane behind the binding the way Wails serves it: every call runs
// on its own (here: ends after its own random delay) and writes its data
// when it ends, so two calls in flight can land the other way round.
function racingPane() {
  const written: string[] = [];
  const calls: { view: string; seq: number; data: string }[] = [];
  let inFlight = 0;
  let most = 0;
  const send = (id: string, view: string, seq: number, data: string) => {
    calls.push({ view, seq, data });
    inFlight++;
    most = Math.max(most, inFlight);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        written.push(data);
        inFlight--;
        resolve();
      }, Math.random() * 5),
    );
  };
  return { send, written, calls, most: () => most };
}

const typeSlowly = async (input: PaneInput, text: string) => {
  for (const ch of text) {
    input.type(ch);
    if (Math.random() < 0.5) await new Promise((r) => setTimeout(r, Math.random() * 2));
  }
};

afterEach(() => {
  delete (window as any).go;
});

describe('PaneInput', () => {
  it('delivers a burst in the order typed, one numbered call at a time, gathering keys typed meanwhile', async () => {
    const pane = racingPane();
    const input = new PaneInput('p-1', pane.send);
    const text = 'the quick brown fox jumps over the lazy dog\r'.repeat(6);
    await typeSlowly(input, text);
    await input.settled();
    expect(pane.written.join('')).toBe(text);
    expect(pane.most()).toBe(1);
    expect(pane.calls.map((c) => c.seq)).toEqual(pane.calls.map((_, i) => i + 1));
    expect(pane.calls.length).toBeLessThan(text.length); // keys typed during a call went out together
    expect(new Set(pane.calls.map((c) => c.view))).toEqual(new Set([input.view]));
    input.dispose();
  });

  it('names each view apart, so a view opened after a reload numbers from 1 on its own', async () => {
    const pane = racingPane();
    const a = new PaneInput('p-1', pane.send);
    a.type('a');
    await a.settled();
    a.dispose();
    const b = new PaneInput('p-1', pane.send);
    b.type('b');
    await b.settled();
    b.dispose();
    expect(pane.calls).toEqual([
      { view: a.view, seq: 1, data: 'a' },
      { view: b.view, seq: 1, data: 'b' },
    ]);
    expect(a.view).not.toBe(b.view);
  });

  it('still sends what was typed before the view closed', async () => {
    const pane = racingPane();
    const input = new PaneInput('p-1', pane.send);
    input.type('ex');
    input.type('it\r');
    input.dispose();
    input.type('ignored');
    await inputSettled('p-1');
    expect(pane.written.join('')).toBe('exit\r');
  });

  it('tells the pane its size between the keys typed before and after it, the newest size of a burst only', async () => {
    // Type and Resize land when their own random delay ends, as two
    // calls in flight in Go would.
    const log: string[] = [];
    let inFlight = 0;
    let most = 0;
    const late = (entry: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise<void>((resolve) => setTimeout(() => (log.push(entry), inFlight--, resolve()), Math.random() * 5));
    };
    const input = new PaneInput('p-1', (_id, _view, _seq, data) => late(data), undefined, (_id, c, r) => late(`${c}x${r}`));
    input.type('stty size');
    for (let c = 30; c <= 40; c++) input.resize(c, 24);
    input.type('\r');
    input.resize(80, 24);
    await input.settled();
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['stty size', '40x24', '\r', '80x24']);
    expect(most).toBe(1);
    input.dispose();
  });

  it('goes on after a refused chunk and reports it', async () => {
    const errors: unknown[] = [];
    const sent: string[] = [];
    const input = new PaneInput('p-1', async (_id, _view, seq, data) => {
      if (seq === 1) throw new Error('pane is closed');
      sent.push(data);
    }, (e) => errors.push(e));
    input.type('a');
    input.type('b');
    await input.settled();
    expect(sent).toEqual(['b']);
    expect(errors.map(String)).toEqual(['Error: pane is closed']);
    input.dispose();
  });
});

describe('actions on a pane after typing', () => {
  it('Close and Pause reach the pane after the keys typed before the click', async () => {
    const log: string[] = [];
    const pending: (() => void)[] = [];
    (window as any).go = {
      terminal: {
        Service: {
          // The keys' call is slow: the click's call must not overtake it.
          Type: (_id: string, _view: string, _seq: number, data: string) =>
            new Promise<void>((resolve) => pending.push(() => (log.push(`type ${JSON.stringify(data)}`), resolve()))),
          Close: async () => void log.push('close'),
          Pause: async () => void log.push('pause'),
        },
      },
    };
    const input = new PaneInput('p-1', terminalApi.type);
    input.type('make test');
    const actions = terminalApi.pause('p-1');
    input.type('\r');
    const close = terminalApi.close('p-1');
    await new Promise((r) => setTimeout(r, 10));
    expect(log).toEqual([]);
    while (pending.length) {
      pending.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
    await actions;
    await close;
    expect(log).toEqual(['type "make test"', 'pause', 'type "\\r"', 'close']);
    input.dispose();
  });
});
