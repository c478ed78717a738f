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
  }
}

export const keys = new KeysDialog();

/** pickTab is the tab to show: the requested one if available, else the first. */
export function pickTab(requested: string, available: { id: string }[]): string {
  return available.find((t) => t.id === requested)?.id ?? available[0]?.id ?? '';
}
