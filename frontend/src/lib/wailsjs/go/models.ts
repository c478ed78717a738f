export namespace acp {
	
	export interface Agent {
	    id: string;
	    name: string;
	    argv: string[];
	    install: string;
	}

}

export namespace agentcli {
	
	export interface CLIModel {
	    id: string;
	    label: string;
	    note: string;
	}
	export interface CLIModels {
	    agent: string;
	    models: CLIModel[];
	    source: string;
	    problem?: string;
	}
	export interface Usage {
	    inputTokens: number;
	    cachedInputTokens: number;
	    cacheCreationTokens: number;
	    outputTokens: number;
	    contextTokens: number;
	}
	export interface Verification {
	    agent: string;
	    signedIn: boolean;
	    label: string;
	    detail: string;
	    argv: string[];
	    duration: number;
	    unreachable: boolean;
	    service: string;
	}

}

export namespace approvals {
	
	export interface DoneEvent {
	    id: string;
	}

}

export namespace board {
	
	export interface PullRequest {
	    url: string;
	    number: number;
	    forge: string;
	    state: string;
	    checks: string;
	}
	export interface Card {
	    key: string;
	    source: string;
	    id: string;
	    kind: string;
	    title: string;
	    folder: string;
	    dir?: string;
	    state: string;
	    why: string;
	    reason?: string;
	    startedAt: number;
	    updatedAt: number;
	    link?: string;
	    canPause: boolean;
	    summary?: string;
	    summaryKb?: string;
	    summaryArticle?: string;
	    branch?: string;
	    added?: number;
	    removed?: number;
	    pullRequest?: PullRequest;
	    children?: number;
	    childrenDone?: number;
	    cost?: cost.Cost;
	    model?: string;
	}
	export interface DropResult {
	    allowed: boolean;
	    message: string;
	}

}

export namespace chat {
	
	export interface Chat {
	    id: string;
	    title: string;
	    folder: string;
	    agentId: string;
	    worktree: boolean;
	    planMode: boolean;
	    cliAgent: string;
	    cliSession: string;
	    state: string;
	    ended: boolean;
	    createdAt: number;
	    updatedAt: number;
	}
	export interface Compaction {
	    id: number;
	    uptoMessageId: number;
	    summary: string;
	    model: string;
	    reason: string;
	    turns: number;
	    createdAt: number;
	}
	export interface Message {
	    id: number;
	    role: string;
	    text: string;
	    runId?: string;
	    createdAt: number;
	}
	export interface ChatDetail {
	    chat: Chat;
	    messages: Message[];
	    runs: runs.Run[];
	    compactions: Compaction[];
	    compacting?: string;
	    tooLong: boolean;
	}
	
	
	export interface NewChat {
	    title: string;
	    folder: string;
	    agentId: string;
	    worktree: boolean;
	    planMode: boolean;
	}

}

export namespace code {
	
	export interface ChangedFile {
	    path: string;
	    status: string;
	    added: number;
	    removed: number;
	    binary?: boolean;
	    patch: string;
	}
	export interface ChatIsolationState {
	    mode: string;
	    workspace: boolean;
	    effective: boolean;
	}
	export interface RepoFolder {
	    path: string;
	    git: boolean;
	    missing: boolean;
	    reason?: string;
	}
	export interface Run {
	    id: string;
	    chatId?: string;
	    agentId?: string;
	    title: string;
	    model: string;
	    role: string;
	    folder: string;
	    state: string;
	    text: string;
	    error?: string;
	    progress: string[];
	    usage: agentcli.Usage;
	    costUsd: number;
	    reportedCostUsd: number;
	    cost: cost.Cost;
	    sessionId?: string;
	    repo?: string;
	    branch?: string;
	    diffStat?: string;
	    diff?: string;
	    startedAt: number;
	    finishedAt: number;
	    workspace: string;
	    decision: string;
	    files: ChangedFile[];
	}
	export interface Settings {
	    workspace: string;
	    repo: string;
	    enabled: boolean;
	    uses: string;
	    usesFrom: string;
	    problem?: string;
	    folders: RepoFolder[];
	}

}

export namespace connect {
	
