import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The person's files as an agent reads and writes them through the client (ACP `fs/*`). */
export interface WorkspaceFiles {
  /** The text the person sees: the editor's, unsaved changes included, where one shows it; undefined: no such file. */
  read(path: string): Promise<string | undefined>;
  /** Writes the file on disk, with the folders it needs. */
  write(path: string, content: string): Promise<void>;
}

/** Files as they are on disk. */
export const diskFiles: WorkspaceFiles = {
  async read(path) {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
  async write(path, content) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, 'utf8');
  },
};

/**
 * Files as an editor shows them: `openText` gives an open document's text (undefined when the file is not
 * open there, or nobody can tell), and the disk the rest. Writes go to disk; an editor reloads what it shows.
 */
export function editorFiles(openText: (path: string) => Promise<string | undefined>, disk: WorkspaceFiles = diskFiles): WorkspaceFiles {
  return {
    read: async (path) => (await openText(path)) ?? disk.read(path),
    write: (path, content) => disk.write(path, content),
  };
}

/**
 * Where an agent may read and write: `path` inside `root`, resolved through the symbolic links that exist
 * (a link inside the workspace must not lead out of it). Undefined when it is not absolute or leads out.
 */
export function insideWorkspace(root: string, path: string): string | undefined {
  if (!isAbsolute(path)) return undefined;
  const realRoot = realOf(resolve(root));
  const target = realOf(resolve(path));
  const rel = relative(realRoot, target);
  return rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel) ? undefined : target;
}

/** The real path of `path`'s longest existing ancestor, with the rest appended. */
function realOf(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const rest = relative(existing, path);
  const real = existsSync(existing) ? realpathSync(existing) : existing;
  return rest === '' ? real : resolve(real, rest);
}

/** ACP's `line` (1-based) and `limit` (lines) of a read, applied to `text`. */
export function linesOf(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}

/** Whether two texts are the same file content, whatever line endings an editor chose. */
export function sameText(a: string | undefined, b: string): boolean {
  return a !== undefined && a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}
