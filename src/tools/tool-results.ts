import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResultPart } from '../protocol/messages.js';

/** A VS Code tool result as the MCP call's result: text as text, images as images, other data as text. */
export function toCallToolResult(part: ToolResultPart): CallToolResult {
  const content: CallToolResult['content'] = [];
  for (const item of part.result) {
    if (item.type === 'text') content.push({ type: 'text', text: item.value });
    else if (item.mimeType.startsWith('image/')) content.push({ type: 'image', data: item.data, mimeType: item.mimeType });
    else if (isTextual(item.mimeType)) content.push({ type: 'text', text: Buffer.from(item.data, 'base64').toString('utf8') });
    // A bare-word mime type is Copilot bookkeeping, not content.
    else if (item.mimeType.includes('/')) content.push({ type: 'text', text: `[${item.mimeType} data, ${Buffer.from(item.data, 'base64').length} bytes]` });
  }
  return { content };
}

/** A tool result as text, for an agent told it rather than sent it: text as it is, other content by its mime type. */
export function toolResultText(part: ToolResultPart): string {
  return part.result.map((item) => (item.type === 'text' ? item.value : `(${item.mimeType})`)).join(' ');
}

/** The result of a call the user never let run: VS Code cancelled the turn (a rejected confirmation, a stop). */
export function declinedResult(toolName: string): CallToolResult {
  return { content: [{ type: 'text', text: `The user declined or cancelled the ${toolName} tool call.` }], isError: true };
}

/**
 * The result of a call VS Code never answered (the consumer's tool did not return: its terminal closed, the chat
 * was left): the agent may go on, knowing nothing of what the tool did.
 */
export function unansweredResult(toolName: string, afterMs: number): CallToolResult {
  const waited = afterMs >= 60_000 ? `${Math.round(afterMs / 60_000)} min` : afterMs >= 1000 ? `${Math.round(afterMs / 1000)} s` : `${afterMs} ms`;
  return { content: [{ type: 'text', text: `The ${toolName} tool call got no answer from VS Code within ${waited} and was given up: whether it ran, and what it did, is unknown.` }], isError: true };
}

function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /[/+]json$/.test(mimeType) || /[/+]xml$/.test(mimeType);
}