	export interface Activity {
	    connectionId: string;
	    tool: string;
	    decision: string;
	    detail: string;
	    at: string;
	}
	export interface ChatLink {
	    project: string;
	    label: string;
	    linkedAt: string;
	}
	export interface Connection {
	    id: string;
	    displayName: string;
	    assistant: string;
	    status: string;
	    statusText: string;
	    workspace: string;
	    approver: string;
	    scopes: string[];
	    projects: string[];
	    channels: string[];
	    chatLinks: ChatLink[];
	    createdAt: string;
	    connectedAt: string;
	}
	export interface FileChange {
	    path: string;
	    before: string;
	    after: string;
	    added: boolean;
	}
	export interface ImportFile {
	    name: string;
	    content: string;
	}
	export interface FileImportAsk {
	    into: string;
	    id: string;
	    title: string;
	    files: ImportFile[];
	}
	
	export interface PanelTexts {
	    Pending: string;
	    Connected: string;
	    Revoked: string;
	    ToolsOn: string;
	    ChatWaits: string;
	    Assistants: string[];
	}
	export interface Imported {
	    name: string;
	    id: string;
	    version: number;
	}
	export interface PullRequestAsk {
	    branch: string;
	    base: string;
	    body: string;
	    forge: string;
	}
	export interface Proposal {
	    id: string;
	    connectionId: string;
	    connection: string;
	    kind: string;
	    project: string;
	    target: string;
	    title: string;
	    files: string[];
	    details: string;
	    status: string;
	    createdAt: string;
	    decidedAt: string;
	    decidedBy: string;
	    changes: FileChange[];
	    patch: string;
	    request?: PullRequestAsk;
	    import?: FileImportAsk;
	    branch: string;
	    commit: string;
	    diff: string;
	    problem: string;
	    url?: string;
	    number?: number;
	    imported?: Imported[];
	}
	
	export interface ToolSetting {
	    name: string;
	    scope: string;
	    readOnly: boolean;
	    enabled: boolean;
	}

}

export namespace cost {
	
	export interface Cost {
	    billing: string;
	    billedUsd: number;
	    estimateUsd: number;
	    estimated: boolean;
	}

}

export namespace forge {
	
	export interface Checks {
	    state: string;
	    total: number;
	    passed: number;
	    failed: number;
	    pending: number;
	}
	export interface Draft {
	    title: string;
	    body: string;
	    commits: string[];
	}
	export interface Host {
	    name: string;
	    kind: string;
	    api?: string;
	}
	export interface OpenRequest {
	    dir: string;
	    branch: string;
	    base: string;
	    title: string;
	    body: string;
	}
	export interface PullRequest {
	    kind: string;
	    number: number;
	    url: string;
	    state: string;
	    title: string;
	    head: string;
	    base: string;
	    sha: string;
	    checks: Checks;
	}
	export interface Repo {
	    host: Host;
	    owner: string;
	    name: string;
	    web: string;
	    remote: string;
	    remoteUrl: string;
	    http: boolean;
	}
	export interface Opened {
	    repo: Repo;
	    pr: PullRequest;
	    existing: boolean;
	    tokenFrom: string;
	}
	export interface PastedToken {
	    host: string;
	    kind: string;
	    forge: string;
	    where: string;
	    savedAt: number;
	}
	export interface Record {
	    dir: string;
	    branch: string;
	    repo: Repo;
	    pr: PullRequest;
	    checkedAt: number;
	}
	export interface Plan {
	    repo: Repo;
	    forge: string;
	    request: string;
	    branch: string;
	    base: string;
	    draft: Draft;
	    tokenFrom: string;
	    tokenProblem: string;
	    tokenWhere: string;
	    uncommitted: string[];
	    existing?: Record;
	    unknownHost: string;
	}
	
	

}

export namespace inventory {
	
	export interface AppInfo {
	    app: string;
	    name: string;
	    enabled: boolean;
	    count: number;
	    ownRuns: number;
	}
	export interface BranchCheck {
	    recorded: string;
	    current: string;
	    checked: boolean;
	    mismatch: boolean;
	}
	export interface Field {
	    label: string;
	    value: string;
	}
	export interface Session {
	    key: string;
	    app: string;
	    appName: string;
	    id: string;
	    title: string;
	    folder: string;
	    folderName: string;
	    branch: string;
	    model?: string;
	    effort?: string;
	    mode?: string;
	    sandbox?: string;
	    version?: string;
	    updatedMs: number;
	    timeFrom?: string;
	    path: string;
	    bytes: number;
	    archived?: boolean;
	    resumeId?: string;
	    ownRun?: boolean;
	    runWhy?: string;
	    runTitle?: string;
	    chatId?: string;
	}
	export interface Detail {
	    session: Session;
	    fields: Field[];
	    staysInApp?: string;
	}
	
