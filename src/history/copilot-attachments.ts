/**
 * What the person attached in Copilot Chat (0.67), from the prompt-tsx elements that render it: the `<attachments>`
 * block before the `<userRequest>` (`ChatVariables`: `FileVariable`, `FolderVariable`, `DiagnosticVariable`,
 * notebook cell outputs, string values), the prompt files (`PromptFile`) it renders inside `<userRequest>`,
 * before the person's words, and the active editor its input shows as a chip (`<editorContext>`: the file, and the
 * lines selected in it). Images come as data parts, not here.
 */
import { takeBlocks, type Attachment, type TagBlock } from './attachments.js';

const ATTACHMENTS_OPEN = '<attachments>';
const ATTACHMENTS_CLOSE = '</attachments>';
const ELEMENTS: ReadonlySet<string> = new Set(['attachment', 'error', 'notebook-cell-output']);

/** The attachments in one of Copilot's context texts (what it wrote around the `<userRequest>`), if it has them. */
export function copilotAttachments(context: string): { rest: string; attachments: Attachment[] } {
  const open = context.indexOf(ATTACHMENTS_OPEN);
  // The last close: an attached file may itself contain the tag.
  const close = open < 0 ? -1 : context.lastIndexOf(ATTACHMENTS_CLOSE);
  const found = close >= open + ATTACHMENTS_OPEN.length;
  const attachments = found ? fromElements(takeBlocks(context.slice(open + ATTACHMENTS_OPEN.length, close), ELEMENTS).blocks) : [];
  const rest = found ? context.slice(0, open) + context.slice(close + ATTACHMENTS_CLOSE.length) : context;
  // The active editor, unless the person attached that file another way already: one reference per file.
  const editor = activeEditor(rest);
  if (editor !== undefined && !attachments.some((a) => a.kind === 'file' && a.path === editor.path)) attachments.push(editor);
  return { rest, attachments: distinct(attachments) };
}

/**
 * The file of the active editor, as Copilot names it in `<editorContext>` (`CurrentEditorContext`), and the lines
 * selected in it: a reference only, whose text the agent reads if it needs it. The input shows it as a chip; Copilot
 * names it whether or not the person left that chip there, so it counts as attached.
 */
const EDITOR_CONTEXT = /<editorContext>\s*The user's current (?:file|notebook) is (.+?)\.(?: The current selection is from line (\d+) to line (\d+)\.)?\s*<\/editorContext>/;

function activeEditor(context: string): Extract<Attachment, { kind: 'file' }> | undefined {
  const found = EDITOR_CONTEXT.exec(context);
  if (found === null) return undefined;
  const [, path, start, end] = found;
  return { kind: 'file', path: path!, ...(start === undefined ? {} : { lines: { start: Number(start), end: Number(end) } }) };
}

