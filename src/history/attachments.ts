/**
 * What the person attached to a message or mentioned in it, as a consumer sends it: files, selections, folders,
 * and texts such as problems or terminal output. A consumer renders them as text around or inside the person's
 * words (`copilot-attachments.ts`, `mention-attachments.ts` read each consumer's shapes); the bridge forwards them
 * to the agent as references it can read, with the text the consumer sent where the agent takes it. The bridge
 * reads no file for them: what it knows of an attachment is what the consumer wrote.
 */

/** Lines of a file, 1-based and inclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export type Attachment =
  /**
   * A file, or some of its lines (a selection, a symbol). `path` is as the consumer wrote it: absolute, relative to
   * the workspace, or a URI (`untitled:`, `vscode-notebook-cell:`). `text` is the text the consumer sent of those
   * lines (what the person saw, unsaved changes included); none when it sent only the path, a summary, a hexdump of
   * a binary file or an error.
   */
  | { readonly kind: 'file'; readonly path: string; readonly lines?: LineRange; readonly text?: string }
  | { readonly kind: 'folder'; readonly path: string }
  /** Text the person attached that is no file's: problems, terminal output, a tool's result, a web page. */
  | { readonly kind: 'note'; readonly label: string; readonly text: string };

/** Where a file or folder attachment points, for a reader that does not know the workspace: its path and lines. */
export function describeAttachment(attachment: Attachment): string {
  switch (attachment.kind) {
    case 'file':
      return attachment.lines === undefined ? `file ${attachment.path}` : `${attachment.path}, lines ${attachment.lines.start} to ${attachment.lines.end}`;
    case 'folder':
      return `folder ${attachment.path}`;
    case 'note':
      return attachment.label;
  }
}

/** The attachment as a reference only: what a reader gets where the text went another way (or not at all). */
export function referenceOnly(attachment: Attachment): Attachment | undefined {
  switch (attachment.kind) {
    case 'file':
      return { kind: 'file', path: attachment.path, ...(attachment.lines === undefined ? {} : { lines: attachment.lines }) };
    case 'folder':
      return attachment;
    case 'note':
      return undefined;
  }
}

/** An element of markup a consumer wrote: `<tag attrs>body</tag>` or `<tag attrs />`. */
export interface TagBlock {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  /** The text between the tags, one newline trimmed at each end (consumers put them there); none when self-closed. */
  readonly body?: string;
}

const ATTRIBUTE = /([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|[^\s"/>]+)/g;

/**
 * Attributes as consumers write them: Copilot as JSON (strings quoted and escaped, numbers and booleans bare),
 * Cline and Roo Code as plain quoted text.
 */
export function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(ATTRIBUTE)) {
    if (!value!.startsWith('"')) attrs[name!] = value!;
    else {
      try {
        const parsed: unknown = JSON.parse(value!);
        attrs[name!] = typeof parsed === 'string' ? parsed : value!.slice(1, -1);
      } catch {
        attrs[name!] = value!.slice(1, -1);
      }
    }
  }
  return attrs;
}

/** An opening tag at a position; attributes are bounded so that a stray `<` never makes a scan run far. */
const OPENING = /<([A-Za-z_][\w.-]*)((?:\s[^<>]{0,2000})?)>/y;

/**
 * Takes the top-level blocks of the given tags out of `text`: the blocks, and the text without them. Linear in the
 * text: a tag found unclosed once is not searched for again.
 */
export function takeBlocks(text: string, tags: ReadonlySet<string>): { rest: string; blocks: TagBlock[] } {
  const blocks: TagBlock[] = [];
  const unclosed = new Set<string>();
  let rest = '';
  let kept = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    OPENING.lastIndex = at;
    const open = OPENING.exec(text);
    const tag = open?.[1];
    if (open === null || tag === undefined || !tags.has(tag) || unclosed.has(tag)) continue;
    const rawAttrs = open[2] ?? '';
    const selfClosed = rawAttrs.trimEnd().endsWith('/');
    let end: number;
    let body: string | undefined;
    if (selfClosed) end = at + open[0].length;
    else {
      const closeTag = `</${tag}>`;
      const close = text.indexOf(closeTag, at + open[0].length);
      if (close < 0) {
        unclosed.add(tag);
        continue;
      }
      body = trimOneNewline(text.slice(at + open[0].length, close));
      end = close + closeTag.length;
    }
    blocks.push({ tag, attrs: parseAttributes(selfClosed ? rawAttrs.trimEnd().slice(0, -1) : rawAttrs), ...(body === undefined ? {} : { body }) });
    rest += text.slice(kept, at);
    kept = end;
    at = end - 1;
  }
  rest += text.slice(kept);
  return { rest, blocks };
}

function trimOneNewline(text: string): string {
  const start = text.startsWith('\r\n') ? 2 : text.startsWith('\n') ? 1 : 0;
  const end = text.endsWith('\r\n') ? text.length - 2 : text.endsWith('\n') ? text.length - 1 : text.length;
  return start <= end ? text.slice(start, end) : '';
}