	export interface OpenRequest {
	    ref: string;
	    keep: string[];
	    openAnyway: boolean;
	}
	export interface ValueNote {
	    label: string;
	    value: string;
	    handling: string;
	    permissive?: boolean;
	    kept?: boolean;
	}
	export interface Plan {
	    sessionKey: string;
	    app: string;
	    folder: string;
	    argv: string[];
	    warnings: string[];
	    values: ValueNote[];
	    branch: BranchCheck;
	    ask: boolean;
	    question?: string;
	}
	export interface OpenResult {
	    paneId?: string;
	    ask: boolean;
	    question?: string;
	    plan: Plan;
	}
	export interface Row {
	    kind: string;
	    name?: string;
	    text: string;
	    time?: string;
	    isError?: boolean;
	    truncated?: boolean;
	}
	export interface Page {
	    rows: Row[];
	    next: number;
	    done: boolean;
	}
	
	
	
	export interface TextHit {
	    key: string;
	    snippet: string;
	}
	export interface TextStatus {
	    on: boolean;
	    running: boolean;
	    indexed: number;
	    total: number;
	    skipped: number;
	    current?: string;
	    error?: string;
	}

}

export namespace main {
	
	export interface EventPayloads {
	    "pane:output": terminal.OutputEvent;
	    "pane:exit": terminal.ExitEvent;
	    "panes:state": panestate.PaneState;
	    "panes:focus": string;
	    "review:changed": review.ChangedEvent;
	    "notes:changed": notes.ChangedEvent;
	    "records:changed": notes.RecordsChangedEvent;
	    "messages:posted": messages.PostedEvent;
	    "pipeline:run": runs.RunEvent;
	    "pipeline:verify": roles.VerifyState;
	    "pipeline:changed": string;
	    "tools:approval": tools.ApprovalRequest;
	    "tools:approval-done": approvals.DoneEvent;
	    "orchestrate:changed": orchestrate.Status;
	    "board:changed": board.Card[];
	    "inventory:textindex": inventory.TextStatus;
	    "app:notice": windowlinks.Notice;
	    "app:open": string;
	    "app:quit-asked": panestate.BusyPane[];
	    "settings:terminal": settings.TerminalPrefs;
	    "team:status": teamclient.Status;
	    "notes:draft": notes.Draft;
	    "team:sessions": teamclient.SessionsView;
	    "team:kept-after-delete": teamclient.KeptAfterDelete;
	}

}

export namespace messages {
	
	export interface Channel {
	    id: string;
	    workspace: string;
	    project: string;
	    name: string;
	    discussion: boolean;
	    private: boolean;
	    owner: string;
	    createdAt: string;
	}
	export interface ChannelAgent {
	    id: string;
	    channel_id: string;
	    name: string;
	    cli: string;
	    role: string;
	    created_at: string;
	}
	export interface ChannelView {
	    id: string;
	    workspace: string;
	    project: string;
	    name: string;
	    discussion: boolean;
	    private: boolean;
	    owner: string;
	    createdAt: string;
	    workspaceName: string;
	    projectName: string;
	}
	export interface Message {
	    id: string;
	    seq: number;
	    channel_id: string;
	    author_kind: string;
	    author: string;
	    author_name: string;
	    text: string;
	    reply_to?: string;
	    created_at: string;
	}
	export interface Place {
	    id: string;
	    name: string;
	    workspace: string;
	}
	export interface PostedEvent {
	    channel: ChannelView;
	    message: Message;
	}

}

export namespace notes {
	
