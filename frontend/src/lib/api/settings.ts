// The Settings screen's Go API (backend/settings/binding.go).
import { call } from '../wails';

/** The person's preferences (settings.Prefs). */
export interface Prefs {
  /** A desktop notification when an agent needs the person. */
  notifications: boolean;
}

const settings = <T>(method: string, ...args: unknown[]) => call<T>('settings', 'Binding', method, ...args);

export const settingsApi = {
  get: () => settings<Prefs>('Get'),
  setNotifications: (on: boolean) => settings<Prefs>('SetNotifications', on),
  /** chooseFolder opens the system folder dialog; '' when cancelled. */
  chooseFolder: (start: string) => settings<string>('ChooseFolder', start),
};
