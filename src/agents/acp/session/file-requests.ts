import * as acp from '@agentclientprotocol/sdk';
import { insideWorkspace, linesOf, sameText, type WorkspaceFiles } from '../../../files/workspace-files.js';

/** The path of an agent's `fs/*` request, if it lies inside the workspace; else an ACP error the agent can read. */
export function workspacePath(root: string, path: string, method: string): string {
  const inside = insideWorkspace(root, path);
  if (inside === undefined) {
    throw acp.RequestError.invalidParams({ path }, `${method}: ${path} is not an absolute path inside the workspace (${root}); the client reads and writes only there`);
  }
  return inside;
}

/**
 * Whether the agent must read a missing file as empty. Gemini CLI (0.61) checks an `fs/read_text_file` error
 * for "Resource not found" in its message, but its ACP SDK rejects with the bare JSON-RPC error object, whose
 * message that check never sees: a not-found answer makes its `write_file` fail ("Error checking existing
 * file") instead of creating the file. Qwen Code reads the error's code, as ACP intends.
 */
export function readsMissingAsEmpty(init: acp.InitializeResponse): boolean {
  return init.agentInfo?.name === 'gemini-cli';
}

/**
 * Whether the agent's `fs/write_text_file` only proposes an edit it then makes by itself. OpenCode (1.18)
 * sends it without waiting for the answer once the person allowed an edit, and writes the file right after:
 * through the consumer's edit tool, which runs only after the response ends, the edit would find its own
 * file already changed and fail. Its proposal is written as any client writes it; the answer shows the diff.
 */
export function proposesEditsItMakes(init: acp.InitializeResponse): boolean {
  return init.agentInfo?.name === 'OpenCode';
}

/**
 * `fs/read_text_file`: the text the person sees (unsaved changes included), the lines asked for; a missing
 * file is ACP's resource-not-found error, or empty text for an agent that cannot read that error.
 */
export async function readTextFile(files: WorkspaceFiles, root: string, request: acp.ReadTextFileRequest, missingAsEmpty = false): Promise<acp.ReadTextFileResponse> {
  const path = workspacePath(root, request.path, 'fs/read_text_file');
  const text = await files.read(path);
  if (text === undefined && missingAsEmpty) return { content: '' };
  if (text === undefined) throw acp.RequestError.resourceNotFound(path);
  return { content: linesOf(text, request.line, request.limit) };
}

/** How long an edit the consumer reported made may take to show in the file (Copilot saves it just after). */
const EDIT_LANDS_MS = 2000;
/** A read of the editor's text or the disk per poll, cheap; the wait overshoots the save by half of it (docs/benchmarks.md). */
const EDIT_POLL_MS = 10;

/** Whether the file at `path` comes to hold `content` soon: the consumer's tool result says how it went only in words. */
export async function editLanded(files: WorkspaceFiles, path: string, content: string): Promise<boolean> {
  for (const deadline = Date.now() + EDIT_LANDS_MS; ; await new Promise((resolve) => setTimeout(resolve, EDIT_POLL_MS))) {
    if (sameText(await files.read(path), content)) return true;
    if (Date.now() >= deadline) return false;
  }
}