	export interface TabInfo {
	    tab_id: string;
	    kind: string;
	    title: string;
	    position: number;
	    tab_version: number;
	    updated_at: string;
	}
	export interface Attachment {
	    name: string;
	    url?: string;
	    mime_type?: string;
	    size: number;
	    text?: string;
	}
	export interface Slide {
	    id: string;
	    title: string;
	    body: string;
	}
	export interface SlidesData {
	    slides: Slide[];
	}
	export interface Sheet {
	    id: string;
	    name: string;
	    cells: any[][];
	}
	export interface SheetData {
	    sheets: Sheet[];
	}
	export interface Tab {
	    tab_id: string;
	    kind: string;
	    title: string;
	    position: number;
	    tab_version: number;
	    updated_at: string;
	    text?: string;
	    sheet?: SheetData;
	    slides?: SlidesData;
	    attachment?: Attachment;
	}
	export interface SaveResult {
	    saved: boolean;
	    version: number;
	    tab_version: number;
	    current?: Tab;
	}
	export interface AddTabResult {
	    result: SaveResult;
	    tab: TabInfo;
	}
	export interface ArticleDoc {
	    article_id: string;
	    knowledge_base_id: string;
	    title: string;
	    body?: string;
	    version: number;
	    updated_at: string;
	    updated_by: string;
	}
	export interface ArticleSave {
	    saved: boolean;
	    version: number;
	    current?: ArticleDoc;
	    article?: ArticleDoc;
	}
	
	export interface ChangedEvent {
	    note_id: string;
	    version: number;
	}
	export interface Draft {
	    owner_id: string;
	    item_id: string;
	    data: string;
	    saved_at: string;
	}
	export interface KBHit {
	    article_id: string;
	    title: string;
	    snippet: string;
	    updated_at: string;
	}
	export interface KnowledgeBase {
	    knowledge_base_id: string;
	    workspace_id: string;
	    project_id: string;
	    name: string;
	}
	export interface Project {
	    id: string;
	    workspace_id: string;
	    name: string;
	}
	export interface Workspace {
	    id: string;
	    name: string;
	}
	export interface KnowledgeOverview {
	    workspaces: Workspace[];
	    projects: Project[];
	    knowledge_bases: KnowledgeBase[];
	}
	export interface Note {
	    note_id: string;
	    workspace_id: string;
	    project_id: string;
	    title: string;
	    version: number;
	    updated_at: string;
	    tabs: Tab[];
	}
	export interface NoteInfo {
	    note_id: string;
	    workspace_id: string;
	    project_id: string;
	    title: string;
	    version: number;
	    updated_at: string;
	}
	export interface Overview {
	    workspaces: Workspace[];
	    projects: Project[];
	    notes: NoteInfo[];
	}
	
	export interface RecordBoard {
	    record_channel_id: string;
	    workspace_id: string;
	    project_id: string;
	    name: string;
	    statuses: string[];
	}
	export interface RecordEdit {
	    title: string;
	    status: string;
	    body: string;
	}
	export interface RecordItem {
	    item_id: string;
	    record_channel_id: string;
	    title: string;
	    status: string;
	    fields: {[key: string]: any};
	    version: number;
	    updated_at: string;
	}
	export interface RecordSaveResult {
	    saved: boolean;
	    version: number;
	    current?: RecordItem;
	    item?: RecordItem;
	}
	export interface RecordsChangedEvent {
	    record_channel_id: string;
	    item_id: string;
	    version: number;
	}
	export interface RecordsOverview {
	    workspaces: Workspace[];
	    projects: Project[];
	    channels: RecordBoard[];
	}
	
	
	
	
	
	
	

}

export namespace notesres {
	
	export interface PickChannel {
	    id: string;
	    name: string;
	    kind: string;
	    private: boolean;
	    project: string;
	    workspace: string;
	    workspaceName: string;
	}
	export interface PickResource {
	    kind: string;
	    id: string;
	    name: string;
	}
	export interface PickProject {
	    id: string;
	    name: string;
	    workspace: string;
	    workspaceName: string;
	    opens: PickResource[];
	}
	
	export interface PickWorkspace {
	    id: string;
	    name: string;
	}

}

export namespace orchestrate {
	
