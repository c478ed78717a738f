// Settings → Agent detection rules: signed rules bundles installed without a
// new release (backend/rulesupdate/binding.go).
import { call } from '../wails';

/** Which detection rules are in use (rulesupdate.Status). */
export interface RulesStatus {
  /** A bundle was installed; the fields below describe it. */
  installed: boolean;
  version: string;
  /** The address the bundle was fetched from. */
  source: string;
  /** RFC 3339. */
  installedAt: string;
  files: string[];
  /** The override folder (~/.osfoundry/agent-detection). */
  folder: string;
  /** Where updates come from by default. */
  defaultUrl: string;
  /** Where the folder as it was is kept, right after an update replaced one. */
  previous: string;
  /** The person's own override files the app could not use after an update. */
  problems: string[];
}

const rules = <T>(method: string, ...args: unknown[]) => call<T>('rulesupdate', 'Binding', method, ...args);

export const rulesApi = {
  status: () => rules<RulesStatus>('Status'),
  /** update fetches, checks and installs the bundle at url ('' = the default address). */
  update: (url: string) => rules<RulesStatus>('Update', url),
};
