import { createInterface, type Interface } from 'node:readline';
import { text as readAll } from 'node:stream/consumers';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node.js';
import { LmClient } from '../client/lm-client.js';
import { endBridge } from '../client/end-bridge.js';
import { connectToHost } from '../host/connect-host.js';
import { ELIZA_MODEL } from '../agents/eliza/eliza-model.js';
import { ProtocolErrorCodes } from '../protocol/errors.js';
import { AGENT_ACTION_TOOL, actionIdOf, approvalText, askingToAllow } from '../protocol/agent-action.js';
import type { AgentDefinition, Message, ResponsePart, ToolCallPart, ToolDefinition } from '../protocol/messages.js';

export interface ChatOptions {
  /** One message to send, then exit; "-" reads it from stdin. */
  readonly prompt: string | undefined;
  readonly agent: AgentDefinition;
  /** Arguments for the `vscodelm` child (or a host started now). */
  readonly bridgeArgs: readonly string[];
  /** Join the person's agent host of this build (`--join-host`) instead of a bridge of its own, in `cwd`. */
  readonly host?: { readonly build: string; readonly cliPath: string; readonly cwd: string; /** of a host started now */ readonly args: readonly string[] };
}

/**
 * Plays VS Code's part: spawns `symposium-lm vscodelm`, keeps the whole history as VS Code does and
 * sends it with every request, and streams replies to the terminal as they arrive.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  const { client, end } = await bridgeOf(options);
  const session = new ChatSession(client, options.agent);
  try {
    if (options.prompt !== undefined) {
      const message = options.prompt === '-' ? (await readAll(process.stdin)).trim() : options.prompt;
      return (await session.send(message, undefined)) === 'failed' ? 1 : 0;
    }
    return await session.converse();
  } finally {
    client.dispose();
    await end();
  }
}

/** A bridge of the chat's own, ended with it; or the agent host, which goes on for the other windows. */
async function bridgeOf(options: ChatOptions): Promise<{ client: LmClient; end: () => Promise<void> }> {
  if (options.host === undefined) {
    const { client, child } = LmClient.spawn({ args: options.bridgeArgs });
    return { client, end: () => endBridge(child) };
  }
  const { build, cliPath, cwd, args } = options.host;
  const { client, socket } = await connectToHost({ bridgePath: cliPath, build, args }, { cwd });
  return { client, end: async () => void socket.destroy() };
}

type Outcome = 'answered' | 'rejected' | 'cancelled' | 'failed';

/** Offered when there is someone to ask: an agent's permission requests then come as calls of it. */
const AGENT_ACTION: ToolDefinition = { name: AGENT_ACTION_TOOL, description: "Asks the user to allow an agent's action." };

/** Asks the user to allow an agent's action; resolves false when there is no one to ask. */
type Confirm = (question: string) => Promise<boolean>;

/**
 * The chat's own commands, as VS Code's buttons: every other line, `/…` included, is a message for the agent (its own
 * slash commands among them).
 */
const CHAT_COMMANDS = /^\/(retry|undo|edit)(?:\s+([^]*))?$/;
const CHAT_COMMANDS_HELP = '/retry asks the last request again in place of its answer; /undo takes the last exchange back; /edit TEXT asks TEXT in place of the last request';

class ChatSession {
  private readonly history: Message[] = [];
  /** Where each exchange of `history` begins: its request. */
  private readonly exchanges: number[] = [];
  private running: CancellationTokenSource | undefined;

  constructor(
    private readonly client: LmClient,
    private readonly agent: AgentDefinition,
  ) {}

  /**
   * Sends one user message and streams the reply to stdout. Permission requests are asked as VS Code
   * asks them: approving all sends their approvals and the turn goes on; rejecting one cancels the turn,
   * which then leaves the history. Without `confirm` (no terminal) nothing can be asked, the tool is not
   * offered, and the bridge refuses what the agent asks, saying so.
   */
  async send(text: string, confirm: Confirm | undefined): Promise<Outcome> {
    const exchange: Message[] = [{ role: 'user', content: [{ type: 'text', value: text }] }];
    const tools = confirm === undefined ? [] : [AGENT_ACTION];
    for (;;) {
      const parts = await this.respond([...this.history, ...exchange], tools);
      if (typeof parts === 'string') return parts;
      exchange.push({ role: 'assistant', content: parts });
      const calls = parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
      if (calls.length === 0) {
        this.exchanges.push(this.history.length);
        this.history.push(...exchange);
        return 'answered';
      }
      for (const call of calls) {
        const allowed = call.toolName === AGENT_ACTION_TOOL && confirm !== undefined && (await confirm(permissionQuestion(call)));
        if (!allowed) {
          process.stderr.write(call.toolName === AGENT_ACTION_TOOL ? '(rejected: the turn is cancelled)\n' : `(the agent called ${call.toolName}, a tool this chat does not offer)\n`);
          return 'rejected';
        }
      }
      exchange.push({
        role: 'user',
        content: calls.map((call) => ({ type: 'tool_result', toolCallId: call.toolCallId, result: [{ type: 'text', value: approvalText(actionIdOf(call.parameters) ?? '') }] })),
      });
    }
  }