	export interface ChildSpec {
	    role: string;
	    model?: string;
	    prompt: string;
	    folder?: string;
	}
	export interface DAGStep {
	    id: string;
	    role: string;
	    model?: string;
	    prompt: string;
	    folder?: string;
	    dependsOn?: string[];
	}
	export interface Limits {
	    maxSeconds: number;
	    maxSpendUSD: number;
	    concurrency: number;
	}
	export interface FleetRequest {
	    title?: string;
	    tasks: ChildSpec[];
	    limits: Limits;
	}
	export interface GraphRequest {
	    title?: string;
	    task?: string;
	    steps: DAGStep[];
	    limits: Limits;
	}
	
	export interface LoopRequest {
	    title?: string;
	    role: string;
	    model?: string;
	    prompt: string;
	    folder?: string;
	    until?: string;
	    count?: number;
	    maxIterations?: number;
	    limits: Limits;
	}
	export interface Step {
	    stage: number;
	    role: string;
	    id?: string;
	    model?: string;
	    task?: string;
	    dependsOn?: string[];
	    runId?: string;
	    state: string;
	    progress?: string;
	    costUsd?: number;
	    cost: cost.Cost;
	    answer?: string;
	    error?: string;
	    startedAt?: number;
	    endedAt?: number;
	}
	export interface Status {
	    id: string;
	    kind: string;
	    state: string;
	    steps: Step[];
	    answer?: string;
	    error?: string;
	    note?: string;
	    title?: string;
	    startedBy?: string;
	    limits: Limits;
	    costUsd: number;
	    cost: cost.Cost;
	    startedAt?: number;
	    endedAt?: number;
	}

}

export namespace panestate {
	
	export interface BusyPane {
	    id: string;
	    folder: string;
	    name?: string;
	    what: string;
	    agent: boolean;
	    state: string;
	}
	export interface PaneState {
	    id: string;
	    label: string;
	    state: string;
	    agent: string;
	    agentName: string;
	    command?: string;
	    source: string;
	    reason: string;
	    message: string;
	    ended: boolean;
	    paused: boolean;
	    since: number;
	}

}

export namespace review {
	
	export interface ArchiveRequest {
	    discard: boolean;
	    deleteBranch: boolean;
	}
	export interface ChangedEvent {
	    pane: string;
	}
	export interface Comment {
	    id: number;
	    path: string;
	    line: number;
	    side: string;
	    text: string;
	    at: number;
	    sentAt: number;
	}
	export interface Conflict {
	    path: string;
	    text: string;
	}
	export interface Delivery {
	    state: string;
	    count: number;
	}
	export interface File {
	    path: string;
	    status: string;
	    added: number;
	    removed: number;
	    binary: boolean;
	    patch: string;
	    large: boolean;
	}
	export interface FinishPlan {
	    base: string;
	    branch: string;
	    commits: number;
	    uncommitted: string[];
	    baseCheckout: string;
	    problem: string;
	}
	export interface FinishRequest {
	    mode: string;
	    message: string;
	}
	export interface FinishResult {
	    merged: boolean;
	    commit: string;
	    base: string;
	    conflicts: Conflict[];
	}
	export interface Review {
	    pane: string;
	    branch: terminal.Branch;
	    files: File[];
	    comments: Comment[];
	    queued: boolean;
	    readAt: number;
	}

}

export namespace roles {
	
	export interface Agent {
	    id: string;
	    name: string;
	    modelPreference: string;
	    runtimeRole: string;
	    instructions: string;
	    createdAt: number;
	    updatedAt: number;
	}
	export interface CLI {
	    agent: string;
	    name: string;
	    installed: boolean;
	    path: string;
	    source: string;
	    models: string[];
	    keysInEnv: string[];
	    noLiveStream: boolean;
	    note?: string;
	    signInHint?: string;
	    enabled: boolean;
	    version?: string;
	    versionError?: string;
	}
	export interface Folder {
	    id: number;
	    path: string;
	    addedAt: number;
	    current: boolean;
	    missing: boolean;
	}
	export interface ModelOption {
	    id: string;
	    label: string;
	    available: boolean;
	    reason?: string;
	}
	export interface ModelGroup {
	    label: string;
	    provider?: string;
	    note?: string;
	    models: ModelOption[];
	}
	
