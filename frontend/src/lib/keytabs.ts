import type { Component } from 'svelte';
import { bound } from './wails';
import ConnectedPanel from '../screens/connected/ConnectedPanel.svelte';
import ExternalAITab from '../screens/external-ai/ExternalAITab.svelte';

// Tabs of the key-icon dialog ("API Keys (BYOK)"). Add a tab by appending
// one entry; a tab shows only when its backend is bound, and the key icon
// only when at least one tab does.
export interface KeyTab {
  id: string; // also the #…?keys=<id> deep link
  label: string;
  component: Component;
  available: () => boolean;
}

export const keyTabs: KeyTab[] = [
  {
    id: 'connected',
    label: 'Connected',
    component: ConnectedPanel,
    available: () => bound('connect', 'Panel'),
  },
  {
    id: 'external-ai',
    label: 'External AI',
    component: ExternalAITab,
    available: () => bound('pipeline', 'Binding'),
  },
];
