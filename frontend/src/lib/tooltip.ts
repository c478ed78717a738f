// One small tooltip for the whole app, instead of native title= tooltips:
// those linger after a click, sit over the menu the click opened, and can
// hang outside the window. This one (use:tip={'text'}) shows after a short
// hover or on keyboard focus, hides on click, Escape, scroll, resize,
// route change, a drag and a dialog opening over it, and is placed inside
// the window.
import type { Action } from 'svelte/action';

const SHOW_MS = 450;
/** Moving from one tipped element to the next shows the next at once, as native tooltips do. */
const WARM_MS = 400;
const MARGIN = 6;
const GAP = 6;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type Side = 'below' | 'right';

/** TipParam is the tooltip text, or the text and the side it prefers (a sidebar's icons: right). */
export type TipParam = string | undefined | null | { text: string | undefined | null; side?: Side };

/** place puts a tip of size tip next to anchor: below it (above when there is no room below), or to its right (left when no room); always inside the viewport. */
export function place(
  anchor: Box,
  tip: { width: number; height: number },
  view: { width: number; height: number },
  side: Side = 'below',
): { left: number; top: number } {
  if (side === 'right') {
    let left = anchor.left + anchor.width + GAP;
    if (left + tip.width > view.width - MARGIN) left = anchor.left - GAP - tip.width;
    left = Math.max(MARGIN, Math.min(left, view.width - MARGIN - tip.width));
    let top = anchor.top + anchor.height / 2 - tip.height / 2;
    top = Math.max(MARGIN, Math.min(top, view.height - MARGIN - tip.height));
    return { left: Math.round(left), top: Math.round(top) };
  }
  let top = anchor.top + anchor.height + GAP;
  if (top + tip.height > view.height - MARGIN) top = anchor.top - GAP - tip.height;
  top = Math.max(MARGIN, Math.min(top, view.height - MARGIN - tip.height));
  let left = anchor.left + anchor.width / 2 - tip.width / 2;
  left = Math.max(MARGIN, Math.min(left, view.width - MARGIN - tip.width));
  return { left: Math.round(left), top: Math.round(top) };
}

let el: HTMLDivElement | null = null;
let owner: HTMLElement | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let pending: HTMLElement | null = null;
let lastHidden = 0;

function tipElement(): HTMLDivElement {
  if (el?.isConnected) return el;
  el = document.createElement('div');
  el.className = 'app-tooltip';
  el.id = 'app-tooltip';
  el.setAttribute('role', 'tooltip');
  el.hidden = true;
  el.style.cssText =
    'position:fixed;z-index:1000;max-width:min(340px,calc(100vw - 12px));padding:5px 8px;border-radius:6px;' +
    'background:#2c2c33;color:#e4e4e7;border:1px solid #3f3f46;box-shadow:0 6px 18px rgba(0,0,0,.45);' +
    'font:12px/1.4 system-ui,sans-serif;white-space:pre-line;overflow-wrap:anywhere;pointer-events:none;';
  document.body.append(el);
  return el;
}

/** MODAL finds the dialogs that sit over the window (the app's and a native <dialog>). */
const MODAL = '[role="dialog"], [role="alertdialog"], [aria-modal="true"], dialog[open]';

/** covered: a dialog is open and target is not in it (a tip there would float over the dialog). */
export function covered(target: Element, doc: ParentNode = document): boolean {
  return [...doc.querySelectorAll(MODAL)].some((d) => !d.contains(target));
}

// While a tip shows or waits to: a dialog that opens over its element hides it.
let watcher: MutationObserver | undefined;

function watch(on: boolean) {
  if (!on) {
    watcher?.disconnect();
    window.removeEventListener('dragstart', hide, true);
    return;
  }
  window.addEventListener('dragstart', hide, true);
  watcher ??= new MutationObserver(() => {
    const t = owner ?? pending;
    if (t && (!t.isConnected || covered(t))) hide();
  });
  watcher.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['open', 'role', 'aria-modal'] });
}

