import { createInterface } from 'node:readline';
import { text as readAll } from 'node:stream/consumers';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node.js';
import { LmClient, textOfParts } from '../client/lm-client.js';
import { ELIZA_MODEL } from '../agents/models.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import type { AgentDefinition, Message, ResponsePart } from '../protocol/messages.js';

export interface ChatOptions {
  /** One message to send, then exit; "-" reads it from stdin. */
  readonly prompt: string | undefined;
  readonly agent: AgentDefinition;
  /** Arguments for the `vscodelm` child. */
  readonly bridgeArgs: readonly string[];
}

/**
 * Plays VS Code's part: spawns `symposium-lm vscodelm`, keeps the whole history as VS Code does and
 * sends it with every request, and streams replies to the terminal as they arrive.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  const { client, child } = LmClient.spawn({ args: options.bridgeArgs });
  const session = new ChatSession(client, options.agent);
  try {
    if (options.prompt !== undefined) {
      const message = options.prompt === '-' ? (await readAll(process.stdin)).trim() : options.prompt;
      return (await session.send(message)) === 'failed' ? 1 : 0;
    }
    return await session.converse();
  } finally {
    client.dispose();
    child.kill();
  }
}

type Outcome = 'answered' | 'cancelled' | 'failed';

class ChatSession {
  private readonly history: Message[] = [];
  private running: CancellationTokenSource | undefined;

  constructor(
    private readonly client: LmClient,
    private readonly agent: AgentDefinition,
  ) {}

  /** Sends one user message and streams the reply to stdout. */
  async send(text: string): Promise<Outcome> {
    const user: Message = { role: 'user', content: [{ type: 'text', value: text }] };
    const parts: ResponsePart[] = [];
    const cancellation = (this.running = new CancellationTokenSource());
    try {
      await this.client.provideChatResponse(
        { modelId: 'eliza' in this.agent ? ELIZA_MODEL.id : this.agent.mcp_server.name, messages: [...this.history, user], agent: this.agent },
        (part) => {
          parts.push(part);
          if (part.type === 'text') process.stdout.write(part.value);
        },
        cancellation.token,
      );
      process.stdout.write('\n');
      // Like VS Code, only an answered exchange joins the history; a cancelled one is dropped.
      this.history.push(user, { role: 'assistant', content: [{ type: 'text', value: textOfParts(parts) }] });
      return 'answered';
    } catch (error) {
      if (parts.length > 0) process.stdout.write('\n');
      if (error instanceof ResponseError && error.code === ProtocolErrorCodes.RequestCancelled) {
        process.stderr.write('(cancelled)\n');
        return 'cancelled';
      }
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      return 'failed';
    } finally {
      this.running = undefined;
    }
  }

  /**
   * Reads messages line by line, from a terminal or a pipe. Ctrl-C cancels the running reply; at the
   * prompt, or pressed again, it exits.
   */
  async converse(): Promise<number> {
    const interactive = process.stdin.isTTY === true;
    const lines = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, prompt: 'you> ' });
    let interruptedAt = 0;
    lines.on('SIGINT', () => {
      const now = Date.now();
      if (this.running !== undefined && now - interruptedAt > 1000) {
        interruptedAt = now;
        this.running.cancel();
      } else {
        lines.close();
        process.exit(130);
      }
    });
    let failed = false;
    if (interactive) lines.prompt();
    for await (const line of lines) {
      const text = line.trim();
      if (text !== '') failed = (await this.send(text)) === 'failed' || failed;
      if (interactive) lines.prompt();
    }
    return failed ? 1 : 0;
  }
}
