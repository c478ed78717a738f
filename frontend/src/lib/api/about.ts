import { call } from '../wails';

/** What Settings shows about this install (main.AboutInfo in about.go). */
export interface AboutInfo {
  version: string;
  dataDir: string;
  logFile: string;
  /** False when the window was started from a terminal: output went there. */
  logToFile: boolean;
}

export const aboutApi = {
  info: () => call<AboutInfo>('main', 'About', 'Info'),
};
