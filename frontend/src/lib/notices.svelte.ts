// Short messages shown over any screen (the Sign in hint, …). A notice stays
// until the person closes it: a hint such as "Type /login to sign in, then
// close this window." must not vanish before it was read.
export interface Notice {
  id: number;
  title: string;
  text: string;
}

class Notices {
  items = $state<Notice[]>([]);
  #next = 1;

  show(text: string, title = '') {
    this.items = [...this.items.filter((n) => n.text !== text), { id: this.#next++, title, text }];
  }

  dismiss(id: number) {
    this.items = this.items.filter((n) => n.id !== id);
  }
}

export const notices = new Notices();
