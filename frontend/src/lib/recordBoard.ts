// The Records board's moves, apart from the screen: which status a card
// goes to from the keyboard, and what a drop means. A move is always the
// versioned write (RecordsState.move), so these only decide where to.

/** MOVE_KEYS is what the board's cards answer to (also their aria-keyshortcuts). */
export const MOVE_KEYS = 'Alt+ArrowLeft Alt+ArrowRight';

/** MOVE_HINT is the cards' tooltip: the pointer's way and the keyboard's. */
export const MOVE_HINT = 'Drag to another status, or press Alt+← / Alt+→';

/** DRAG_TYPE carries a card's item id from the board to a column. */
export const DRAG_TYPE = 'application/x-osfoundry-record';

/** moveKey is the step a key asks for: -1 (Alt+←), +1 (Alt+→) or 0 (not a move). */
export function moveKey(e: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }): -1 | 0 | 1 {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return 0;
  if (e.key === 'ArrowLeft') return -1;
  if (e.key === 'ArrowRight') return 1;
  return 0;
}

/** stepStatus is the status next to current in the board's order, or null
 * at either end (a card does not wrap around) and when current is not on the board. */
export function stepStatus(columns: string[], current: string, step: -1 | 0 | 1): string | null {
  const i = columns.indexOf(current);
  if (i < 0 || step === 0) return null;
  return columns[i + step] ?? null;
}
