import { bound } from './wails';
import { lazy, type Lazy } from './lazy';

export interface Screen {
  path: string;
  label: string;
  icon: string; // SVG path data (24×24 viewBox)
  /** view loads the screen's component on first visit (import()). */
  view: Lazy;
  /** group is the sidebar section: Main, Pipeline, or Settings (pinned at the bottom). */
  group: 'main' | 'pipeline' | 'settings';
  /** available: the screen's backend service is bound (capability built). */
  available: () => boolean;
}

// Screens appear in the sidebar only when their capability exists.
export const mainScreens: Screen[] = [
  {
    path: '/terminal',
    group: 'main',
    label: 'Terminal',
    icon: 'M4 17l6-6-6-6M12 19h8',
    view: lazy(() => import('../screens/terminal/TerminalScreen.svelte')),
    available: () => bound('terminal', 'Service'),
  },
  {
    path: '/sessions',
    group: 'main',
    label: 'Sessions',
    icon: 'M3 4h5v16H3zM10 4h5v10h-5zM17 4h4v6h-4z',
    view: lazy(() => import('../screens/sessions/SessionsScreen.svelte')),
    available: () => bound('board', 'Service'),
  },
  {
    path: '/external-agents',
    group: 'main',
    label: 'External agents',
    icon: 'M3 12a9 9 0 1 0 2.6-6.4L3 8M3 3v5h5M12 7v5l3 2',
    view: lazy(() => import('../screens/external-agents/ExternalAgentsScreen.svelte')),
    available: () => bound('inventory', 'Binding'),
  },
  {
    path: '/usage',
    group: 'main',
    label: 'Usage',
    icon: 'M4 20V10M10 20V4M16 20v-7M22 20H2',
    view: lazy(() => import('../screens/usage/UsageScreen.svelte')),
    available: () => bound('usage', 'Binding'),
  },
  {
    path: '/notes',
    group: 'main',
    label: 'Notes',
    icon: 'M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7',
    view: lazy(() => import('../screens/notes/NotesScreen.svelte')),
    available: () => bound('notes', 'Binding'),
  },
  {
    path: '/knowledge',
    group: 'main',
    label: 'Knowledge bases',
    icon: 'M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2zM4 21V5M9 7h6M9 11h6',
    view: lazy(() => import('../screens/knowledge/KnowledgeScreen.svelte')),
    available: () => bound('notes', 'KnowledgeBinding'),
  },
  {
    path: '/records',
    group: 'main',
    label: 'Records',
    icon: 'M4 4h6v16H4zM14 4h6v9h-6zM6.5 8h1M6.5 12h1M16.5 8h1',
    view: lazy(() => import('../screens/records/RecordsScreen.svelte')),
    available: () => bound('notes', 'RecordsBinding'),
  },
  {
    path: '/messages',
    group: 'main',
    label: 'Messages',
    icon: 'M4 5h16v11H9l-5 4zM8 9h8M8 12h5',
    view: lazy(() => import('../screens/messages/MessagesScreen.svelte')),
    available: () => bound('messages', 'Binding'),
  },
  {
    path: '/chat',
    group: 'main',
    label: 'Chat',
    icon: 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z',
    view: lazy(() => import('../screens/chat/ChatScreen.svelte')),
    available: () => bound('chat', 'Binding'),
  },
  {
    path: '/orchestration',
    group: 'pipeline',
    label: 'Orchestration',
    icon: 'M12 4v4M12 8l-6 5M12 8l6 5M6 13v3M18 13v3M12 8v8M4 16h4v4H4zM10 16h4v4h-4zM16 16h4v4h-4z',
    view: lazy(() => import('../screens/orchestration/OrchestrationScreen.svelte')),
    available: () => bound('orchestrate', 'OrchestrateBinding'),
  },
  {
    path: '/code',
    group: 'pipeline',
    label: 'Code',
    icon: 'M8 6l-6 6 6 6M16 6l6 6-6 6M13.5 4l-3 16',
    view: lazy(() => import('../screens/code/CodeScreen.svelte')),
    available: () => bound('code', 'Binding'),
  },
  {
    path: '/agents',
    group: 'pipeline',
    label: 'Agents',
    icon: 'M8 7h8a3 3 0 0 1 3 3v6a3 3 0 0 1-3 3H8a3 3 0 0 1-3-3v-6a3 3 0 0 1 3-3zM12 3v4M9.5 13h.01M14.5 13h.01',
    view: lazy(() => import('../screens/agents/AgentsScreen.svelte')),
    available: () => bound('chat', 'Binding'),
  },
  {
    path: '/pipeline',
    group: 'pipeline',
    label: 'Pipeline',
    icon: 'M4 5h5v5H4zM15 5h5v5h-5zM9.5 14h5v5h-5zM9 7.5h6M6.5 10v2.5a2 2 0 0 0 2 2h1M17.5 10v2.5a2 2 0 0 1-2 2h-1',
    view: lazy(() => import('../screens/pipeline/PipelineScreen.svelte')),
    available: () => bound('roles', 'Binding'),
  },
  {
    path: '/external-ai',
    group: 'pipeline',
    label: 'External AI',
    icon: 'M9 3v5M15 3v5M6 8h12v4a6 6 0 0 1-12 0zM12 18v3',
    view: lazy(() => import('../screens/external-ai/ExternalAITab.svelte')),
    available: () => bound('roles', 'Binding'),
  },
  {
    path: '/connected',
    group: 'pipeline',
    label: 'Connected agents',
    icon: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
    view: lazy(() => import('../screens/connected/ConnectedPanel.svelte')),
    available: () => bound('connect', 'Panel'),
  },
  {
    path: '/settings',
    group: 'settings',
    label: 'Settings',
    icon: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 1 1-2.83 2.83l-.06-.06a1.65 1.65 0 0 0-1.82-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 1 1-4 0v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-1.82.33l-.06.06a2 2 0 1 1-2.83-2.83l.06-.06A1.65 1.65 0 0 0 4.68 15a1.65 1.65 0 0 0-1.51-1H3a2 2 0 1 1 0-4h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 1 1 2.83-2.83l.06.06A1.65 1.65 0 0 0 9 4.68a1.65 1.65 0 0 0 1-1.51V3a2 2 0 1 1 4 0v.09a1.65 1.65 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 1 1 2.83 2.83l-.06.06A1.65 1.65 0 0 0 19.4 9a1.65 1.65 0 0 0 1.51 1H21a2 2 0 1 1 0 4h-.09a1.65 1.65 0 0 0-1.51 1z',
    view: lazy(() => import('../screens/settings/SettingsScreen.svelte')),
    available: () => bound('chat', 'Binding'),
  },
];
