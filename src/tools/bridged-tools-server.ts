import { randomBytes } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger.js';
import type { ToolDefinition } from '../protocol/messages.js';
import { sameJson } from '../protocol/canonical-json.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../protocol/bounded-depth.js';
import { McpHttpServer, type McpSessionLimits } from './mcp-http.js';

export type { McpSessionLimits } from './mcp-http.js';

/**
 * The name under which the bridged tools reach the agent (Claude Code calls them
 * `mcp__vscode-tools-<id>__<tool>`): unique to this bridge process, so that no other MCP server and
 * no tool of the agent's own can pass for one of them when a permission request is matched
 * (bridged-permission.ts).
 */
export const BRIDGED_TOOLS_SERVER_NAME = `vscode-tools-${randomBytes(3).toString('hex')}`;

/** An agent's call of a bridged tool, to be answered with the consumer's result. */
export interface BridgedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** Aborts when the agent gives up on the call. */
  readonly signal: AbortSignal;
}

/**
 * The synthetic MCP server through which the tools a VS Code consumer offers reach the agent: one per
 * conversation (an McpHttpServer: 127.0.0.1, a bearer token, bounded sessions). Tool calls go to `onCall`; the
 * tool list can change between requests and connected agents are told (`notifications/tools/list_changed`).
 */
export class BridgedToolsServer {
  private tools: Tool[] = [];
  /** What `tools` was made from, to know a list named again by its id (the same objects) at a glance. */
  private definitions: readonly ToolDefinition[] = [];

  private constructor(
    private readonly mcp: McpHttpServer,
    private readonly log: Logger,
  ) {}

  static async start(onCall: (call: BridgedCall) => Promise<CallToolResult>, log: Logger, limits?: McpSessionLimits): Promise<BridgedToolsServer> {
    let tools: BridgedToolsServer | undefined;
    const mcp = await McpHttpServer.start({
      label: 'bridged tools',
      log,
      limits,
      serve: () => {
        const server = new Server({ name: BRIDGED_TOOLS_SERVER_NAME, version: '0.1.0' }, { capabilities: { tools: { listChanged: true } } });
        server.setRequestHandler(ListToolsRequestSchema, () => {
          const offered = tools?.tools ?? [];
          log.debug(`bridged tools: the agent listed ${offered.length} tools`);
          return { tools: offered };
        });
        server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
          const { name, arguments: args = {} } = request.params;
          if (tools?.tools.some((t) => t.name === name) !== true) return { content: [{ type: 'text', text: notOfferedText(name) }], isError: true };
          // VS Code would hand them back in the next request, which the bridge would refuse: the call never leaves.
          if (nestedDeeperThan(args, MAX_JSON_DEPTH)) return { content: [{ type: 'text', text: `The arguments of ${name} are nested deeper than ${MAX_JSON_DEPTH} levels, which VS Code tools cannot take.` }], isError: true };
          return onCall({ name, arguments: args, signal: extra.signal });
        });
        return server;
      },
    });
    tools = new BridgedToolsServer(mcp, log);
    return tools;
  }

  get url(): string {
    return this.mcp.url;
  }

  /** The header the agent must send; handed to it in `session/new`, never logged. */
  get authorization(): string {
    return this.mcp.authorization;
  }

  get toolNames(): readonly string[] {
    return this.tools.map((t) => t.name);
  }

  /** How many MCP sessions are open. */
  get sessionCount(): number {
    return this.mcp.sessionCount;
  }

  /**
   * Offers `tools` from now on; connected agents hear of it when anything about them changed. Every request
   * offers them again (Copilot's agent mode: 40 tools, tens of KB of schemas), nearly always the same,
   * and mostly as the very objects of the last request (a list named by its `toolListId`): those are not
   * converted and compared again.
   */
  setTools(tools: readonly ToolDefinition[]): void {
    if (tools.length === this.definitions.length && tools.every((tool, i) => tool === this.definitions[i])) return;
    const next = tools.map(toMcpTool);
    const changed = !sameJson(next, this.tools);
    // Taken even when equal: it shares its schemas with `definitions`, so one copy of them is kept, not two.
    this.definitions = tools;
    this.tools = next;
    if (changed) this.mcp.notifyAll((server) => server.sendToolListChanged().catch((error: unknown) => this.log.debug(`tools/list_changed not sent: ${String(error)}`)));
  }

  close(): Promise<void> {
    return this.mcp.close();
  }
}

/** Why a call of a tool the consumer does not offer now cannot run: the agent may have listed it before the chat's mode or tools changed. */
function notOfferedText(name: string): string {
  return `The tool ${name} is not offered in this chat now (its mode or its tools changed since you listed it), so it cannot run.`;
}

/** MCP requires an object schema; VS Code tools may come with none. */
function toMcpTool(tool: ToolDefinition): Tool {
  const schema = tool.inputSchema;
  const inputSchema =
    typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object'
      ? (schema as Tool['inputSchema'])
      : { type: 'object' as const, properties: {} };
  return { name: tool.name, description: tool.description, inputSchema };
}