	export interface Role {
	    name: string;
	    needsTools: boolean;
	    prompt: string;
	    model: string;
	    default: boolean;
	}
	export interface SignInPane {
	    paneId: string;
	    argv: string[];
	    hint: string;
	}
	export interface VerifyState {
	    agent: string;
	    running: boolean;
	    status: string;
	    startedAt: number;
	    result?: agentcli.Verification;
	    error?: string;
	    seq: number;
	}

}

export namespace rulesupdate {
	
	export interface Status {
	    installed: boolean;
	    version: string;
	    source: string;
	    installedAt: number;
	    files: string[];
	    folder: string;
	    defaultUrl: string;
	    previous: string;
	    problems: string[];
	}

}

export namespace runs {
	
	export interface Run {
	    id: string;
	    chatId?: string;
	    agentId?: string;
	    title: string;
	    model: string;
	    role: string;
	    folder: string;
	    state: string;
	    text: string;
	    error?: string;
	    progress: string[];
	    usage: agentcli.Usage;
	    costUsd: number;
	    reportedCostUsd: number;
	    cost: cost.Cost;
	    sessionId?: string;
	    repo?: string;
	    branch?: string;
	    diffStat?: string;
	    diff?: string;
	    startedAt: number;
	    finishedAt: number;
	}
	export interface RunEvent {
	    runId: string;
	    chatId?: string;
	    kind: string;
	    text: string;
	    state?: string;
	}

}

export namespace settings {
	
	export interface AboutInfo {
	    version: string;
	    dataDir: string;
	    logFile: string;
	    logToFile: boolean;
	}
	export interface ChannelOverride {
	    disabled?: string[];
	    forceApproval?: string[];
	}
	export interface LayoutPrefs {
	    kind: string;
	    slots: string[];
	    split: number[];
	    focus: number;
	}
	export interface Palette {
	    id: string;
	    name: string;
	    dark: boolean;
	    foreground: string;
	    background: string;
	    cursor: string;
	    selection: string;
	    ansi: string[];
	}
	export interface TerminalPrefs {
	    fontFamily: string;
	    fontSize: number;
	    lineHeight: number;
	    cursorStyle: string;
	    cursorBlink: boolean;
	    scrollback: number;
	    palette: string;
	    keepScrollback: boolean;
	}
	export interface Prefs {
	    notifications: boolean;
	    channels?: {[key: string]: ChannelOverride};
	    terminal: TerminalPrefs;
	    layout: LayoutPrefs;
	    shortcuts: {[key: string]: string};
	}

}

export namespace shellenv {
	
	export interface Result {
	    shell: string;
	    reason: string;
	    pending: boolean;
	    ok: boolean;
	    timedOut: boolean;
	    error?: string;
	    duration: number;
	    path: string;
	    added: string[];
	    dropped: string[];
	    set: string[];
	}

}

export namespace teamclient {
	
	export interface KeptAfterDelete {
	    kind: string;
	    id: string;
	    containerId: string;
	    title: string;
	    why: string;
	}
	export interface Person {
	    id: string;
	    name: string;
	    email: string;
	}
	export interface ProjectState {
	    id: string;
	    name: string;
	    workspace: string;
	    pending: number;
	    problems: string[];
	}
	export interface Projects {
	    synced: ProjectState[];
	    localOnly: ProjectState[];
	    waiting: ProjectState[];
	    shared: ProjectState[];
	    offline: string;
	}
	export interface QuietHours {
	    on: boolean;
	    from: string;
	    to: string;
	    time_zone: string;
	}
	export interface SharedSession {
	    kind: string;
	    title: string;
	    state: string;
	    line?: string;
	    id?: string;
	    since?: number;
	    choices?: number;
	    asks?: string;
	}
	export interface SharedDevice {
	    name: string;
	    updated_at: string;
	    current: boolean;
	    sessions: SharedSession[];
	}
	export interface SessionsView {
	    sharing: boolean;
	    pending: boolean;
	    message: string;
	    devices: SharedDevice[];
	    answers: boolean;
	}
	
	
	export interface SignedInBrowser {
	    id: string;
	    name: string;
	    user_agent: string;
	    signed_in?: string;
	    pushes: number;
	    signed_out: boolean;
	}
	export interface Workspace {
	    id: string;
	    name: string;
	    role: string;
	    runner: boolean;
	}
	export interface Status {
	    state: string;
	    server: string;
	    team: string;
	    person: Person;
	    workspaces: Workspace[];
	    tokenStore: string;
	    message: string;
	}

}

