/**
 * The names the SQLite journal's readers use (the e2e tests read consent records from its file).
 * The store itself lives in proxy/store/.
 */
export { JOURNAL_FILE, JOURNAL_LOCK_FILE, JOURNAL_SECRET_FILE } from "./store/sqlite/data-dir";
export type { AttemptRecord, AttemptState, ConsentRecord } from "./store/types";