/** Each attachment once: Copilot renders a selection twice when the person added it and it is the editor's too. */
function distinct(attachments: readonly Attachment[]): Attachment[] {
  const seen = new Set<string>();
  return attachments.filter((a) => {
    const key = JSON.stringify(a);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const PROMPT_FILE = 'Prompt instructions file:';

/**
 * The prompt files Copilot renders inside the `<userRequest>`, before the words, when the person runs one
 * (`/name`) or attaches it: each an `<attachment id filePath>` whose text begins "Prompt instructions file:".
 */
export function copilotPromptFiles(words: string): { rest: string; attachments: Attachment[] } {
  if (!words.includes(PROMPT_FILE)) return { rest: words, attachments: [] };
  const { rest, blocks } = takeBlocks(words, new Set(['attachment']));
  const promptFiles = blocks.filter((block) => block.body?.startsWith(PROMPT_FILE) === true && block.attrs['filePath'] !== undefined);
  // Anything else in that shape is the person's own text, left as they wrote it.
  if (promptFiles.length !== blocks.length) return { rest: words, attachments: [] };
  return {
    rest: rest.trim(),
    attachments: promptFiles.map((block) => ({ kind: 'file', path: block.attrs['filePath']!, text: block.body!.slice(PROMPT_FILE.length).replace(/^\r?\n/, '') })),
  };
}

/** "Excerpt from NAME, lines A to B:" then a fenced code block (`CodeSelection`), after an optional description line. */
const EXCERPT = /^(?:[^\n]*:\n)?Excerpt from ([^\n]*?)(?:, lines (\d+) to (\d+))?:\n(`{3,})[^\n]*\n([\s\S]*)\n\4$/;
/** The summary of the whole file Copilot adds after a selection of it (`CodeSummary` with this description). */
const ACTIVE_FILE = "User's active file for additional context:";
/** The first line of a code block Copilot wrote with its path (`FilePathMode.AsComment`). */
const FILEPATH_COMMENT = /^\s*(?:\/\/|#|--|<!--|\/\*|;|%|')\s*filepath:\s*(.*?)\s*(?:-->|\*\/)?\s*\n/;

function fromElements(blocks: readonly TagBlock[]): Attachment[] {
  const out: Attachment[] = [];
  const problems: string[] = [];
  for (const block of blocks) {
    if (block.tag === 'error') {
      problems.push(problemLine(block));
      continue;
    }
    if (block.tag === 'notebook-cell-output') {
      const { cellIndex, notebookPath } = block.attrs;
      if (block.body !== undefined) out.push({ kind: 'note', label: `Output of cell ${cellIndex ?? '?'} of the notebook ${notebookPath ?? ''}`.trim(), text: block.body });
      continue;
    }
    const attachment = fromAttachment(block, out);
    if (attachment !== undefined) out.push(attachment);
  }
  if (problems.length > 0) out.push({ kind: 'note', label: 'Problems', text: problems.join('\n') });
  return out;
}

/** One `<attachment>`; the summary that follows a selection completes that selection (its path) instead. */
function fromAttachment(block: TagBlock, before: Attachment[]): Attachment | undefined {
  const { attrs, body } = block;
  const { id, filePath, folderPath } = attrs;
  if (folderPath !== undefined) return { kind: 'folder', path: folderPath };
  if (filePath !== undefined) {
    if (body?.startsWith(ACTIVE_FILE) === true) {
      const excerpt = before.at(-1);
      if (excerpt?.kind === 'file' && excerpt.lines !== undefined && excerpt.path === basename(filePath)) {
        before[before.length - 1] = { ...excerpt, path: filePath };
        return undefined;
      }
    }
    // A summary (parts of the file left out) is not the file's text; nor is a file named with no text (contents omitted).
    const summaryOrNone = body === undefined || body === '' || attrs['isSummarized'] === 'true' || body.startsWith(ACTIVE_FILE);
    return { kind: 'file', path: filePath, ...(summaryOrNone ? {} : { text: body }) };
  }
  // A binary file: Copilot sends a hexdump of its first bytes, under the reference's name (`file:NAME` when typed as #file).
  if (attrs['totalSize'] !== undefined) return id === undefined ? undefined : { kind: 'file', path: id.replace(/^file:(?!\/\/)/, '') };
  if (body === undefined) return undefined;
  const excerpt = EXCERPT.exec(body);
  if (excerpt !== null) {
    const [, name, start, end, , code] = excerpt;
    const withPath = FILEPATH_COMMENT.exec(code!);
    const text = withPath === null ? code! : code!.slice(withPath[0].length);
    const lines = start === undefined ? {} : { lines: { start: Number(start), end: Number(end) } };
    return { kind: 'file', path: withPath?.[1] ?? name!, ...lines, text };
  }
  const tool = attrs['tool'];
  return { kind: 'note', label: tool !== undefined ? `The result of the tool ${tool}` : id !== undefined ? id : 'An attachment', text: body };
}

function problemLine({ attrs, body }: TagBlock): string {
  const where = [attrs['path'], attrs['line']].filter((s) => s !== undefined).join(':');
  const what = [attrs['severity'], attrs['code'] !== undefined && attrs['code'] !== 'undefined' ? attrs['code'] : undefined].filter((s) => s !== undefined).join(' ');
  return `${where}${what === '' ? '' : ` ${what}`}: ${(body ?? '').trim()}`;
}

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
