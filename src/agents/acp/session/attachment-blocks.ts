import type { ContentBlock } from '@agentclientprotocol/sdk';
import { extname, posix, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Attachment, LineRange } from '../../../history/attachments.js';

/**
 * How much text of what the person attached a prompt carries, in characters (about 50,000 tokens): attachments
 * are embedded in order while the total stays within it; past it they go as links, which the agent reads itself.
 * A file the consumer sent whole in a 20 MB message costs the prompt nothing then.
 */
export const MAX_EMBEDDED_CHARS = 200_000;

/** What is left of a prompt's MAX_EMBEDDED_CHARS. */
export class EmbeddingBudget {
  private left = MAX_EMBEDDED_CHARS;

  take(text: string): boolean {
    if (text.length > this.left) return false;
    this.left -= text.length;
    return true;
  }
}

export interface AttachmentOptions {
  /** The agent takes `resource` blocks (`promptCapabilities.embeddedContext`). */
  readonly embeddedContext: boolean;
  /** The workspace folder, against which relative paths are read. */
  readonly root: string;
}

/**
 * What the person attached, as ACP content. A file or selection is a `resource` with the text the consumer sent
 * (what the person saw, unsaved changes included) when the agent takes embedded resources and the budget allows;
 * else a `resource_link` the agent may read, followed by that text where there is some within the budget (text
 * every agent takes). A folder is a link; a note (problems, terminal output…) is text. The bridge reads no file
 * here: a path outside the workspace, with `..`, through a symlink, to a binary or missing file is only a link.
 * (The scripted agent of the tests knows these texts' first lines: it reads them as context.)
 */
export function attachmentBlocks(attachment: Attachment, options: AttachmentOptions, budget: EmbeddingBudget): ContentBlock[] {
  switch (attachment.kind) {
    case 'note':
      return [{ type: 'text', text: `${attachment.label}, as the person attached it:\n${attachment.text}` }];
    case 'folder': {
      const uri = uriOf(attachment.path, options.root);
      return [{ type: 'resource_link', uri, name: nameOf(attachment.path), mimeType: 'inode/directory', description: 'A folder the person attached.' }];
    }
    case 'file': {
      const uri = withLines(uriOf(attachment.path, options.root), attachment.lines);
      const mimeType = mimeTypeOf(attachment.path);
      const text = attachment.text;
      const fits = text !== undefined && budget.take(text);
      if (fits && options.embeddedContext) return [{ type: 'resource', resource: { uri, text, mimeType: mimeType ?? 'text/plain' } }];
      const title = attachment.lines === undefined ? undefined : `${nameOf(attachment.path)}, lines ${attachment.lines.start} to ${attachment.lines.end}`;
      const link: ContentBlock = { type: 'resource_link', uri, name: nameOf(attachment.path), ...(title === undefined ? {} : { title }), ...(mimeType === undefined ? {} : { mimeType }) };
      if (!fits) return [link];
      return [link, { type: 'text', text: `The text of ${title ?? nameOf(attachment.path)} as the person sees it (${uri}):\n${fenced(text)}` }];
    }
  }
}

/** A URI for a path as a consumer wrote it: one already a URI stays; a path is read against the workspace folder. */
export function uriOf(path: string, root: string): string {
  // Two or more letters before the colon: a URI scheme (`file:`, `untitled:`), not a Windows drive.
  if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(path)) return path;
  return pathToFileURL(resolve(root, path)).href;
}

/** The lines in the URI's fragment, as Zed writes a selection it mentions (`#L3:7`, 1-based). */
function withLines(uri: string, lines: LineRange | undefined): string {
  return lines === undefined ? uri : `${uri.replace(/#.*$/, '')}#L${lines.start}:${lines.end}`;
}

function nameOf(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const name = trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
  return name === '' ? path : name;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.c': 'text/x-c',
  '.css': 'text/css',
  '.go': 'text/x-go',
  '.html': 'text/html',
  '.java': 'text/x-java',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.py': 'text/x-python',
  '.rs': 'text/x-rust',
  '.sh': 'application/x-sh',
  '.ts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.txt': 'text/plain',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

function mimeTypeOf(path: string): string | undefined {
  return MIME_TYPES[extname(posix.basename(path.replace(/\\/g, '/'))).toLowerCase()];
}

/** A fence longer than any run of backticks in the text. */
function fenced(text: string): string {
  let longest = 2;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}
