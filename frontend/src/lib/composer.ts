// One rule for every box that sends what is typed (Chat, Agents, Messages):
// Enter sends, Shift+Enter starts a new line, and the hint under the box
// says so in these words.

/** SEND_HINT is the line under every composer. */
export const SEND_HINT = 'Enter to send · Shift+Enter for a new line';

/** sendsOnEnter says whether a key press sends: Enter (Ctrl/⌘+Enter too), not
 * Shift+Enter, not Alt+Enter, and not while an input method is composing a
 * character (Enter there picks the character). */
export function sendsOnEnter(e: { key: string; shiftKey: boolean; altKey: boolean; isComposing?: boolean; keyCode?: number }): boolean {
  // keyCode 229: WebKit's keydown during composition, where isComposing can be false.
  return e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.isComposing && e.keyCode !== 229;
}
