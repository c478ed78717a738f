// Open/closed state of the key-icon dialog, shared by the header button
// and anything that wants to send the person to a tab (keys.show('connected')).
class KeysDialog {
  open = $state(false);
  tab = $state('');

  show(tab = '') {
    if (tab) this.tab = tab;
    this.open = true;
  }

  close() {
    this.open = false;
    // A #…?keys=<tab> link should not reopen the dialog on reload.
    const h = window.location.hash;
    const stripped = withoutKeysParam(h);
    if (stripped !== h) history.replaceState(history.state, '', stripped || '#');
  }
}

export const keys = new KeysDialog();

/** pickTab is the tab to show: the requested one if available, else the first. */
export function pickTab(requested: string, available: { id: string }[]): string {
  return available.find((t) => t.id === requested)?.id ?? available[0]?.id ?? '';
}

/** withoutKeysParam drops keys=… from a hash route's query. */
export function withoutKeysParam(hash: string): string {
  const i = hash.indexOf('?');
  if (i < 0) return hash;
  const q = new URLSearchParams(hash.slice(i + 1));
  if (!q.has('keys')) return hash;
  q.delete('keys');
  const rest = q.toString();
  return hash.slice(0, i) + (rest ? '?' + rest : '');
}
