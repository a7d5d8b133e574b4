/**
 * The built bridge driven through LmClient, for the tests with ACP agents: the bridge's log (which holds
 * the agents' stderr at debug level), requests with tools, and a close that waits for the process.
 */
import type { ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import path from 'node:path';
import { ResponseError, type CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { LmClient, textOfParts } from '../../src/client/lm-client.js';
import { AGENT_ACTION_TOOL, actionIdOf, approvalText } from '../../src/protocol/agent-action.js';
import type { AgentDefinition, Message, ResponsePart, ToolCallPart, ToolDefinition } from '../../src/protocol/messages.js';
export { RUN_IN_TERMINAL } from '../fixtures/run-in-terminal.js';

/** The built CLI; SYMPOSIUM_LM_CLI points the tests at another build (as in harness.ts). */
export const CLI = path.resolve(process.env.SYMPOSIUM_LM_CLI ?? 'dist/src/cli/main.js');
export const SCRIPTED_AGENT = path.resolve('dist/test/fixtures/scripted-agent.js');

/**
 * How long an agent may take to answer initialize and session/new. `npm run test:windows` raises it
 * (SYMPOSIUM_TEST_AGENT_TIMEOUT_MS): under Wine a Windows process takes seconds to start.
 */
export const AGENT_TIMEOUT_MS = Number(process.env.SYMPOSIUM_TEST_AGENT_TIMEOUT_MS ?? 3000);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const user = (...lines: string[]): Message => ({ role: 'user', content: [{ type: 'text', value: lines.join('\n') }] });
/** The assistant message VS Code builds from a response: its parts, as they came. */
export const replied = (parts: readonly ResponsePart[]): Message => ({ role: 'assistant', content: [...parts] });

/** The assistant message as Copilot builds it from a response: the streamed text joined, then the tool calls. */
export function assistantOf(parts: readonly ResponsePart[]): Message {
  const text = textOfParts(parts);
  return { role: 'assistant', content: [...(text === '' ? [] : [{ type: 'text' as const, value: text }]), ...toolCallsOf(parts)] };
}

/** The consumer's `symposium-agent-action` tool: offered, it lets the bridge ask the person. */
export const AGENT_ACTION: ToolDefinition = { name: AGENT_ACTION_TOOL, description: 'Confirms an action of the agent' };

/** Copilot Chat's edit tools, as its agent mode offers them. */
export const CREATE_FILE: ToolDefinition = { name: 'create_file', description: 'Creates a file', inputSchema: { type: 'object', properties: { filePath: { type: 'string' }, content: { type: 'string' } } } };
export const REPLACE_STRING: ToolDefinition = {
  name: 'replace_string_in_file',
  description: 'Replaces a string in a file',
  inputSchema: { type: 'object', properties: { filePath: { type: 'string' }, oldString: { type: 'string' }, newString: { type: 'string' } } },
};


/** VS Code's question tool, offered in Copilot's agent and Ask modes. */
export const ASK_QUESTIONS: ToolDefinition = { name: 'vscode_askQuestions', description: 'Asks the user questions', inputSchema: { type: 'object', properties: { questions: { type: 'array' } } } };

/** The tool calls among a response's parts. */
export const toolCallsOf = (parts: readonly ResponsePart[]): ToolCallPart[] => parts.filter((p): p is ToolCallPart => p.type === 'tool_call');

/** What the next request carries once VS Code ran the tool call `toolCallId`: its result, `text`. */
export const resultOf = (toolCallId: string, text: string): Message => ({ role: 'user', content: [{ type: 'tool_result', toolCallId, result: [{ type: 'text', value: text }] }] });

/** What Copilot's `create_file` (or `replace_string_in_file`) answers once it edited `file`. */
export const edited = (call: ToolCallPart, file: string): Message => resultOf(call.toolCallId, `The following files were successfully edited:\n${file}\n`);

/** A question of a `vscode_askQuestions` call, as far as the tests read it. */
export interface AskedQuestion {
  readonly header: string;
  readonly question: string;
  readonly options?: readonly { readonly label: string }[];
}

export const questionsOf = (call: ToolCallPart): AskedQuestion[] => (call.parameters as { questions: AskedQuestion[] }).questions;

/** What `vscode_askQuestions` answers when the person picks `option` in the question offering it and skips the others. */
export function picking(call: ToolCallPart, option: string): Message {
  const answers = Object.fromEntries(
    questionsOf(call).map((q) => [q.header, q.options?.some((o) => o.label === option) === true ? { selected: [option], freeText: null, skipped: false } : { selected: [], freeText: null, skipped: true }]),
  );
  return resultOf(call.toolCallId, JSON.stringify({ answers }));
}

/** The person allowed these `symposium-agent-action` calls: the results the confirmed tool returns. */
export function approvals(...calls: readonly ToolCallPart[]): Message {
  return {
    role: 'user',
    content: calls.map((call) => ({ type: 'tool_result', toolCallId: call.toolCallId, result: [{ type: 'text', value: approvalText(actionIdOf(call.parameters) ?? '') }] })),
  };
}

/** Results that are not consent: what Copilot records when the person skips a confirmation. */
export function skipped(...calls: readonly ToolCallPart[]): Message {
  return {
    role: 'user',
    content: calls.map((call) => ({ type: 'tool_result', toolCallId: call.toolCallId, result: [{ type: 'text', value: 'The user chose to skip the tool call, they want to proceed without running it' }] })),
  };
}

export class AgentBridge {
  readonly client: LmClient;
  readonly child: ChildProcess;
  private readonly log: Buffer[] = [];

  /** `env`: the bridge's environment (default: this process's). */
  constructor(args: string[] = [], env?: NodeJS.ProcessEnv) {
    ({ client: this.client, child: this.child } = LmClient.spawn({
      cliPath: CLI,
      args: ['--log-level', 'debug', '--eliza-pace-ms', '1', '--agent-timeout-ms', String(AGENT_TIMEOUT_MS), '--cancel-timeout-ms', '1500', ...args],
      stderr: 'pipe',
      ...(env === undefined ? {} : { env }),
    }));
    this.child.stderr!.on('data', (chunk: Buffer) => this.log.push(chunk));
  }

  stderr(): string {
    return Buffer.concat(this.log).toString('utf8');
  }

  /** The log once it matches `pattern` (stderr is another pipe: it may trail the response). */
  async logged(pattern: RegExp, timeoutMs = 3000): Promise<string> {
    for (let waited = 0; waited < timeoutMs && !pattern.test(this.stderr()); waited += 20) await sleep(20);
    return this.stderr();
  }

  chat(messages: Message[], agent: AgentDefinition, tools: ToolDefinition[] = [], token?: CancellationTokenSource): Promise<ResponsePart[]> {
    return this.client.collectChatResponse({ modelId: 'scripted', messages, agent, options: { tools } }, token?.token);
  }

  async close(): Promise<void> {
    this.client.dispose();
    this.child.stdin!.end();
    const exited = new Promise((resolve) => (this.child.exitCode !== null || this.child.signalCode !== null ? resolve(undefined) : this.child.once('exit', resolve)));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** The JSON-RPC error a request failed with. */
export async function rejection(promise: Promise<unknown>): Promise<ResponseError<unknown>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ResponseError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** Whether a TCP connection to address:port is accepted. */
export function connects(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: address, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
