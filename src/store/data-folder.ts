// The data folder (--data-dir): db.json and its logs, the HTTPS certificate generated there, and
// the lock. Its files hold the token signing key, webhook secrets and the certificate's key, so
// the folder is 0700 and every file 0600: created so (never a moment readable by others) and
// tightened at open when an earlier version left them open (docs/decisions.md#d56-data-files-are-private).
import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { FILE_MODE } from './data-file.js';
import { lockFolder, type FolderLock } from './lock.js';

export const FOLDER_MODE = 0o700;

/** The names the sandbox keeps in its folder: the store's files (db.json, its logs, snapshots aside, backups), the certificate, the lock, the named snapshots. */
const OURS = /^(db\.json|cert\.pem|key\.pem)(\..+)?$|^lock$|^snapshots$/;

export interface DataFolder {
  readonly path: string;
  /** what the start-up banner should say about the folder (a mode left as it was) */
  readonly notes: string[];
  release(): Promise<void>;
}

/** Takes the data folder for this sandbox (FolderLockedError when another holds it), creating it if needed. */
export async function openDataFolder(dir: string): Promise<DataFolder> {
  const folder = path.resolve(dir);
  await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  const lock: FolderLock = await lockFolder(folder);
  try {
    return { path: folder, notes: await tighten(folder), release: () => lock.release() };
  } catch (e) {
    await lock.release();
    throw e;
  }
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** Takes group and other permissions off the folder and the sandbox's files in it. */
async function tighten(folder: string): Promise<string[]> {
  const notes: string[] = [];
  const names = await readdir(folder);
  for (const name of names.filter((n) => OURS.test(n))) {
    const file = path.join(folder, name);
    const s = await lstat(file);
    if (s.isSymbolicLink()) continue; // not ours to change
    const want = s.isDirectory() ? FOLDER_MODE : FILE_MODE;
    if ((s.mode & 0o777 & ~want) !== 0) await restrict(file, s.mode & want, notes);
  }
  const mode = (await stat(folder)).mode;
  if ((mode & 0o077) === 0) return notes;
  // a folder that holds more than the sandbox's files (--data-dir pointed at a project) keeps its mode
  if (names.every((n) => OURS.test(n))) await restrict(folder, mode & FOLDER_MODE, notes);
  else notes.push(`data folder ${folder} holds other files: its mode ${octal(mode)} is left as it is (the sandbox's files in it are 0600)`);
  return notes;
}

async function restrict(file: string, mode: number, notes: string[]): Promise<void> {
  try {
    await chmod(file, mode);
  } catch (e) {
    notes.push(
      `could not make ${file} private (${(e as NodeJS.ErrnoException).code ?? String(e)}): its mode stays ${octal((await stat(file)).mode)}`,
    );
  }
}