function show(target: HTMLElement) {
  const text = target.dataset.tip ?? '';
  if (!text || !target.isConnected || covered(target)) return;
  // A tip that repeats the element's own text only helps when that text is cut off.
  if (text === target.textContent?.trim() && target.scrollWidth <= target.clientWidth) return;
  const t = tipElement();
  owner = target;
  t.textContent = text;
  t.hidden = false;
  t.style.left = '0px';
  t.style.top = '0px';
  const r = target.getBoundingClientRect();
  const size = t.getBoundingClientRect();
  const p = place(r, size, { width: window.innerWidth, height: window.innerHeight }, target.dataset.tipSide === 'right' ? 'right' : 'below');
  t.style.left = p.left + 'px';
  t.style.top = p.top + 'px';
  // Added to, not replacing, what the element is described by already.
  const ids = (target.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((x) => x && x !== t.id);
  target.setAttribute('aria-describedby', [...ids, t.id].join(' '));
  watch(true);
  window.addEventListener('hashchange', hide);
  window.addEventListener('scroll', hide, true);
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('blur', hide);
  window.addEventListener('resize', hide);
}

/** hide removes the tooltip now (a click, a route change, Escape). */
export function hide() {
  clearTimeout(timer);
  timer = undefined;
  pending = null;
  watch(false);
  if (!owner) return;
  const ids = (owner.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((x) => x && x !== 'app-tooltip');
  if (ids.length) owner.setAttribute('aria-describedby', ids.join(' '));
  else owner.removeAttribute('aria-describedby');
  owner = null;
  lastHidden = Date.now();
  if (el) el.hidden = true;
  window.removeEventListener('hashchange', hide);
  window.removeEventListener('scroll', hide, true);
  window.removeEventListener('keydown', onKey, true);
  window.removeEventListener('blur', hide);
  window.removeEventListener('resize', hide);
}

function onKey(e: KeyboardEvent) {
  if (e.key === 'Escape') hide();
}

function schedule(target: HTMLElement) {
  clearTimeout(timer);
  if (owner && owner !== target) hide();
  const warm = Date.now() - lastHidden < WARM_MS;
  pending = target;
  watch(true);
  timer = setTimeout(() => {
    pending = null;
    show(target);
  }, warm ? 0 : SHOW_MS);
}

/** tip shows text as this element's tooltip; an element with no name of its own (an icon button) also gets it as its aria-label. */
export const tip: Action<HTMLElement, TipParam> = (node, param) => {
  // After a click the tip stays away until the pointer leaves and comes back.
  let clicked = false;
  let named = false;
  const set = (p: TipParam) => {
    const v = ((typeof p === 'object' && p ? p.text : p) ?? '').trim();
    if (typeof p === 'object' && p?.side) node.dataset.tipSide = p.side;
    if (v) node.dataset.tip = v;
    else delete node.dataset.tip;
    if (named || (!node.hasAttribute('aria-label') && !node.textContent?.trim() && !node.hasAttribute('aria-labelledby'))) {
      named = true;
      if (v) node.setAttribute('aria-label', v);
      else node.removeAttribute('aria-label');
    }
    if (owner === node) {
      if (v) show(node);
      else hide();
    }
  };
  set(param);
  const enter = () => !clicked && node.dataset.tip && schedule(node);
  const leave = () => {
    clicked = false;
    if (owner === node || pending === node) hide();
  };
  const down = () => {
    clicked = true;
    hide();
  };
  const focus = () => node.matches(':focus-visible') && node.dataset.tip && schedule(node);
  node.addEventListener('pointerenter', enter);
  node.addEventListener('pointerleave', leave);
  node.addEventListener('pointerdown', down);
  node.addEventListener('click', down);
  node.addEventListener('focus', focus);
  node.addEventListener('blur', leave);
  return {
    update: set,
    destroy() {
      if (owner === node || pending === node) hide();
      node.removeEventListener('pointerenter', enter);
      node.removeEventListener('pointerleave', leave);
      node.removeEventListener('pointerdown', down);
      node.removeEventListener('click', down);
      node.removeEventListener('focus', focus);
      node.removeEventListener('blur', leave);
    },
  };
};
