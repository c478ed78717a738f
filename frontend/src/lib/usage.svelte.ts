import { usageApi, type UsageReport } from './api/usage';

/** UsageState keeps the latest usage report, refreshed every minute while
 * a screen shows it (each refresh reads only what the CLIs appended). */
export class UsageState {
  report = $state<UsageReport | null>(null);
  error = $state('');
  loading = $state(false);

  async load() {
    this.loading = true;
    try {
      this.report = await usageApi.report();
      this.error = '';
    } catch (e) {
      this.error = `Could not read usage: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      this.loading = false;
    }
  }

  /** start loads now and every minute; returns the stop function ($effect). */
  start(every = 60_000): () => void {
    void this.load();
    const t = setInterval(() => void this.load(), every);
    return () => clearInterval(t);
  }
}
