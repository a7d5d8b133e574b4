/**
 * An agent's file write as a call of the consumer's own edit tool, so that the consumer makes the edit and
 * reviews it (Copilot's agent mode lists it with Keep / Undo). Copilot Chat's tools: `create_file
 * {filePath, content}` refuses a file that exists with content; `replace_string_in_file {filePath,
 * oldString, newString}` needs `oldString` to match the editor's text exactly, once. Roo Code's (and Kilo Code
 * legacy's) `write_to_file {path, content}` writes a whole file, the path relative to the workspace, after its
 * own diff view and approval; its `apply_diff {path, diff}` changes an existing file by SEARCH/REPLACE blocks
 * (Roo 3.52's format, below), shown in the same diff view with only the lines that change marked.
 */
import { relative } from 'node:path';

export interface ConsumerEdit {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export const CREATE_FILE_TOOL = 'create_file';
export const REPLACE_STRING_TOOL = 'replace_string_in_file';
export const WRITE_TO_FILE_TOOL = 'write_to_file';
export const APPLY_DIFF_TOOL = 'apply_diff';

/**
 * The call that turns the file at `path` (in the workspace `root`) from `current` (undefined: there is none) into
 * `content`, among the tools `offered`; undefined when none of them can make it. A change replaces only the lines
 * that changed (see changedLines), so that a one-line edit of a long file is a small call in the chat's history
 * and shows as that line's change: with Copilot's `replace_string_in_file`, or Roo's `apply_diff`; Roo's
 * `write_to_file` takes the whole text (a new file; a change apply_diff cannot say, or did not apply: `whole`).
 */
export function consumerEdit(offered: readonly string[], root: string, path: string, current: string | undefined, content: string, whole = false): ConsumerEdit | undefined {
  if (current === undefined || current === '') {
    if (offered.includes(CREATE_FILE_TOOL)) return { name: CREATE_FILE_TOOL, arguments: { filePath: path, content } };
  } else if (offered.includes(REPLACE_STRING_TOOL)) {
    return { name: REPLACE_STRING_TOOL, arguments: { filePath: path, ...changedLines(current, content) } };
  } else if (!whole && offered.includes(APPLY_DIFF_TOOL)) {
    const diff = searchReplaceBlock(current, changedLines(current, content));
    if (diff !== undefined) return { name: APPLY_DIFF_TOOL, arguments: { path: relative(root, path), diff } };
  }
  return offered.includes(WRITE_TO_FILE_TOOL) ? { name: WRITE_TO_FILE_TOOL, arguments: { path: relative(root, path), content } } : undefined;
}

/** Lines Roo's apply_diff reads as its markers unless escaped with a backslash. */
const DIFF_MARKER = /^(<<<<<<<|=======|>>>>>>>|-------|:start_line:|:end_line:)/gm;

/**
 * A change of `current` as one block of Roo's apply_diff: `<<<<<<< SEARCH`, `:start_line:N`, `-------`, the lines
 * to find, `=======`, the lines that replace them, `>>>>>>> REPLACE`. Roo reads both sides as lines: a side that
 * ends without a line break where the other has one (a change of the file's last line break) it cannot say, nor a
 * line that begins with a backslash where a marker would be escaped: undefined.
 */
export function searchReplaceBlock(current: string, change: { oldString: string; newString: string }): string | undefined {
  const { oldString, newString } = change;
  const ending = oldString.endsWith('\n');
  if (newString !== '' && newString.endsWith('\n') !== ending) return undefined;
  if (/^\\/m.test(oldString) || /^\\/m.test(newString)) return undefined;
  const startLine = current.slice(0, current.indexOf(oldString)).split('\n').length;
  const lines = (text: string) => (ending ? text.slice(0, -1) : text).replace(DIFF_MARKER, '\\$1');
  return `<<<<<<< SEARCH\n:start_line:${startLine}\n-------\n${lines(oldString)}\n=======\n${newString === '' ? '' : `${lines(newString)}\n`}>>>>>>> REPLACE`;
}

/** How many lines around a change are tried for a stretch that occurs once, before the whole text is replaced. */
const MAX_CONTEXT_LINES = 20;

/**
 * The stretch of whole lines from the first that differs to the last, widened by as few lines around it as
 * make it occur exactly once in `current` (replace_string_in_file's condition); the whole text where none do.
 */
export function changedLines(current: string, content: string): { oldString: string; newString: string } {
  const before = linesOf(current);
  const after = linesOf(content);
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same++;
  let sameEnd = 0;
  while (sameEnd < before.length - same && sameEnd < after.length - same && before[before.length - 1 - sameEnd] === after[after.length - 1 - sameEnd]) sameEnd++;
  for (let context = 0; context <= MAX_CONTEXT_LINES; context++) {
    const from = Math.max(0, same - context);
    const keptEnd = Math.max(0, sameEnd - context);
    const oldString = before.slice(from, before.length - keptEnd).join('');
    if (oldString !== '' && occursOnce(current, oldString)) return { oldString, newString: after.slice(from, after.length - keptEnd).join('') };
    if (from === 0 && keptEnd === 0) break;
  }
  return { oldString: current, newString: content };
}

/** The lines of `text`, each with its line break (the last one may have none). */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function occursOnce(text: string, part: string): boolean {
  const first = text.indexOf(part);
  return first !== -1 && text.indexOf(part, first + 1) === -1;
}

/** Whether the consumer offers the tools with which any file can be written: a new one, and a change. */
export function offersEditTools(offered: readonly string[]): boolean {
  return (offered.includes(CREATE_FILE_TOOL) && offered.includes(REPLACE_STRING_TOOL)) || offered.includes(WRITE_TO_FILE_TOOL);
}
