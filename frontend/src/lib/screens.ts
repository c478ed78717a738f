import type { Component } from 'svelte';
import { bound } from './wails';
import TerminalScreen from '../screens/terminal/TerminalScreen.svelte';
import NotesScreen from '../screens/notes/NotesScreen.svelte';
import ExternalAgentsScreen from '../screens/external-agents/ExternalAgentsScreen.svelte';

export interface Screen {
  path: string;
  label: string;
  icon: string; // SVG path data (24×24 viewBox)
  component: Component;
  /** available: the screen's backend service is bound (capability built). */
  available: () => boolean;
}

// Screens appear in the sidebar only when their capability exists.
export const mainScreens: Screen[] = [
  {
    path: '/terminal',
    label: 'Terminal',
    icon: 'M4 17l6-6-6-6M12 19h8',
    component: TerminalScreen,
    available: () => bound('terminal', 'Service'),
  },
  {
    path: '/external-agents',
    label: 'External agents',
    icon: 'M3 12a9 9 0 1 0 2.6-6.4L3 8M3 3v5h5M12 7v5l3 2',
    component: ExternalAgentsScreen,
    available: () => bound('inventory', 'Binding'),
  },
  {
    path: '/notes',
    label: 'Notes',
    icon: 'M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7',
    component: NotesScreen,
    available: () => bound('notes', 'Binding'),
  },
];