  /**
   * A chat command: going back as VS Code's Retry, Restore Checkpoint and an edited request do. The bridge sees the
   * shorter history and takes the agent back with it.
   */
  async command(name: string, text: string, confirm: Confirm | undefined): Promise<Outcome | 'nothing'> {
    const start = this.exchanges[this.exchanges.length - 1];
    if (start === undefined) {
      process.stderr.write(`(nothing to ${name}: no exchange yet)\n`);
      return 'nothing';
    }
    if (name === 'edit' && text === '') {
      process.stderr.write('(/edit needs the words to ask instead: /edit TEXT)\n');
      return 'nothing';
    }
    const request = this.history[start]!.content.map((part) => (part.type === 'text' ? part.value : '')).join('');
    this.exchanges.pop();
    this.history.splice(start);
    if (name === 'undo') {
      process.stderr.write(`(taken back: ${request})\n`);
      return 'nothing';
    }
    return this.send(name === 'retry' ? request : text, confirm);
  }

  /** One request: its parts, or how it ended without them. */
  private async respond(messages: Message[], tools: ToolDefinition[]): Promise<ResponsePart[] | Exclude<Outcome, 'answered' | 'rejected'>> {
    const parts: ResponsePart[] = [];
    const cancellation = (this.running = new CancellationTokenSource());
    const modelId = 'eliza' in this.agent ? ELIZA_MODEL.id : this.agent.mcp_server.name;
    try {
      await this.client.provideChatResponse(
        { modelId, messages, agent: this.agent, options: { tools } },
        (part) => {
          parts.push(part);
          if (part.type === 'text') process.stdout.write(part.value);
        },
        cancellation.token,
      );
      if (parts.some((p) => p.type === 'text')) process.stdout.write('\n');
      return parts;
    } catch (error) {
      if (parts.length > 0) process.stdout.write('\n');
      // Like VS Code, a cancelled or failed exchange does not join the history.
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
   * prompt, or pressed again, it exits. Only a terminal can answer permission requests.
   */
  async converse(): Promise<number> {
    const interactive = process.stdin.isTTY === true;
    const lines = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, prompt: 'you> ' });
    const reader = new LineReader(lines);
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
    const confirm: Confirm | undefined = interactive
      ? async (question) => {
          process.stdout.write(`${question} [y/N] `);
          return /^y(es)?$/i.test((await reader.next())?.trim() ?? '');
        }
      : undefined;
    let failed = false;
    if (interactive) {
      process.stdout.write(`(${CHAT_COMMANDS_HELP})\n`);
      lines.prompt();
    }
    for (let line = await reader.next(); line !== undefined; line = await reader.next()) {
      const text = line.trim();
      const command = CHAT_COMMANDS.exec(text);
      const outcome = text === '' ? 'nothing' : command !== null ? await this.command(command[1]!, command[2]?.trim() ?? '', confirm) : await this.send(text, confirm);
      failed = outcome === 'failed' || failed;
      if (interactive) lines.prompt();
    }
    return failed ? 1 : 0;
  }
}

function permissionQuestion(call: ToolCallPart): string {
  return askingToAllow(call.parameters);
}

/** Lines on demand, so that a permission question can read its answer between messages. */
class LineReader {
  private readonly queued: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private closed = false;

  constructor(lines: Interface) {
    lines.on('line', (line) => {
      if (this.waiting !== undefined) {
        this.waiting(line);
        this.waiting = undefined;
      } else {
        this.queued.push(line);
      }
    });
    lines.on('close', () => {
      this.closed = true;
      this.waiting?.(undefined);
    });
  }

  next(): Promise<string | undefined> {
    if (this.queued.length > 0) return Promise.resolve(this.queued.shift());
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}
