// The one rule for which Local Folder runs use, in the words every screen
// says it with (Settings → Local Folders, the Code screen, the forms that
// name the folder). The backend's rule is roles.CurrentFolder.

/** CURRENT_FOLDER names the folder runs use when nothing else is picked. */
export const CURRENT_FOLDER = 'the most recently added Local Folder';

/** FOLDER_RULE is the rule as a sentence (Settings → Local Folders). */
export const FOLDER_RULE = `Runs use ${CURRENT_FOLDER} (Use for runs makes a folder that one); a chat keeps the folder it started in.`;
