import { call } from '../wails';

/** The page's word that its first frame is on screen (backend/wailsui Shown):
 * the app's background work starts then, not beside the web view's start. */
export const shownApi = {
  firstFrame: () => call('wailsui', 'Shown', 'FirstFrame') as Promise<void>,
};
