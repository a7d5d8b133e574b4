import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log/logger.js';
import type { AgentSlashCommand } from '../protocol/messages.js';
import { escapedCommand } from '../protocol/agent-command.js';
import { McpHttpServer } from './mcp-http.js';

/** The argument of a prompt whose command takes input (ACP `input.hint`). */
export const COMMAND_INPUT_ARGUMENT = 'input';

/**
 * An MCP server whose prompts are an agent's slash commands, for VS Code's Chat view, which lists an MCP
 * server's prompts in its `/` menu (`/mcp.<server>.<prompt>`) and, when one is picked, puts the text of
 * its messages into the chat input. That text is the command as the person types it to reach the agent's
 * own command (`//review src/a.ts`, agent-command.ts), so it reaches the agent as `/review src/a.ts`
 * whatever Copilot's own commands are named. The prompts change with the list (`prompts/list_changed`).
 */
export class CommandPromptsServer {
  private prompts: Prompt[] = [];

  private constructor(private readonly mcp: McpHttpServer) {}

  static async start(log: Logger): Promise<CommandPromptsServer> {
    let served: CommandPromptsServer | undefined;
    const mcp = await McpHttpServer.start({
      label: 'command prompts',
      log,
      limits: { maxSessions: 8, idleMs: 24 * 60 * 60 * 1000 },
      serve: () => {
        const server = new Server({ name: 'symposium-agent-commands', version: '0.1.0' }, { capabilities: { prompts: { listChanged: true } } });
        server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: served?.prompts ?? [] }));
        server.setRequestHandler(GetPromptRequestSchema, (request): GetPromptResult => {
          const { name, arguments: args = {} } = request.params;
          const text = escapedCommand(name, args[COMMAND_INPUT_ARGUMENT] ?? '');
          return { messages: [{ role: 'user', content: { type: 'text', text } }] };
        });
        return server;
      },
    });
    served = new CommandPromptsServer(mcp);
    return served;
  }

  get url(): string {
    return this.mcp.url;
  }

  get authorization(): string {
    return this.mcp.authorization;
  }

  /** The commands offered from now on; connected clients hear of a change. */
  setCommands(commands: readonly AgentSlashCommand[]): void {
    const next = commands.map(promptOf);
    if (JSON.stringify(next) === JSON.stringify(this.prompts)) return;
    this.prompts = next;
    this.mcp.notifyAll((server) => server.sendPromptListChanged().catch(() => {}));
  }

  close(): Promise<void> {
    return this.mcp.close();
  }
}

function promptOf(command: AgentSlashCommand): Prompt {
  return {
    name: command.name,
    description: command.description,
    ...(command.hint === undefined ? {} : { arguments: [{ name: COMMAND_INPUT_ARGUMENT, description: command.hint, required: false }] }),
  };
}
