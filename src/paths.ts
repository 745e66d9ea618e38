// Where the package's own files (fixtures, the dashboard page) live, whether the code runs
// compiled from dist/ or as TypeScript from src/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

export function packageRoot(): string {
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
