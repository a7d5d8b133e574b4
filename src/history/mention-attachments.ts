/**
 * What the person `@`-mentioned in Cline, Roo Code or Kilo Code. Cline (3.x, and 4.x's `@/file`) and Kilo Code
 * legacy write each mention's content as a block after the words (Cline 4.x inside its `<user_input>`):
 * `<file_content path>`, `<folder_content path>`, `<workspace_diagnostics>`, `<terminal_output>`,
 * `<git_working_state>`, `<git_commit hash>`, `<url_content url>`. Roo Code 3.52 writes the last five so after its
 * `<user_message>`, and a mentioned file or folder as a text of its own shaped like its `read_file` result
 * (`[read_file for 'path']`, then `File: path` and numbered lines).
 */
import { takeBlocks, type Attachment, type TagBlock } from './attachments.js';

const NOTES: Readonly<Record<string, (attrs: Readonly<Record<string, string>>) => string>> = {
  workspace_diagnostics: () => 'Problems in the workspace',
  terminal_output: (attrs) => (attrs['name'] === undefined ? 'Terminal output' : `Output of the terminal ${attrs['name']}`),
  git_working_state: () => 'Working directory changes (git)',
  git_commit: (attrs) => `Git commit ${attrs['hash'] ?? ''}`.trim(),
  url_content: (attrs) => `Content of ${attrs['url'] ?? 'a web page'}`,
};

const MENTION_TAGS: ReadonlySet<string> = new Set(['file_content', 'folder_content', ...Object.keys(NOTES)]);

/** A mentioned file whose content the consumer could not give (missing, ignored, unreadable). */
const NOT_READ = /^(?:Error fetching content:|\(Failed to (?:read|access)|\(File .* is ignored)/;

/** The mention blocks in `text`, and the text without them. */
export function mentionAttachments(text: string): { rest: string; attachments: Attachment[] } {
  const fromTags = text.includes('<') ? takeBlocks(text, MENTION_TAGS) : { rest: text, blocks: [] };
  const roo = rooReadFiles(fromTags.rest);
  return { rest: roo.rest, attachments: [...fromTags.blocks.flatMap(fromBlock), ...roo.attachments] };
}

function fromBlock(block: TagBlock): Attachment[] {
  const body = block.body ?? '';
  const path = block.attrs['path'];
  if (block.tag === 'file_content') {
    if (path === undefined) return [];
    return [{ kind: 'file', path, ...(NOT_READ.test(body) ? {} : { text: body }) }];
  }
  if (block.tag === 'folder_content') return path === undefined ? [] : [{ kind: 'folder', path }];
  const label = NOTES[block.tag];
  return label === undefined || body.trim() === '' ? [] : [{ kind: 'note', label: label(block.attrs), text: body }];
}

const READ_FILE = "[read_file for '";
/**
 * Roo's header, then what follows it up to the next header or Roo's environment details (consumers' adjacent texts
 * are read joined, and Roo's file text ends without a line break: `2 | <environment_details>`).
 */
const READ_FILE_RESULT = /\[read_file for '([^'\n]*)'\]\n([\s\S]*?)(?=\[read_file for '|<environment_details>|$)/g;
/** A numbered line of Roo's file text: `  12 | text`. */
const NUMBERED = /^ *\d+ \| ?/;

function rooReadFiles(text: string): { rest: string; attachments: Attachment[] } {
  const first = text.indexOf(READ_FILE);
  if (first < 0) return { rest: text, attachments: [] };
  const attachments: Attachment[] = [];
  for (const [, path, result] of text.slice(first).matchAll(READ_FILE_RESULT)) {
    if (path!.endsWith('/')) attachments.push({ kind: 'folder', path: path! });
    else attachments.push({ kind: 'file', path: path!, ...rooFileText(path!, result!) });
  }
  return { rest: text.slice(0, first), attachments };
}

/** The file's text, when Roo sent all of it: its lines without their numbers. */
function rooFileText(path: string, result: string): { text?: string } {
  const header = `File: ${path}\n`;
  if (!result.startsWith(header)) return {};
  const lines = result.slice(header.length).replace(/\n$/, '').split('\n');
  if (!lines.every((line) => NUMBERED.test(line))) return {};
  return { text: lines.map((line) => line.replace(NUMBERED, '')).join('\n') };
}
