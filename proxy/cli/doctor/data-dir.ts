/** doctor's "data directory": the SQLite store's folder is this user's, and its files are kept to it. */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { Finding } from "./finding";

/** Whether this user can keep the store in the data directory (SQLite), and keeps it to itself. */
export function checkDataDir(dataDir: string): string {
  let existing = dataDir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    if (!statSync(existing).isDirectory()) throw Object.assign(new Error(), { code: "ENOTDIR" });
    accessSync(existing, constants.W_OK | constants.X_OK);
    const db = join(dataDir, "givekit.db");
    if (existsSync(db)) accessSync(db, constants.R_OK | constants.W_OK);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "EACCES";
    throw new Finding(
      "GIVEKIT_DATA_DIR",
      `${existing === dataDir ? dataDir : `${existing} (where ${dataDir} would be made)`} cannot be used by this user (${code})`,
      "give the proxy's user a directory of its own (chown it, mode 0700), or set GIVEKIT_DATA_DIR to one",
    );
  }
  const open = ["givekit.db", "givekit.db-wal", "givekit.db-shm", "signing-secret"].filter((name) => {
    const path = join(dataDir, name);
    return existsSync(path) && (statSync(path).mode & 0o077) !== 0;
  });
  if (open.length > 0)
    throw new Finding(
      "GIVEKIT_DATA_DIR",
      `${open.join(", ")} in ${dataDir} can be read by other users (donors' phone numbers and addresses)`,
      `chmod 600 them (the proxy does when it next starts), and run it with UMask=0077`,
    );
  return existsSync(dataDir) ? `${dataDir} is this user's to write` : `${dataDir} can be made by this user`;
}
