import type { Component } from 'svelte';
import { bound } from './wails';
import TerminalScreen from '../screens/terminal/TerminalScreen.svelte';

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
];
