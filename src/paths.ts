// Where the package's own files (fixtures, the dashboard page, package.json) live, whether the code
// runs compiled from dist/ or as TypeScript from src/, and the version its package.json states.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('pix-sandbox: cannot find its package folder');
    dir = up;
  }
  root = dir;
  return dir;
}

export const packagePath = (...parts: string[]): string => path.join(packageRoot(), ...parts);

/** The package's version, from its package.json. */
export const packageVersion = (): string => (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
