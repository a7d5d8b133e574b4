import { ResponseError } from 'vscode-jsonrpc/node.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import type { ChatRequestOptions, ToolDefinition } from '../protocol/messages.js';

/** How many tool lists are kept: a client names the one it sent last; a few more cover clients that alternate. */
export const TOOL_LISTS_KEPT = 8;

/**
 * The tool lists requests carried with a `toolListId`, so that later requests can name one instead of
 * carrying it again. Requests are read in the order the client sent them, so a request naming a list
 * always comes after the one that carried it.
 */
export class ToolLists {
  /** In order of last use, oldest first. */
  private readonly lists = new Map<number, ToolDefinition[]>();

  constructor(private readonly kept = TOOL_LISTS_KEPT) {}

  /** The options with their tools: those they carry (kept under their id), or those their id names. */
  resolve(options: ChatRequestOptions | undefined): ChatRequestOptions | undefined {
    const id = options?.toolListId;
    if (options === undefined || id === undefined) return options;
    const tools = options.tools ?? this.lists.get(id);
    if (tools === undefined) {
      throw new ResponseError(ProtocolErrorCodes.UnknownToolList, `options.toolListId: no tool list ${id} is kept here; send the request again with its tools.`);
    }
    this.lists.delete(id);
    this.lists.set(id, tools);
    if (this.lists.size > this.kept) this.lists.delete(this.lists.keys().next().value!);
    return options.tools === undefined ? { ...options, tools } : options;
  }
}
