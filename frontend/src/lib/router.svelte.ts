// Hash routing (#/terminal): works the same in the app window and in the
// browser test build, with no server-side routes.

export class Router {
  path = $state(Router.read());

  /** start listens for navigation; returns the stop function. */
  start(): () => void {
    const onChange = () => (this.path = Router.read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }

  go(path: string) {
    if (Router.read() !== path) window.location.hash = '#' + path;
    this.path = path;
  }

  static read(): string {
    const h = window.location.hash.replace(/^#/, '');
    return h.startsWith('/') ? h.split('?')[0] : '';
  }

  /** query returns the ?key=value part of the current hash. */
  static query(): URLSearchParams {
    const h = window.location.hash;
    const i = h.indexOf('?');
    return new URLSearchParams(i < 0 ? '' : h.slice(i + 1));
  }
}

export const router = new Router();