export namespace terminal {
	
	export interface ACPRequest {
	    agent?: string;
	    adapter?: string;
	    model?: string;
	}
	export interface Attachment {
	    seq: number;
	    data: string;
	    restored?: string;
	}
	export interface Branch {
	    repo: string;
	    worktree: string;
	    name: string;
	    base: string;
	    baseCommit: string;
	    portOffset: number;
	}
	export interface BranchPlan {
	    problem: string;
	    repo: string;
	    folder: string;
	    current: string;
	    detached: string;
	    branches: string[];
	    setup: worktree.Effective;
	    personal: worktree.Config;
	}
	export interface BranchRequest {
	    name: string;
	    base: string;
	}
	export interface CreateRequest {
	    dir: string;
	    command: string;
	    cols: number;
	    rows: number;
	    branch?: BranchRequest;
	    acp?: ACPRequest;
	}
	export interface ExitEvent {
	    id: string;
	    code: number;
	}
	export interface Info {
	    id: string;
	    pid: number;
	    dir: string;
	    folder: string;
	    argv: string[];
	    foreground: string;
	    shellInFront: boolean;
	    title: string;
	    cols: number;
	    rows: number;
	    exited: boolean;
	    exitCode: number;
	    paused: boolean;
	    canPause: boolean;
	    startedAt: number;
	    command: string;
	    session?: string;
	    resumed?: string;
	    name?: string;
	    branch?: Branch;
	    added?: number;
	    removed?: number;
	}
	export interface OutputEvent {
	    id: string;
	    seq: number;
	    data: string;
	}

}

export namespace toolpolicy {
	
	export interface Policy {
	    disabled: string[];
	    forceApproval: string[];
	}
	export interface Channel {
	    id: string;
	    name: string;
	    about: string;
	    policy: Policy;
	}
	
	export interface Tool {
	    name: string;
	    description: string;
	    readOnly: boolean;
	    needsApproval: boolean;
	}
	export interface View {
	    channels: Channel[];
	    tools: Tool[];
	}

}

export namespace tools {
	
	export interface ApprovalRequest {
	    id: string;
	    workspace: string;
	    user: string;
	    channel: string;
	    tool: string;
	    args: unknown;
	    source: string;
	    at: number;
	}
	export interface CatalogueTool {
	    name: string;
	    tools: string[];
	    offered: boolean;
	    default: boolean;
	    note: string;
	}

}

export namespace usage {
	
	export interface Window {
	    start: number;
	    resetsAt: number;
	    lastActivity: number;
	    totals: Totals;
	    elapsedPercent: number;
	    limitTokens: number;
	    usedPercent: number;
	}
	export interface Totals {
	    input: number;
	    output: number;
	    cacheWrite: number;
	    cacheRead: number;
	    tokens: number;
	    costUsd: number;
	    requests: number;
	    unpriced: number;
	}
	export interface Claude {
	    found: boolean;
	    files: number;
	    today: Totals;
	    week: Totals;
	    window?: Window;
	}
	export interface Limit {
	    usedPercent: number;
	    windowMinutes: number;
	    resetsAt: number;
	}
	export interface Codex {
	    found: boolean;
	    files: number;
	    today: number;
	    week: number;
	    primary?: Limit;
	    secondary?: Limit;
	    planType: string;
	    recordedAt: number;
	}
	export interface Day {
	    date: string;
	    start: number;
	    claudeTokens: number;
	    claudeCost: number;
	    codexTokens: number;
	}
	
	export interface Report {
	    now: number;
	    weekStart: number;
	    claude: Claude;
	    codex: Codex;
	    days: Day[];
	    priceSource: string;
	    priceDate: string;
	    skipped: number;
	}
	

}

export namespace windowlinks {
	
	export interface Notice {
	    title: string;
	    text: string;
	}

}

export namespace worktree {
	
	export interface Config {
	    copy: string[];
	    setup: string;
	    limitSeconds: number;
	}
	export interface Sources {
	    copy: string;
	    setup: string;
	    limit: string;
	}
	export interface Effective {
	    config: Config;
	    sources: Sources;
	    file: string;
	    problem: string;
	}

}

