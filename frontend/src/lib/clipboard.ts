// Copying text: the window's clipboard (Wails runtime) first, the browser's
// (dev build, tests) otherwise.

/** copyText puts text on the clipboard, or throws saying why it could not. */
export async function copyText(text: string): Promise<void> {
  const ok = window.runtime?.ClipboardSetText ? await window.runtime.ClipboardSetText(text).catch(() => false) : false;
  if (!ok) await navigator.clipboard.writeText(text);
}
