// Settings → Agent detection rules: signed rules bundles installed without a
// new release (backend/rulesupdate/binding.go).
import { service } from '../wails';
import type { rulesupdate } from '../wailsjs/go/models';

/** Which detection rules are in use (installedAt is epoch ms). */
export type RulesStatus = rulesupdate.Status;

const rules = service('rulesupdate', 'Binding');

export const rulesApi = {
  status: () => rules('Status'),
  /** update fetches, checks and installs the bundle at url ('' = the default address). */
  update: (url: string) => rules('Update', url),
};
