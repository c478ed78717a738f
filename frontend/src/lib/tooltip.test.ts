import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hide, place, tip } from './tooltip';

const view = { width: 1000, height: 700 };

describe('place', () => {
  it.each([
    { name: 'below, centred', anchor: { left: 400, top: 100, width: 100, height: 30 }, want: { left: 390, top: 136 } },
    { name: 'clamped at the right edge', anchor: { left: 960, top: 100, width: 30, height: 30 }, want: { left: 874, top: 136 } },
    { name: 'clamped at the left edge', anchor: { left: 0, top: 100, width: 20, height: 30 }, want: { left: 6, top: 136 } },
    { name: 'above when no room below', anchor: { left: 400, top: 670, width: 100, height: 24 }, want: { left: 390, top: 624 } },
  ])('$name', ({ anchor, want }) => {
    const p = place(anchor, { width: 120, height: 40 }, view);
    expect(p).toEqual(want);
    expect(p.left).toBeGreaterThanOrEqual(0);
    expect(p.left + 120).toBeLessThanOrEqual(view.width);
  });
});

describe('place to the right', () => {
  it('sits right of a sidebar icon, centred, and flips left at the edge', () => {
    expect(place({ left: 0, top: 100, width: 48, height: 40 }, { width: 80, height: 24 }, view, 'right')).toEqual({ left: 54, top: 108 });
    expect(place({ left: 950, top: 690, width: 48, height: 10 }, { width: 80, height: 24 }, view, 'right')).toEqual({ left: 864, top: 670 });
  });
});

describe('tip', () => {
  let btn: HTMLButtonElement;
  let action: ReturnType<typeof tip>;
  const tooltip = () => document.querySelector<HTMLElement>('[role=tooltip]');
  const visible = () => !!tooltip() && !tooltip()!.hidden;

  beforeEach(() => {
    vi.useFakeTimers();
    btn = document.createElement('button');
    document.body.append(btn);
    action = tip(btn, 'Copy the address');
  });
  afterEach(() => {
    hide();
    if (action && typeof action === 'object') action.destroy?.();
    btn.remove();
    vi.advanceTimersByTime(1000);
    vi.useRealTimers();
  });

  it('shows after a hover and names an icon button', () => {
    expect(btn.getAttribute('aria-label')).toBe('Copy the address');
    btn.dispatchEvent(new Event('pointerenter'));
    expect(visible()).toBe(false);
    vi.advanceTimersByTime(500);
    expect(visible()).toBe(true);
    expect(tooltip()!.textContent).toBe('Copy the address');
    expect(btn.getAttribute('aria-describedby')).toBe(tooltip()!.id);
  });

  it('hides on click and stays away until the pointer comes back', () => {
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    btn.dispatchEvent(new Event('pointerdown'));
    expect(visible()).toBe(false);
    vi.advanceTimersByTime(2000);
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(2000);
    expect(visible()).toBe(false);
    btn.dispatchEvent(new Event('pointerleave'));
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    expect(visible()).toBe(true);
  });

  it('hides on a route change and on Escape', () => {
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    window.dispatchEvent(new Event('hashchange'));
    expect(visible()).toBe(false);
    btn.dispatchEvent(new Event('pointerleave'));
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    expect(visible()).toBe(true);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(visible()).toBe(false);
  });

  it('keeps what the element is described by already', () => {
    btn.setAttribute('aria-describedby', 'what-1');
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    expect(btn.getAttribute('aria-describedby')).toBe('what-1 app-tooltip');
    hide();
    expect(btn.getAttribute('aria-describedby')).toBe('what-1');
  });

  it('hides when a dialog opens over it', async () => {
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    expect(visible()).toBe(true);
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'alertdialog');
    document.body.append(dialog);
    await Promise.resolve(); // the MutationObserver's callback
    expect(visible()).toBe(false);
    // and does not come back while the dialog is open
    btn.dispatchEvent(new Event('pointerleave'));
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(2000);
    expect(visible()).toBe(false);
    dialog.remove();
  });

  it('still shows for an element inside the open dialog', () => {
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.append(btn);
    document.body.append(dialog);
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    expect(visible()).toBe(true);
    dialog.remove();
  });

  it('never shows during a drag (no pointer leaves while one goes on)', () => {
    btn.dispatchEvent(new Event('pointerenter'));
    window.dispatchEvent(new Event('dragstart'));
    vi.advanceTimersByTime(2000);
    expect(visible()).toBe(false);
  });

  it('hides when the window is resized (it would sit in the wrong place)', () => {
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(500);
    expect(visible()).toBe(true);
    window.dispatchEvent(new Event('resize'));
    expect(visible()).toBe(false);
  });

  it('does not show when the pointer leaves before the delay', () => {
    btn.dispatchEvent(new Event('pointerenter'));
    vi.advanceTimersByTime(200);
    btn.dispatchEvent(new Event('pointerleave'));
    vi.advanceTimersByTime(1000);
    expect(visible()).toBe(false);
  });

  it('keeps the label of a button with text and follows new text', () => {
    const named = document.createElement('button');
    named.textContent = 'Save';
    document.body.append(named);
    const a = tip(named, 'Save (Ctrl+S)');
    expect(named.hasAttribute('aria-label')).toBe(false);
    expect(named.dataset.tip).toBe('Save (Ctrl+S)');
    if (a && typeof a === 'object') a.update?.('Save now');
    expect(named.dataset.tip).toBe('Save now');
    named.remove();
  });
});
