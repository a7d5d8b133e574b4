import type * as acp from '@agentclientprotocol/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../log/logger.js';
import { BRIDGED_TOOLS_SERVER_NAME, type BridgedCall } from '../../tools/bridged-tools-server.js';
import { declinedResult } from '../../tools/tool-results.js';
import { RELAY_URL_ENV } from '../../tools/relay-env.js';

/**
 * Whether the agent holds MCP servers per workspace folder rather than per session, as ACP means them.
 * OpenCode (1.18) adds a session's servers to its instance for the folder by name (`mcp.add`): the session
 * opened or loaded last replaces the server of that name for every session in the folder. The bridge's tool
 * server of one conversation (or of a spare) then serves all of them, so the tools each model sees are those
 * of the conversation that opened last, and a call reaches that conversation's server whoever made it.
 */
export function holdsMcpServersPerWorkspace(init: acp.InitializeResponse): boolean {
  return init.agentInfo?.name === 'OpenCode';
}

/** A header of the tool server's entry that changes each time a conversation gives the agent its server again. */
const CLAIM_HEADER = 'X-Symposium-Claim';

/**
 * Which of the bridge's tool servers an agent that holds MCP servers per workspace holds. Requests that open
 * sessions (`session/new`, `/load`, `/resume`) go one at a time, each once the one before it was answered, so
 * the session that opened last is the one whose tool server the agent holds, not a spare whose opening took
 * longer than a conversation's after it.
 */
export class HeldToolServer {
  private lastOpening: Promise<void> = Promise.resolve();
  /** The address of the tool server the agent holds: the one of the session opened last with one. */
  private address: string | undefined;
  private claims = 0;

  /** Sends a request that opens a session with `mcpServers`, after the one before it was answered. */
  opening<T>(mcpServers: readonly acp.McpServer[], send: () => Promise<T>): Promise<T> {
    const sent = this.lastOpening.then(send);
    this.lastOpening = sent.then(
      () => {
        this.address = toolServerAddressOf(mcpServers) ?? this.address;
      },
      () => {},
    );
    return sent;
  }

  /** Whether the agent holds the tool server at `url`. */
  holds(url: string): boolean {
    return this.address === url;
  }

  /**
   * The entry that gives the agent `server` again when a session is resumed with it. OpenCode registers a
   * session's server anew only when its entry changed since that session last registered it: a header differs.
   */
  claim(server: acp.McpServerHttp): acp.McpServer {
    return { type: 'http', ...server, headers: [...server.headers, { name: CLAIM_HEADER, value: String(++this.claims) }] };
  }
}

/** The address of the bridged tool server among a session's MCP servers: its URL, or the one its relay is given. */
function toolServerAddressOf(mcpServers: readonly acp.McpServer[]): string | undefined {
  const server = mcpServers.find((s) => s.name === BRIDGED_TOOLS_SERVER_NAME);
  if (server === undefined) return undefined;
  return 'url' in server ? server.url : server.env.find((v) => v.name === RELAY_URL_ENV)?.value;
}

/** A conversation whose tool server a call may have been meant for. */
interface ToolCallTaker {
  readonly conversationId: string;
  takesToolCall(name: string): boolean;
  onToolCall(call: BridgedCall): Promise<CallToolResult>;
}

/**
 * A call that reached a tool server outside its conversation's turns, where the agent holds one tool server for all
 * its sessions (`perWorkspace`, the conversations there): the call of whichever conversation that offered the tool
 * is in a turn, if only one is; otherwise a call outside every turn, declined.
 */
export function callOfTheTurnInProgress(agentName: string, log: Logger, perWorkspace: readonly ToolCallTaker[], call: BridgedCall): Promise<CallToolResult> {
  const inTurn = new Set(perWorkspace.filter((conversation) => conversation.takesToolCall(call.name)));
  const [session] = inTurn;
  if (inTurn.size === 1 && session !== undefined) {
    log.debug(`agent ${agentName}: a call of ${call.name} reached the tool server of a conversation not in a turn; conversation ${session.conversationId}, the one in a turn, takes it`);
    return session.onToolCall(call);
  }
  const why = inTurn.size === 0 ? 'no conversation offered it is in a turn' : `${inTurn.size} conversations offered it are in a turn, and which made it is not known`;
  log.info(`agent ${agentName}: a call of ${call.name} reached the tool server of a conversation in no turn, and ${why}: declined`);
  return Promise.resolve(declinedResult(call.name));
}
