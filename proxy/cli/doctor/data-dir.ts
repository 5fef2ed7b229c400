/** doctor's "data directory": the SQLite store's folder is this user's, and its files are kept to it. */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { Finding } from "./finding";

const DATA_DIR_FIX =
  'run doctor as the proxy\'s user with its environment file (proxy/GUIDE.md, "systemd"); give that user a directory of its own (chown it, mode 0700), or set GIVEKIT_DATA_DIR to one';

/** "permission denied (EACCES: uid 65534 here; the folder is uid 0's, mode 0700)": why this user may not. */
function denied(path: string, code: string): string {
  if (code !== "EACCES" && code !== "EPERM") return code;
  let owner = "";
  try {
    const stat = statSync(path);
    owner = `; it is uid ${stat.uid}'s, mode ${(stat.mode & 0o7777).toString(8).padStart(4, "0")}`;
  } catch {
    // Its owner cannot be read either: the code says enough.
  }
  return `permission denied, ${code}: this is uid ${process.getuid?.() ?? "?"}${owner}`;
}

/**
 * Throws a Finding when this user cannot look inside the data directory: what is in it (a
 * database, or none) cannot be told, and the proxy's user may well have a store there.
 */
export function assertDataDirEnterable(dataDir: string): void {
  try {
    accessSync(dataDir, constants.X_OK);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "EACCES";
    if (code === "ENOENT") return;
    throw new Finding(
      "GIVEKIT_DATA_DIR",
      `${dataDir} cannot be entered by this user (${denied(dataDir, code)}), so whether a store is there cannot be told`,
      DATA_DIR_FIX,
    );
  }
}

/** Whether this user can keep the store in the data directory (SQLite), and keeps it to itself. */
export function checkDataDir(dataDir: string): string {
  let existing = dataDir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  let failed = existing;
  try {
    if (!statSync(existing).isDirectory()) throw Object.assign(new Error(), { code: "ENOTDIR" });
    accessSync(existing, constants.W_OK | constants.X_OK);
    const db = join(dataDir, "givekit.db");
    failed = db;
    if (existsSync(db)) accessSync(db, constants.R_OK | constants.W_OK);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "EACCES";
    const where =
      failed !== existing
        ? failed
        : existing === dataDir
          ? dataDir
          : `${existing} (where ${dataDir} would be made)`;
    throw new Finding(
      "GIVEKIT_DATA_DIR",
      `${where} cannot be used by this user (${denied(failed, code)})`,
      DATA_DIR_FIX,
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
