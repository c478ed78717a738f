import { call } from '../wails';
import type { settings } from '../wailsjs/go/models';

/** What Settings shows about this install (logToFile is false when the window was started from a terminal: output went there). */
export type AboutInfo = settings.AboutInfo;

export const aboutApi = {
  info: () => call('settings', 'About', 'Info'),
};
