import { quitApi, type BusyPane } from './api/quit';
import { on } from './events';

/** busyLine names one pane the quit question is about, as the rail does:
 * by the name the person gave it, else its folder. */
export function busyLine(p: BusyPane): string {
  const where = p.name || p.folder;
  if (p.state === 'blocked') return `${p.what} is waiting for your decision in ${where}`;
  return `${p.what} is ${p.agent ? 'working' : 'running'} in ${where}`;
}

/** QuitAsk holds the window's quit question while it is shown. */
class QuitAsk {
  /** The panes a close request would cut short; null when nothing is asked. */
  panes = $state<BusyPane[] | null>(null);
  error = $state('');

  /** start listens for the window's close requests; returns the stop function. */
  start(): () => void {
    return on('app:quit-asked', (panes) => {
      this.error = '';
      this.panes = panes;
    });
  }

  cancel() {
    this.panes = null;
  }

  async quitAnyway() {
    try {
      await quitApi.quitAnyway();
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }
}

export const quitAsk = new QuitAsk();
