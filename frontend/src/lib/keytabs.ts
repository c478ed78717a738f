import { bound } from './wails';
import { lazy, type Lazy } from './lazy';

// Tabs of the key-icon dialog "Connections" (the assistants connected to
// the app, and the CLIs it runs on your subscription). Add a tab by appending
// one entry; a tab shows only when its backend is bound, and the key icon
// only when at least one tab does.
export interface KeyTab {
  id: string; // also the #…?keys=<id> deep link
  label: string;
  view: Lazy; // loaded when the tab is first shown
  available: () => boolean;
}

export const keyTabs: KeyTab[] = [
  {
    id: 'connected',
    label: 'Connected',
    view: lazy(() => import('../screens/connected/ConnectedPanel.svelte')),
    available: () => bound('connect', 'Panel'),
  },
  {
    id: 'external-ai',
    label: 'External AI',
    view: lazy(() => import('../screens/external-ai/ExternalAITab.svelte')),
    available: () => bound('roles', 'Binding'),
  },
];
