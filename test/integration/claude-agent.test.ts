/**
 * The real Claude agent through the real bridge, offline: the built `symposium-lm vscodelm` spawns
 * `claude-agent-acp` (and with it the Claude Code binary), which talks to a scripted mock of the
 * Anthropic Messages API (test/fixtures/anthropic-mock.ts). Needs `npx tsc -p .` first (npm test does it).
 *
 * One bridge, one mock and therefore one agent process serve every test; each test is its own chat, so
 * its own ACP session. The mock routes a conversation's requests to that test's script by the chat's
 * first user message, and a test reads what the model saw through the same key. Side requests (session
 * titles, prompt suggestions) get the mock's default answers.
 *
 * Claude's config (its fresh CLAUDE_CONFIG_DIR) adds one MCP server of the person's own, an `accounts` server
 * whose tool sends the person to a sign-in page (MCP URL elicitation), with that tool allowed.
 *
 * The last test shuts the bridge down and checks that no process of ours is left (found through the
 * fresh HOME every agent process inherits); afterAll kills, by pid, anything that test left behind.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { LmClient, textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentCommandsParams, AgentDefinition, AgentInfoParams, Message, OpenUrlParams, ResponsePart } from '../../src/protocol/messages.js';
import { AGENT_ACTION as AGENT_ACTION_DEFINITION, ASK_QUESTIONS, CREATE_FILE, REPLACE_STRING, RUN_IN_TERMINAL, approvals, assistantOf, edited, picking, questionsOf, resultOf, skipped, toolCallsOf, user } from './agent-bridge.js';
import { chatWith, expectWeatherCalledThroughBridge, WEATHER, type ChatOptions } from './catalog-agent-suite.js';
import {
  AnthropicMock,
  blocksOf,
  isTextBlock,
  isToolResultBlock,
  isToolUseBlock,
  lastToolResults,
  lastUserText,
  messagesOf,
  sessionIdOf,
  toolResultText,
  toolUseReply,
  toolUses,
  userTexts,
  type ApiToolResultBlock,
  type MessagesRequest,
} from '../fixtures/anthropic-mock.js';
import { textReply, type RecordedRequest, type Reply } from '../fixtures/model-api-mock.js';
import { processesWithHome } from '../fixtures/home-processes.js';
import { SignInMcpServer } from '../fixtures/sign-in-mcp-server.js';
import { waitUntil } from '../fixtures/wait-until.js';
import { claudeAgentPaths, INSTALL_TIMEOUT_MS } from '../fixtures/agent-install.js';
import { BUILTIN_AGENTS } from '../../src/extension/agents/agent-catalog.js';

/** The built CLI (jest runs from the repository root); SYMPOSIUM_LM_CLI points the tests at another build. */
const CLI = path.resolve(process.env.SYMPOSIUM_LM_CLI ?? 'dist/src/cli/main.js');
/** claude-agent-acp, and Claude Code's own binary as it runs it (the devDependency's, or the version test:agents-latest names). */
let CLAUDE_AGENT_ACP: string;
let CLAUDE_CLI: string;
const TEST_TIMEOUT_MS = 60_000;
/** How long one response may take (the first one also starts the agent: a few seconds). */
const RESPONSE_MS = 30_000;
const AGENT_ACTION = AGENT_ACTION_DEFINITION.name;

// ---------------------------------------------------------------------------------------------------
// Messages as VS Code sends them.

/** The user message that approves tool calls, as VS Code sends it once the user clicked "Allow". */
const approve = approvals;

/** The parts a consumer shows: without bookkeeping data parts (the agent's context usage, Copilot's kind). */
function contentOf(parts: readonly ResponsePart[]): ResponsePart[] {
  return parts.filter((p) => !(p.type === 'data' && !p.mimeType.includes('/')));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON-RPC error code a rejected request carries, or 'resolved'. */
async function rejectionCode(promise: Promise<unknown>): Promise<number | 'resolved'> {
  try {
    await promise;
    return 'resolved';
  } catch (error: unknown) {
    if (isRecord(error) && typeof error.code === 'number') return error.code;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// What the model saw.

/** Every tool_result block of a request's messages, in order. */
function toolResultsIn(request: MessagesRequest): ApiToolResultBlock[] {
  return request.messages.flatMap((m) => blocksOf(m).filter(isToolResultBlock));
}

/** The assistant texts of a request's messages, in order. */
function assistantTexts(request: MessagesRequest): string[] {
  return request.messages
    .filter((m) => m.role === 'assistant')
    .map((m) => blocksOf(m).filter(isTextBlock).map((b) => b.text).join(''))
    .filter((text) => text !== '');
}

/** The requests of the main conversation of the chat that began with `first`, in order. */
function conversationOf(first: string): RecordedRequest[] {
  return mock.conversation().filter((r) => userTexts(messagesOf(r))[0] === first);
}

/** No two of these requests were in flight at once: each began after the one before had ended. */
function sequential(requests: readonly RecordedRequest[]): boolean {
  return requests.every((r, i) => {
    const previousEnd = i === 0 ? 0 : requests[i - 1].endedAt;
    return previousEnd !== undefined && r.receivedAt >= previousEnd;
  });
}

/**
 * The model's next step towards calling the deferred tool `name` (Claude Code loads MCP tools with ToolSearch
 * first): ToolSearch for it, then the call with `input`, then a reply that is `answer` of the call's results.
 */
function callDeferredTool(request: MessagesRequest, name: string, input: Readonly<Record<string, unknown>>, answer: (results: string) => string): Reply {
  const used = toolUses(request).map((u) => u.name);
  if (used.includes(name)) return textReply(answer(lastToolResults(request).map(toolResultText).join(' ')));
  if (used.includes('ToolSearch')) return toolUseReply(name, input);
  return toolUseReply('ToolSearch', { query: `select:${name}`, max_results: 1 });
}

// ---------------------------------------------------------------------------------------------------
// The shared bridge, mock and agent.

let mock: AnthropicMock;
/** An MCP server of the person's own, configured in Claude's config: its tool asks to open a sign-in page. */
let accounts: SignInMcpServer;
const CONNECT_ACCOUNT = 'mcp__accounts__connect_account';
let claude: AgentDefinition;
let workspace: string;
let home: string;
/** The bridge's --state-dir: the index of conversations a restarted bridge resumes from. */
let stateDir: string;
/** What the bridge reported about agents (symposium/agentInfo), in order. */
const agentInfos: AgentInfoParams[] = [];
let client: LmClient;
let bridge: ChildProcess;
const bridgeLog: Buffer[] = [];
/** A test's script: the reply to each request of its conversation, read in the Messages API's terms. */
type Script = (request: MessagesRequest) => Reply;
/** Each test's script, by the first user message of its chat. */
const scripts = new Map<string, Script>();
/** Scripts of chats whose first user message is not known ahead (a command Claude Code expands), by what it contains. */
const scriptsContaining = new Map<string, Script>();
/** What the bridge reported of the agent's slash commands (symposium/agentCommands), in order. */
const agentCommands: AgentCommandsParams[] = [];
/** The first user messages of conversation requests no test scripted, since the last test (there should be none). */
const unscripted: string[] = [];
/** Every pid seen running with our HOME, so that afterAll can kill exactly those. */
const ours = new Set<number>();

function logTail(lines = 40): string {
  return Buffer.concat(bridgeLog).toString('utf8').split('\n').slice(-lines).join('\n');
}

/** Sends a request through LmClient and collects its parts; fails with the bridge's log if it hangs. */
function chat(messages: readonly Message[], options?: ChatOptions): Promise<ResponsePart[]> {
  return chatWith({ client, modelId: 'claude', agent: claude, responseMs: RESPONSE_MS, logTail }, messages, options);
}

/** The processes whose environment holds our HOME: the agent, its Claude child, and whatever they started. */
const processesOfOurs = (): { pid: number; command: string }[] => processesWithHome(home);

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run \`npx tsc -p .\` before the integration tests`);
  ({ agent: CLAUDE_AGENT_ACP, cli: CLAUDE_CLI } = await claudeAgentPaths());
  // realpath: Claude reports the working directory resolved (/tmp may be a symlink).
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'claude-agent-test-')));
  workspace = path.join(root, 'workspace');
  home = path.join(root, 'home');
  mkdirSync(workspace);
  // A command of the person's own in the workspace, which Claude Code lists and runs as `/squawk`.
  mkdirSync(path.join(workspace, '.claude', 'commands'), { recursive: true });
  writeFileSync(path.join(workspace, '.claude', 'commands', 'squawk.md'), '---\ndescription: Squawk the words given\nargument-hint: what to squawk\n---\nSquawk these words back to me: $ARGUMENTS\n');
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  accounts = await SignInMcpServer.start('https://accounts.example.com/connect?redirect_uri=http%3A%2F%2Flocalhost%3A1%2Fcb&state=s3cret');
  writeFileSync(path.join(home, '.claude', '.claude.json'), JSON.stringify({ mcpServers: { accounts: { type: 'http', url: accounts.url } } }));
  writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: [CONNECT_ACCOUNT] } }));

  mock = await AnthropicMock.start({
    respond: (_view, recorded) => {
      const request = messagesOf(recorded);
      const first = userTexts(request)[0] ?? '';
      // Claude Code gives its model what the prompt attached after the words, in the same text.
      const script = scripts.get(first) ?? [...scripts].find(([words]) => first.startsWith(words))?.[1] ?? [...scriptsContaining].find(([part]) => first.includes(part))?.[1];
      if (script !== undefined) return script(request);
      unscripted.push(first);
      return textReply('This conversation has no script.');
    },
  });
  claude = {
    mcp_server: {
      name: 'claude',
      command: process.execPath,
      args: [CLAUDE_AGENT_ACP],
      env: mock.claudeEnv({ home, configDir: path.join(home, '.claude') }),
      // Where the catalogue says Claude's own settings name its mode.
      modeSetting: BUILTIN_AGENTS.find((e) => e.id === 'claude-code')!.modeSetting!,
    },
  };
  stateDir = path.join(root, 'state');
  ({ client, child: bridge } = LmClient.spawn({ cliPath: CLI, args: ['--log-level', 'debug', '--cwd', workspace, '--state-dir', stateDir], stderr: 'pipe' }));
  bridge.stderr!.on('data', (chunk: Buffer) => bridgeLog.push(chunk));
  client.onAgentInfo((params) => agentInfos.push(params));
  client.onAgentCommands((params) => agentCommands.push(params));
}, TEST_TIMEOUT_MS + INSTALL_TIMEOUT_MS);

afterEach(() => {
  for (const { pid } of processesOfOurs()) ours.add(pid);
  // Taken, not only read, so that one test's stray request does not fail the tests after it.
  const errors = mock === undefined ? [] : mock.errors.splice(0);
  const stray = unscripted.splice(0);
  expect(errors).toEqual([]);
  expect(stray).toEqual([]);
});

afterAll(async () => {
  client?.dispose();
  if (bridge !== undefined && bridge.exitCode === null && bridge.signalCode === null) {
    bridge.kill('SIGKILL');
    await new Promise((resolve) => bridge.once('exit', resolve));
  }
  // Anything of ours still running (only if the shutdown test failed): killed by pid, never by name.
  for (const { pid } of home === undefined ? [] : processesOfOurs()) {
    if (!ours.has(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await mock?.close();
  await accounts?.close();
  if (home !== undefined) rmSync(path.dirname(home), { recursive: true, force: true });
}, TEST_TIMEOUT_MS);

// ---------------------------------------------------------------------------------------------------

test(
  'a plain answer: the model streams "Hello from the mock model" in several deltas; the response says exactly that',
  async () => {
    const FIRST = 'Say hello, please.';
    scripts.set(FIRST, () => ({ ...textReply('Hello', ' from', ' the mock', ' model'), delayMs: 30 }));

    const parts = await chat([user(FIRST)]);

    expect(textOfParts(parts)).toBe('Hello from the mock model');
    expect(contentOf(parts).every((p) => p.type === 'text')).toBe(true);
    // Streamed as it came, not in one piece at the end.
    expect(parts.length).toBeGreaterThan(1);
    // The model was asked once, with the user's message as the last thing said.
    const requests = conversationOf(FIRST);
    expect(requests).toHaveLength(1);
    expect(lastUserText(messagesOf(requests[0]))).toBe(FIRST);
    expect(requests[0].headers['x-api-key']).toBe('dummy');
  },
  TEST_TIMEOUT_MS,
);

test(
  "slash commands: Claude Code's commands are reported (its own and the workspace's); /squawk typed reaches it as its command, expanded by Claude Code",
  async () => {
    const EXPANDED = 'Squawk these words back to me: loudly';
    scriptsContaining.set(EXPANDED, () => textReply('SQUAWK! loudly'));

    const parts = await chat([user('/squawk loudly')]);

    expect(textOfParts(parts)).toContain('SQUAWK! loudly');
    // Claude Code ran it as its command: the model was given the command file's text with the arguments.
    const requests = mock.conversation().filter((r) => userTexts(messagesOf(r)).some((t) => t.includes(EXPANDED)));
    expect(requests).toHaveLength(1);
    const asked = userTexts(messagesOf(requests[0])).join('\n');
    expect(asked).toContain('<command-name>/squawk</command-name>');
    expect(asked).toContain('<command-args>loudly</command-args>');
    // Its commands were reported: the workspace's with its description and hint, and Claude Code's own.
    expect(await waitUntil(() => agentCommands.some((r) => r.commands.some((c) => c.name === 'squawk')), RESPONSE_MS)).toBe(true);
    const listed = agentCommands.at(-1)?.commands ?? [];
    expect(listed.find((c) => c.name === 'squawk')).toEqual({ name: 'squawk', description: expect.stringContaining('Squawk the words given'), hint: 'what to squawk' });
    // Claude Code's own: names Copilot takes for its own too (`/compact`, `/init`) are reached as `//compact`, `//init`.
    expect(listed.map((c) => c.name)).toEqual(expect.arrayContaining(['compact', 'init', 'context']));
  },
  TEST_TIMEOUT_MS,
);

test(
  "a file the person attached in the Chat view reaches Claude's model as the file's text, Copilot's own blocks do not",
  async () => {
    const FIRST = 'What does the attached file say?';
    const CONTENT = 'The attached file says marigold, for Claude.';
    const file = path.join(workspace, 'attached-notes.txt');
    writeFileSync(file, `${CONTENT}\n`);
    const REMINDER = "These reminders are Copilot's own.";
    scripts.set(FIRST, () => textReply('It says marigold.'));
    // As Copilot Chat 0.67 renders a file attached with Add Context… (agent mode: FileVariable in <attachments>).
    const message = user(
      `<attachments>\n<attachment id="attached-notes.txt" filePath="${file}">\n${CONTENT}\n</attachment>\n</attachments>\n<context>\nThe current date is November 27, 2026.\n</context>\n<reminderInstructions>\n${REMINDER}\n</reminderInstructions>\n<userRequest>\n${FIRST}\n</userRequest>`,
    );
    expect(textOfParts(await chat([message]))).toBe('It says marigold.');
    // claude-agent-acp declares embedded context: the file came as a resource, which Claude Code gives its model.
    expect(logTail(400)).toMatch(/agent claude takes in a prompt: images yes, embedded context yes/);
    const requests = mock.conversation().filter((r) => userTexts(messagesOf(r))[0]?.startsWith(FIRST) === true);
    expect(requests).toHaveLength(1);
    // Claude Code writes the resource as a link after the words, then its text in a <context ref> block.
    const seen = userTexts(messagesOf(requests[0]))[0]!;
    expect(seen).toContain(`<context ref="${pathToFileURL(file).href}">\n${CONTENT}`);
    expect(seen).not.toContain(REMINDER);
  },
  TEST_TIMEOUT_MS,
);

test(
  'a file attached by name only (Copilot omitted its contents) reaches Claude\'s model as a link to read: its path',
  async () => {
    const FIRST = 'What does the file I named say?';
    const file = path.join(workspace, 'named-notes.txt');
    writeFileSync(file, 'The named file says tulip.\n');
    scripts.set(FIRST, () => textReply('I would read it first.'));
    const message = user(`<attachments>\n<attachment id="named-notes.txt" filePath="${file}" />\n</attachments>\n<userRequest>\n${FIRST}\n</userRequest>`);
    expect(textOfParts(await chat([message]))).toBe('I would read it first.');
    const requests = mock.conversation().filter((r) => userTexts(messagesOf(r))[0]?.startsWith(FIRST) === true);
    expect(requests).toHaveLength(1);
    const seen = userTexts(messagesOf(requests[0])).join('\n');
    // A link only: Claude Code names it to its model, which would read it with its tools.
    expect(seen).toContain(`[@named-notes.txt](${pathToFileURL(file).href})`);
    expect(seen).not.toContain('tulip');
  },
  TEST_TIMEOUT_MS,
);

test(
  'a permission approved: the response ends on a symposium-agent-action tool call; the tool result runs the command and the answer streams in the next response',
  async () => {
    const FIRST = 'Please create the file approved.txt in the workspace.';
    const COMMAND = 'touch approved.txt';
    const DONE = 'I created approved.txt for you.';
    const call = toolUseReply('Bash', { command: COMMAND, description: 'Create approved.txt' });
    const toolUseId = call.content[0].type === 'tool_call' ? call.content[0].id : '';
    scripts.set(FIRST, (request): Reply => (lastToolResults(request).length > 0 ? textReply('I created ', 'approved.txt', ' for you.') : call));

    // Turn 1: the model wants to run a command; Claude asks permission, and VS Code is asked through a tool call.
    const first = await chat([user(FIRST)]);
    const calls = toolCallsOf(first);
    expect(calls).toHaveLength(1);
    const [permission] = calls;
    expect(contentOf(first).at(-1)).toBe(permission);
    expect(permission.toolName).toBe(AGENT_ACTION);
    expect(permission.toolCallId).toBe(toolUseId);
    expect(permission.parameters.kind).toBe('execute');
    expect(permission.parameters.title).toEqual(expect.stringContaining(COMMAND));
    expect(permission.parameters.raw_input).toEqual(expect.objectContaining({ command: COMMAND }));
    // Nothing has run while the user decides.
    expect(existsSync(path.join(workspace, 'approved.txt'))).toBe(false);
    expect(conversationOf(FIRST)).toHaveLength(1);

    // Turn 2: the user allowed it.
    const second = await chat([user(FIRST), assistantOf(first), approve(permission)]);

    expect(existsSync(path.join(workspace, 'approved.txt'))).toBe(true);
    expect(toolCallsOf(second)).toEqual([]);
    expect(textOfParts(second).endsWith(DONE)).toBe(true);
    // The model saw its tool call succeed, in the same session, and was asked exactly once more.
    const requests = conversationOf(FIRST);
    expect(requests).toHaveLength(2);
    expect(sessionIdOf(requests[1])).toBe(sessionIdOf(requests[0]));
    const results = lastToolResults(messagesOf(requests[1]));
    expect(results.map((r) => r.tool_use_id)).toEqual([toolUseId]);
    expect(results[0].is_error).not.toBe(true);
    expect(toolResultText(results[0])).not.toMatch(/reject|denied|doesn't want/i);
  },
  TEST_TIMEOUT_MS,
);

test(
  "without a command tool offered, Claude's Bash runs (seq, which Claude Code runs unasked) and its output is shown whole, in a block, bounded; the model gets all of it",
  async () => {
    const FIRST = 'Count to 300 in the shell, please.';
    const call = toolUseReply('Bash', { command: 'seq 1 300', description: 'Count' });
    scripts.set(FIRST, (request): Reply => (lastToolResults(request).length > 0 ? textReply(`Counted: ${toolResultText(lastToolResults(request)[0]!).trim().split('\n').length} lines.`) : call));

    const answer = await chat([user(FIRST)]);
    expect(toolCallsOf(answer)).toEqual([]);

    const shown = textOfParts(answer);
    const lines = Array.from({ length: 300 }, (_, i) => String(i + 1));
    expect(shown).toContain(`\n\n~~~~console\n${lines.slice(0, 200).join('\n')}\n~~~~\n`);
    // Claude Code sends the output without its last line break: 201 to 300 are 399 bytes.
    expect(shown).toContain('… 100 more lines (399 bytes) not shown');
    expect(shown).toContain('> ✓ `seq 1 300`');
    expect(shown.endsWith('Counted: 300 lines.')).toBe(true);
  },
  TEST_TIMEOUT_MS,
);

test(
  'a permission rejected: the next request drops the tool call and asks something else; the command never runs and the new question is answered',
  async () => {
    const FIRST = 'Please create the file rejected.txt in the workspace.';
    const SECOND = 'Never mind that. What is the capital of France?';
    const ANSWER = 'The capital of France is Paris.';
    const call = toolUseReply('Bash', { command: 'touch rejected.txt', description: 'Create rejected.txt' });
    const toolUseId = call.content[0].type === 'tool_call' ? call.content[0].id : '';
    scripts.set(FIRST, (request): Reply => {
      if (lastUserText(request).includes(SECOND)) return textReply('The capital', ' of France', ' is Paris.');
      // A refusal reported without the user's next words (see below): the model gives up, as a real one would.
      if (lastToolResults(request).length > 0) return textReply('Understood, I will not create it.');
      return call;
    });

    const first = await chat([user(FIRST)]);
    const [permission] = toolCallsOf(first);
    expect(permission).toMatchObject({ toolName: AGENT_ACTION, toolCallId: toolUseId, parameters: { kind: 'execute' } });

    // VS Code cancels the whole turn when the user rejects a tool: the next request lacks the tool call.
    const second = await chat([user(FIRST), user(SECOND)]);

    // The user sees the answer to the new question and nothing of the abandoned turn.
    expect(textOfParts(second)).toBe(ANSWER);
    expect(toolCallsOf(second)).toEqual([]);
    expect(existsSync(path.join(workspace, 'rejected.txt'))).toBe(false);
    // The same session went on: the model saw its tool call refused, then the new question.
    const requests = conversationOf(FIRST);
    expect(new Set(requests.map(sessionIdOf)).size).toBe(1);
    const asked = requests.filter((r) => lastUserText(messagesOf(r)).includes(SECOND));
    expect(asked).toHaveLength(1);
    const body = messagesOf(asked[0]);
    const results = toolResultsIn(body).filter((r) => r.tool_use_id === toolUseId);
    expect(results).toHaveLength(1);
    expect(results[0].is_error).toBe(true);
    // The first message was not asked again.
    expect(userTexts(body).filter((text) => text.includes(FIRST))).toHaveLength(1);
    // Usually the refusal and the new question reach the model together (2 requests). Sometimes the agent
    // reads the bridge's `cancelled` permission answer before its session/cancel, reports "Tool permission
    // request failed" and asks the model once more in the abandoned turn (3 requests; see the report).
    expect(requests.length).toBeLessThanOrEqual(3);
  },
  TEST_TIMEOUT_MS,
);

test(
  "Skip: Claude's fenced refusal ends the tool in one line, refused by you; the model's answer follows once, with no block left open",
  async () => {
    const FIRST = 'Please create the file skipped.txt in the workspace.';
    const call = toolUseReply('Bash', { command: 'touch skipped.txt', description: 'Create skipped.txt' });
    scripts.set(FIRST, (request): Reply => {
      const [result] = lastToolResults(request);
      return result === undefined ? call : textReply(`Tool said: ${toolResultText(result)}`);
    });

    const first = await chat([user(FIRST)]);
    const [permission] = toolCallsOf(first);
    // Copilot's Skip: the call comes back with its "skipped" result, which is no consent.
    const second = await chat([user(FIRST), assistantOf(first), skipped(permission)]);

    const text = textOfParts(second);
    expect(text).toContain('> ✗ `touch skipped.txt` refused by you\n\n');
    expect(text).not.toContain('```');
    // The model's words about the refusal, once.
    expect(text.split('Tool said: User refused permission to run tool')).toHaveLength(2);
    expect(existsSync(path.join(workspace, 'skipped.txt'))).toBe(false);
  },
  TEST_TIMEOUT_MS,
);

test(
  'without an API key the agent is marked as needing a sign-in and the request says so; with its key the same words are answered',
  async () => {
    const FIRST = 'Hello, with or without a key?';
    scripts.set(FIRST, () => textReply('Answered with a key.'));
    if (!('mcp_server' in claude)) throw new Error('claude is an ACP agent');
    const keyless: AgentDefinition = { mcp_server: { ...claude.mcp_server, env: claude.mcp_server.env.filter((v) => v.name !== 'ANTHROPIC_API_KEY') } };

    const failure = await chatWith({ client, modelId: 'claude', agent: keyless, responseMs: RESPONSE_MS, logTail }, [user(FIRST)]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: ProtocolErrorCodes.AgentFailed, message: expect.stringMatching(/^Agent "claude" needs authentication/) });
    const reported = agentInfos.filter((p) => JSON.stringify(p.agent) === JSON.stringify(keyless)).at(-1);
    expect(reported?.info.signIn?.needed).toBe(true);
    // The model was never asked without a key.
    expect(conversationOf(FIRST)).toHaveLength(0);

    // The key back in the agent's environment (as the extension adds one set with Set Agent API Key): answered.
    expect(textOfParts(await chat([user(FIRST)]))).toBe('Answered with a key.');
  },
  TEST_TIMEOUT_MS,
);

test(
  'a cancel mid-stream: $/cancelRequest fails the request with -32800, the model stream is abandoned, and the conversation goes on',
  async () => {
    const FIRST = 'Count slowly from zero to two hundred.';
    const SECOND = 'Are you still there?';
    const ANSWER = 'Yes, still here.';
    const counting = Array.from({ length: 200 }, (_, i) => `${i} `);
    scripts.set(FIRST, (request): Reply => (lastUserText(request).includes(SECOND) ? textReply('Yes,', ' still', ' here.') : { content: [{ type: 'text', text: counting }], delayMs: 20 }));

    const cts = new CancellationTokenSource();
    const received: ResponsePart[] = [];
    const cancelled = chat([user(FIRST)], {
      token: cts,
      onPart: (part) => {
        received.push(part);
        if (received.length === 3) cts.cancel();
      },
    });

    expect(await rejectionCode(cancelled)).toBe(ProtocolErrorCodes.RequestCancelled);
    const partial = textOfParts(received);
    expect(received.length).toBeGreaterThanOrEqual(3);
    expect(counting.join('').startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(counting.join('').length / 4);
    // The agent stopped reading the model's stream long before its end.
    const [streamed] = conversationOf(FIRST);
    expect(await waitUntil(() => streamed.endedAt !== undefined, 10_000)).toBe(true);
    expect(streamed.aborted).toBe(true);
    expect(streamed.deltasSent).toBeLessThan(counting.length / 2);

    // The user keeps the partial reply and asks again, in the same chat.
    const next = await chat([user(FIRST), { role: 'assistant', content: [{ type: 'text', value: partial }] }, user(SECOND)]);

    expect(textOfParts(next)).toBe(ANSWER);
    const requests = conversationOf(FIRST);
    expect(requests).toHaveLength(2);
    expect(sessionIdOf(requests[1])).toBe(sessionIdOf(requests[0]));
    // No overlapping prompts: the second model call began only after the cancelled one had ended.
    expect(sequential(requests)).toBe(true);
    expect(userTexts(messagesOf(requests[1])).filter((text) => text.includes(SECOND))).toHaveLength(1);
  },
  TEST_TIMEOUT_MS,
);

test(
  'a second turn in the same session: turn 2 extends turn 1, and the model sees turn 1 and exactly one new user message',
  async () => {
    const FIRST = 'What is the first letter of the alphabet?';
    const SECOND = 'And the second one?';
    const A1 = 'The first letter is A.';
    const A2 = 'The second letter is B.';
    scripts.set(FIRST, (request): Reply => (lastUserText(request) === SECOND ? textReply('The second', ' letter is B.') : textReply('The first', ' letter is A.')));

    const first = await chat([user(FIRST)]);
    expect(textOfParts(first)).toBe(A1);
    const second = await chat([user(FIRST), assistantOf(first), user(SECOND)]);
    expect(textOfParts(second)).toBe(A2);

    const requests = conversationOf(FIRST);
    expect(requests).toHaveLength(2);
    const [one, two] = requests.map(messagesOf);
    // One ACP session: the same Claude session id, and the second call carries the first exchange.
    expect(sessionIdOf(requests[1])).toBe(sessionIdOf(requests[0]));
    expect(userTexts(one)).toEqual([FIRST]);
    expect(userTexts(two)).toEqual([FIRST, SECOND]);
    expect(assistantTexts(two)).toEqual([A1]);
    expect(two.messages).toHaveLength(one.messages.length + 2);
    expect(two.messages.slice(-2).map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(two.messages.flatMap((m) => blocksOf(m)).filter(isToolUseBlock)).toEqual([]);
  },
  TEST_TIMEOUT_MS,
);

test(
  "after a restart (VS Code reloaded) a new bridge resumes the conversation's Claude session: the model sees the earlier exchange",
  async () => {
    const FIRST = 'Remember this word for me: pelican.';
    const SECOND = 'Which word did I ask you to remember?';
    const A1 = 'I will remember it.';
    scripts.set(FIRST, (request): Reply => (lastUserText(request) === SECOND ? textReply('You asked me to remember ', 'pelican.') : textReply(A1)));
    const first = await chat([user(FIRST)]);
    expect(textOfParts(first)).toBe(A1);
    // Written within 200 ms of the reply's completion.
    expect(await waitUntil(() => existsSync(path.join(stateDir, 'conversations.json')), 5_000)).toBe(true);

    const log: Buffer[] = [];
    const restarted = LmClient.spawn({ cliPath: CLI, args: ['--log-level', 'debug', '--cwd', workspace, '--state-dir', stateDir], stderr: 'pipe' });
    restarted.child.stderr!.on('data', (chunk: Buffer) => log.push(chunk));
    try {
      const second = await restarted.client.collectChatResponse({ modelId: 'claude', messages: [user(FIRST), assistantOf(first), user(SECOND)], agent: claude });
      expect(textOfParts(second)).toBe('You asked me to remember pelican.');
      expect(Buffer.concat(log).toString('utf8')).toMatch(/resumed ACP session \S+ \(session\/resume\)/);
      // The model saw the first exchange as history (a transcript would have been one user message).
      const requests = conversationOf(FIRST);
      const last = messagesOf(requests[requests.length - 1]);
      expect(userTexts(last)).toEqual([FIRST, SECOND]);
      expect(assistantTexts(last)).toEqual([A1]);
    } finally {
      restarted.client.dispose();
      restarted.child.stdin!.end();
      await new Promise((resolve) => (restarted.child.exitCode !== null ? resolve(undefined) : restarted.child.once('exit', resolve)));
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  'a VS Code tool called through the bridge: Claude loads it with ToolSearch and calls it over MCP; the call reaches VS Code, and its result reaches the model',
  async () => {
    const KEY = 'What is the weather in Paris?';
    // Claude Code names MCP tools as deferred tools in a system message, to be loaded with ToolSearch first.
    const bridged = new RegExp(`mcp__vscode-tools-[0-9a-f]+__${WEATHER.name}`);
    const named = (request: MessagesRequest): string | undefined => bridged.exec(JSON.stringify(request.messages))?.[0];
    scripts.set(KEY, (request): Reply => {
      const name = named(request);
      if (name === undefined) return textReply('I have no weather tool.');
      return callDeferredTool(request, name, { city: 'Paris' }, (results) => `The tool said: ${results}`);
    });

    await expectWeatherCalledThroughBridge(chat, KEY);
  },
  TEST_TIMEOUT_MS,
);

test(
  "where the consumer offers edit tools, Claude edits through VS Code's create_file instead of its own Write, so VS Code reviews it",
  async () => {
    const KEY = 'Please write claude-notes.txt.';
    const file = path.join(workspace, 'claude-notes.txt');
    const bridged = /mcp__vscode-tools-[0-9a-f]+__create_file/;
    const offered: string[][] = [];
    scripts.set(KEY, (request): Reply => {
      offered.push((request.tools ?? []).map((t) => t.name));
      const name = bridged.exec(JSON.stringify(request.messages))?.[0];
      if (name === undefined) return textReply('I have no create_file tool.');
      return callDeferredTool(request, name, { filePath: file, content: 'written by Claude\n' }, (results) => `Done: ${results}`);
    });
    const tools = [AGENT_ACTION_DEFINITION, CREATE_FILE, REPLACE_STRING];

    const asked = await chat([user(KEY)], { tools });
    const [create] = toolCallsOf(asked);
    expect(create).toEqual({ type: 'tool_call', toolCallId: expect.any(String), toolName: 'create_file', parameters: { filePath: file, content: 'written by Claude\n' } });
    expect(offered[0]).toEqual(expect.arrayContaining(['Bash', 'Read']));
    for (const own of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']) expect(offered[0]).not.toContain(own);

    // What Copilot's create_file does, and what it answers.
    writeFileSync(file, 'written by Claude\n');
    const last = await chat([user(KEY), assistantOf(asked), edited(create!, file)], { tools });
    expect(toolCallsOf(last)).toEqual([]);
    expect(textOfParts(last)).toContain('Done: The following files were successfully edited');
  },
  TEST_TIMEOUT_MS,
);

/** Claude Code's own shell tools its model is given: Bash, and (deferred) Monitor, which runs a command too, and TaskStop, which stops one. */
const CLAUDE_SHELL_TOOLS = ['Bash', 'Monitor', 'TaskStop'];

/** The tools a request gives Claude's model: its tools, and the deferred ones a system message names (loaded with ToolSearch). */
function toolsSeen(request: MessagesRequest): string[] {
  const deferred = /deferred tools are now available via ToolSearch[^\n]*\n((?:[^\n]+\n)+)/.exec(request.messages.flatMap((m) => blocksOf(m).filter(isTextBlock).map((b) => b.text)).join('\n'))?.[1] ?? '';
  return [...(request.tools ?? []).map((t) => t.name), ...deferred.split('\n').filter((line) => line !== '')];
}

/**
 * A chat whose model runs `command` through the consumer's run_in_terminal (loaded with ToolSearch), recording the
 * tools the model was given; its answer is "Output: " and what the call returned.
 */
function scriptCommand(key: string, command: string): { offered: string[][] } {
  const offered: string[][] = [];
  const bridged = /mcp__vscode-tools-[0-9a-f]+__run_in_terminal/;
  scripts.set(key, (request): Reply => {
    offered.push(toolsSeen(request));
    const name = bridged.exec(JSON.stringify(request.messages))?.[0];
    if (name === undefined) return textReply('I have no run_in_terminal tool.');
    const input = { command, explanation: 'Shows the proof', goal: 'Show the proof', isBackground: false, timeout: 10_000 };
    return callDeferredTool(request, name, input, (results) => `Output: ${results}`);
  });
  return { offered };
}

test(
  "where the consumer offers run_in_terminal, Claude runs commands through it instead of its own Bash: one call of VS Code's tool, no confirmation of the bridge's before it, and the output reaches the model",
  async () => {
    const KEY = 'Run echo proof, please.';
    const { offered } = scriptCommand(KEY, 'echo proof');
    const tools = [AGENT_ACTION_DEFINITION, CREATE_FILE, REPLACE_STRING, RUN_IN_TERMINAL];

    const asked = await chat([user(KEY)], { tools });
    expect(toolCallsOf(asked)).toEqual([
      { type: 'tool_call', toolCallId: expect.any(String), toolName: 'run_in_terminal', parameters: { command: 'echo proof', explanation: 'Shows the proof', goal: 'Show the proof', isBackground: false, timeout: 10_000 } },
    ]);
    expect(offered[0]).toEqual(expect.arrayContaining(['Read', 'ToolSearch', 'WebFetch']));
    for (const own of CLAUDE_SHELL_TOOLS) expect(offered[0]).not.toContain(own);

    // What Copilot's run_in_terminal answers once the command ran in VS Code's terminal.
    const [run] = toolCallsOf(asked);
    const last = await chat([user(KEY), assistantOf(asked), resultOf(run!.toolCallId, 'proof\n')], { tools });
    expect(toolCallsOf(last)).toEqual([]);
    expect(textOfParts(last)).toContain('Output: proof');
  },
  TEST_TIMEOUT_MS,
);

test(
  'a command the person skips in VS Code is a refused tool result Claude reads; without a command tool offered, Claude keeps its Bash',
  async () => {
    const KEY = 'Run rm -rf build, please.';
    const { offered } = scriptCommand(KEY, 'rm -rf build');
    const tools = [AGENT_ACTION_DEFINITION, RUN_IN_TERMINAL];

    const asked = await chat([user(KEY)], { tools });
    const [run] = toolCallsOf(asked);
    expect(run?.toolName).toBe('run_in_terminal');
    const last = await chat([user(KEY), assistantOf(asked), skipped(run!)], { tools });
    expect(toolCallsOf(last)).toEqual([]);
    expect(textOfParts(last)).toContain('Output: The user chose to skip the tool call');

    const PLAIN = 'Which tools do you have?';
    const plain: string[][] = [];
    scripts.set(PLAIN, (request) => {
      plain.push(toolsSeen(request));
      return textReply('Some.');
    });
    await chat([user(PLAIN)], { tools: [AGENT_ACTION_DEFINITION] });
    expect(plain[0]).toEqual(expect.arrayContaining(CLAUDE_SHELL_TOOLS));
    expect(offered).not.toEqual([]);
  },
  TEST_TIMEOUT_MS,
);

/**
 * A chat whose model runs each "Run COMMAND." the person types through the consumer's run_in_terminal (loaded with
 * ToolSearch once) and answers "Output: " with what the call returned ("Output (error): " for an error result), and
 * any other words with "Heard: " and them.
 */
function scriptCommands(key: string): void {
  const bridged = /mcp__vscode-tools-[0-9a-f]+__run_in_terminal/;
  scripts.set(key, (request): Reply => {
    const results = lastToolResults(request);
    const calledLast = toolUses(request).at(-1)?.name;
    const name = bridged.exec(JSON.stringify(request.messages))?.[0];
    const command = userTexts(request).map((text) => /^Run (.+)\.$/.exec(text.trim())?.[1]).filter((c) => c !== undefined).at(-1);
    const input = { command, explanation: `Runs ${command}`, goal: `Run ${command}`, isBackground: false, timeout: 10_000 };
    if (results.length > 0 && calledLast === 'ToolSearch' && name !== undefined) return toolUseReply(name, input);
    // Words the person typed, after any note of Claude Code's ("[Request interrupted by user]") in the same message.
    const said = lastUserText(request).trim().split('\n').at(-1)!;
    if (said !== '' && !said.startsWith('Run ')) return textReply(`Heard: ${said}`);
    if (results.length > 0) return textReply(`Output${results[0]!.is_error === true ? ' (error)' : ''}: ${toolResultText(results[0]!)}`);
    if (name === undefined || command === undefined) return textReply('I have no run_in_terminal tool.');
    // Loaded once (an earlier turn's ToolSearch): called by its name from then on.
    return toolUses(request).some((u) => u.name === 'ToolSearch') ? toolUseReply(name, input) : toolUseReply('ToolSearch', { query: `select:${name}`, max_results: 1 });
  });
}

/** The last tool result Claude's model was given in the chat that began with `first`. */
function lastResultSeen(first: string): ApiToolResultBlock | undefined {
  return conversationOf(first).flatMap((r) => toolResultsIn(messagesOf(r))).at(-1);
}

test(
  "bad input: the consumer's command tool gone in the next request of the same chat (Agent mode, then Ask): Claude's call of it gets a clear refusal and the turn ends with its answer",
  async () => {
    const KEY = 'Run echo first.';
    scriptCommands(KEY);
    const agentMode = [AGENT_ACTION_DEFINITION, RUN_IN_TERMINAL];
    const asked = await chat([user(KEY)], { tools: agentMode });
    const [run] = toolCallsOf(asked);
    expect(run?.toolName).toBe('run_in_terminal');
    const ran = [user(KEY), assistantOf(asked), resultOf(run!.toolCallId, 'first\n')];
    const first = await chat(ran, { tools: agentMode });
    expect(textOfParts(first)).toContain('Output: first');

    // Ask mode offers no run_in_terminal; Claude's Bash stays off for the session (fixed when it opened).
    const askMode = [AGENT_ACTION_DEFINITION];
    const asking = [...ran, assistantOf(first), user('Run echo second.')];
    const second = await chat(asking, { tools: askMode });
    // Claude Code drops the tool once told the list changed; a call made before that asks for its permission first,
    // which never reaches the person (it could only end refused): the server refuses the call in words.
    expect(toolCallsOf(second)).toEqual([]);
    expect(textOfParts(second)).toMatch(/^Output \(error\): .*run_in_terminal/);
    const refusal = lastResultSeen(KEY);
    expect(refusal?.is_error).toBe(true);
    expect(conversationOf(KEY).every((r) => !toolsSeen(messagesOf(r)).includes('Bash'))).toBe(true);
  },
  TEST_TIMEOUT_MS,
);

test(
  "bad input: the consumer's command tool failing (its error as the result) reaches Claude's model, and the turn ends with its answer",
  async () => {
    const KEY = 'Run make build.';
    scriptCommands(KEY);
    const tools = [AGENT_ACTION_DEFINITION, RUN_IN_TERMINAL];
    const asked = await chat([user(KEY)], { tools });
    const [run] = toolCallsOf(asked);
    // What Copilot answers when the tool throws (a terminal that could not start).
    const failure = 'ERROR while calling tool: The terminal process failed to launch: Path to shell executable "/bin/nosh" does not exist.';
    const last = await chat([user(KEY), assistantOf(asked), resultOf(run!.toolCallId, failure)], { tools });
    expect(toolCallsOf(last)).toEqual([]);
    expect(textOfParts(last)).toContain(`Output: ${failure}`);
    expect(toolResultText(lastResultSeen(KEY)!)).toBe(failure);
  },
  TEST_TIMEOUT_MS,
);

// Copilot words the stopped call's result "The user cancelled the tool call." (recorded in the real Chat view);
// another consumer may send nothing: what ends the turn is that the result came with the person's next words.
test.each([
  ["Copilot's sentence", 'The user cancelled the tool call.', 'sleep infinity'],
  ['an empty result', '', 'sleep 86400'],
])(
  "bad input: a command that never ends, stopped by the person while it runs (%s): Claude's call is declined, its turn ends showing nothing more, and the next message is answered in the same session",
  async (_wording, stoppedResult, command) => {
    const KEY = `Run ${command}.`;
    scriptCommands(KEY);
    const tools = [AGENT_ACTION_DEFINITION, RUN_IN_TERMINAL];
    const asked = await chat([user(KEY)], { tools });
    const [run] = toolCallsOf(asked);
    expect(run?.parameters).toMatchObject({ command });
    // Stopped while it ran: Copilot's next request carries its result for the cancelled call (recorded in the real
    // Chat view), then the person's next message.
    const next = await chat([user(KEY), assistantOf(asked), resultOf(run!.toolCallId, stoppedResult), user('Say hi.')], { tools });
    expect(toolCallsOf(next)).toEqual([]);
    // The stopped turn shows nothing more: Claude's answer to the cancelled call is not the next answer's start.
    expect(textOfParts(next)).toBe('Heard: Say hi.');
    const requests = conversationOf(KEY);
    expect(sequential(requests)).toBe(true);
    expect(new Set(requests.map(sessionIdOf)).size).toBe(1);
    // Claude's model read the call as refused, not as the command's output.
    expect(lastResultSeen(KEY)?.is_error).toBe(true);
  },
  TEST_TIMEOUT_MS,
);

// VS Code's steer (issue 59, `chat.requestQueuing.defaultAction: "steer"`, its default): the person writes while the
// command runs; Copilot's tool loop ends after the round and sends the words in a new request whose history holds the
// call with its real result. Claude Code can be steered (`_session/steering`): the words reach its running turn.
test(
  "steered: the person writes while Claude's command runs (the call's real result, then their words): the model gets the command's output as the call's result and the words, no refusal, nothing cancelled",
  async () => {
    const KEY = 'Run sleep 6; echo steered-proof.';
    scriptCommands(KEY);
    const tools = [AGENT_ACTION_DEFINITION, RUN_IN_TERMINAL];
    const asked = await chat([user(KEY)], { tools });
    const [run] = toolCallsOf(asked);
    expect(run?.parameters).toMatchObject({ command: 'sleep 6; echo steered-proof' });
    const next = await chat([user(KEY), assistantOf(asked), resultOf(run!.toolCallId, 'steered-proof\n'), user('Say the steered words.')], { tools });
    expect(toolCallsOf(next)).toEqual([]);
    const requests = conversationOf(KEY);
    expect(new Set(requests.map(sessionIdOf)).size).toBe(1);
    // The command's output as the call's result, not an error (Claude Code's refusal), and the words after it, once.
    const last = messagesOf(requests.at(-1)!);
    const ran = toolResultsIn(last).filter((b) => toolUses(last).some((u) => u.id === b.tool_use_id && /__run_in_terminal$/.test(u.name)));
    expect(ran.map((b) => ({ text: toolResultText(b), isError: b.is_error === true }))).toEqual([{ text: 'steered-proof\n', isError: false }]);
    expect(userTexts(last).filter((t) => t.includes('Request interrupted'))).toEqual([]);
    expect(userTexts(last).filter((t) => t.includes('Say the steered words.'))).toHaveLength(1);
    // In the running turn (steered): the words come in the request after the result, or in the same (Claude Code
    // joins them to the cycle it runs, or pre-empts the model's answer to the result), never as a prompt of their own.
    expect(logTail(400)).toContain("the person's words steered into the running turn");
    expect(textOfParts(next)).toContain('Heard: Say the steered words.');
    expect(textOfParts(next).split('Heard: Say the steered words.')).toHaveLength(2);
  },
  TEST_TIMEOUT_MS,
);

test(
  "--consumer-terminal off (setting symposium.runAgentCommandsInTerminal off): offered run_in_terminal, Claude keeps its own Bash",
  async () => {
    const KEY = 'Which shell tools do you have, with the terminal setting off?';
    const seen: string[][] = [];
    scripts.set(KEY, (request) => {
      seen.push(toolsSeen(request));
      return textReply('These.');
    });
    const own = LmClient.spawn({ cliPath: CLI, args: ['--log-level', 'debug', '--cwd', workspace, '--consumer-terminal', 'off'], stderr: 'pipe' });
    try {
      const reply = await own.client.collectChatResponse({ modelId: 'claude', messages: [user(KEY)], agent: claude, options: { tools: [AGENT_ACTION_DEFINITION, RUN_IN_TERMINAL] } });
      expect(textOfParts(reply)).toBe('These.');
      expect(seen[0]).toEqual(expect.arrayContaining(CLAUDE_SHELL_TOOLS));
      expect(seen[0]!.some((name) => /__run_in_terminal$/.test(name))).toBe(true);
    } finally {
      own.client.dispose();
      own.child.stdin!.end();
      await new Promise((resolve) => (own.child.exitCode !== null ? resolve(undefined) : own.child.once('exit', resolve)));
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "Claude's AskUserQuestion is asked through VS Code's vscode_askQuestions, and the person's answer reaches the model",
  async () => {
    const KEY = 'Ask me which database to use.';
    scripts.set(KEY, (request): Reply => {
      const used = toolUses(request).map((u) => u.name);
      if (used.includes('AskUserQuestion')) return textReply(`You answered: ${lastToolResults(request).map(toolResultText).join(' ')}`);
      return toolUseReply('AskUserQuestion', {
        questions: [{ question: 'Which database should I use?', header: 'Database', multiSelect: false, options: [{ label: 'SQLite', description: 'A file' }, { label: 'Postgres', description: 'A server' }] }],
      });
    });
    const tools = [AGENT_ACTION_DEFINITION, ASK_QUESTIONS];

    const asked = await chat([user(KEY)], { tools });
    const [question] = toolCallsOf(asked);
    expect(question?.toolName).toBe('vscode_askQuestions');
    const database = questionsOf(question!).find((q) => q.options?.some((o) => o.label === 'Postgres'));
    expect(database?.question).toContain('Which database should I use?');

    const last = await chat([user(KEY), assistantOf(asked), picking(question!, 'Postgres')], { tools });
    expect(toolCallsOf(last)).toEqual([]);
    expect(textOfParts(last)).toContain('You answered:');
    expect(textOfParts(last)).toContain('Postgres');
  },
  TEST_TIMEOUT_MS,
);

test(
  "a sign-in page an MCP server of Claude's asks the person to open (URL elicitation) reaches the client, and its answer the server",
  async () => {
    const KEY = 'Connect my Example account.';
    scripts.set(KEY, (request): Reply => callDeferredTool(request, CONNECT_ACCOUNT, {}, (results) => `Connected: ${results}`));
    const asked: OpenUrlParams[] = [];
    const serving = client.onOpenUrl(async (params) => {
      asked.push(params);
      return { opened: true };
    });
    try {
      const reply = await chat([user(KEY)], { tools: [AGENT_ACTION_DEFINITION] });
      expect(asked).toEqual([{ agent: 'claude', message: 'Connect your Example account', url: accounts.signInUrl }]);
      expect(accounts.answers).toEqual(['accept']);
      expect(textOfParts(reply)).toContain('Connected: elicitation: accept');
      expect(logTail(400)).toContain('agent claude asked to open a page of https://accounts.example.com in conversation');
    } finally {
      serving.dispose();
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "the Chat view's Plan mode puts Claude Code in its plan mode before the prompt; Agent mode takes it out again",
  async () => {
    const FIRST = 'Plan the rename of the module, please.';
    const PLAN_ACTIVE = 'Plan mode is active';
    // Claude Code tells its model of its plan mode in a reminder among the user messages of the turn.
    const inPlanMode = (request: MessagesRequest): boolean => {
      const lastReply = request.messages.map((m) => m.role).lastIndexOf('assistant');
      return JSON.stringify(request.messages.slice(lastReply + 1)).includes(PLAN_ACTIVE);
    };
    scripts.set(FIRST, (request) => textReply(inPlanMode(request) ? 'planning only' : 'free to act'));
    // Copilot's system prompt in its Plan mode, as far as the mode goes (test/fixtures/copilot/ask-mode-first-message.json has Ask's).
    const inMode = (name: string): Message => ({
      role: 'system',
      content: [{ type: 'text', value: `You are an expert AI programming assistant.\n<modeInstructions>\nYou are currently running in "${name}" mode. Below are your instructions for this mode.\n</modeInstructions>` }],
    });
    const first = await chat([inMode('Plan'), user(FIRST)]);
    // (claude-agent-acp may add a notice of its own after the answer.)
    expect(textOfParts(first)).toMatch(/^planning only/);
    expect(Buffer.concat(bridgeLog).toString('utf8')).toMatch(/mode set to plan/);
    // Back in Agent mode, the next prompt finds Claude Code out of its plan mode.
    const second = await chat([user(FIRST), assistantOf(first), user('Go ahead.')]);
    expect(textOfParts(second)).toMatch(/^free to act/);
    expect(conversationOf(FIRST).map((r) => inPlanMode(messagesOf(r)))).toEqual([true, false]);
  },
  TEST_TIMEOUT_MS,
);

test(
  "claude-agent-acp 0.101 opens sessions in auto: Agent mode sets Manual (default), where Claude asks; the person's pick of Auto stands, said once, and Claude's warning then is a line of its own, once",
  async () => {
    const ASKS = 'Which mode are you in, please?';
    const AUTO = 'Which mode now, in Auto?';
    for (const words of [ASKS, AUTO]) scripts.set(words, () => textReply('The answer is 42.'));
    const asks = await chat([user(ASKS)]);
    expect(textOfParts(asks)).toBe('The answer is 42.');
    expect(Buffer.concat(bridgeLog).toString('utf8')).toMatch(/mode set to default/);

    // Picked in the model picker's options: the bridge sets it, and says once that Claude acts unasked.
    const picked = await chat([user(AUTO)], { config: { mode: 'auto' } });
    const text = textOfParts(picked);
    expect(text).toMatch(/^> ⚠️ \*\*claude acts without asking you in this chat\*\*: its mode is Auto, as chosen in the model picker or in its own settings; pick Manual \(default\) to be asked first\.\n\nThe answer is 42\./);
    // Claude Code 2.1.318 warns of auto mode's billing behind a gateway (here: the mock on 127.0.0.1), as a notice.
    expect(text).toMatch(/The answer is 42\.\n\n> ⚠️ \*\*[^\n]*auto mode[^\n]*\n\n$/);
    const again = await chat([user(AUTO), assistantOf(picked), user('And again?')], { config: { mode: 'auto' } });
    expect(textOfParts(again)).toBe('The answer is 42.');
    // What the model was given back holds its own words only.
    expect(assistantTexts(messagesOf(conversationOf(AUTO).at(-1)!))).toEqual(['The answer is 42.']);
  },
  TEST_TIMEOUT_MS,
);

test(
  "Auto set in the workspace's Claude settings (permissions.defaultMode) is the person's choice: honoured, and said once",
  async () => {
    const FIRST = 'Which mode do my settings give you?';
    scripts.set(FIRST, () => textReply('The answer is 42.'));
    const local = path.join(workspace, '.claude', 'settings.local.json');
    writeFileSync(local, JSON.stringify({ permissions: { defaultMode: 'auto' } }));
    try {
      const first = await chat([user(FIRST)]);
      expect(textOfParts(first)).toMatch(/^> ⚠️ \*\*claude acts without asking you in this chat\*\*: its mode is Auto, as chosen in the model picker or in its own settings; [^\n]*\n\nThe answer is 42\./);
      const second = await chat([user(FIRST), assistantOf(first), user('And now?')]);
      expect(textOfParts(second)).toBe('The answer is 42.');
    } finally {
      rmSync(local, { force: true });
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "going back (issue 45): after an edited earlier request, and after Retry, Claude's next model request holds the exchange before that point as its own messages and nothing after it",
  async () => {
    const FIRST = 'Going back: first words.';
    // Each answer names the last thing the person said, so that the test sees which turn the model answered.
    scripts.set(FIRST, (request) => textReply(`answered: ${lastUserText(request)}`));
    const said = (text: string): boolean => text.includes('first words') || text.includes('Now two.') || text.includes('Now three.') || text.includes('Instead, four.');
    const first = await chat([user(FIRST)], { marker: 'gb1' });
    const second = await chat([user(FIRST), assistantOf(first), user('Now two.')], { marker: 'gb2' });
    const third = await chat([user(FIRST), assistantOf(first), user('Now two.'), assistantOf(second), user('Now three.')], { marker: 'gb3' });
    expect(textOfParts(third)).toBe('answered: Now three.');

    // The second request edited (or a checkpoint before it restored, then new words): Claude forks after its first answer.
    const edited = await chat([user(FIRST), assistantOf(first), user('Instead, four.')], { marker: 'gb4' });
    expect(textOfParts(edited)).toBe('answered: Instead, four.');
    const afterEdit = messagesOf(conversationOf(FIRST).at(-1)!);
    expect(userTexts(afterEdit).filter(said)).toEqual([FIRST, 'Instead, four.']);
    expect(assistantTexts(afterEdit)).toEqual([textOfParts(first)]);
    expect(JSON.stringify(afterEdit)).not.toContain('Now two.');
    expect(JSON.stringify(afterEdit)).not.toContain('Now three.');

    // Retry of the third answer (on the first branch, sent again): asked once, after the answers before it.
    const retried = await chat([user(FIRST), assistantOf(first), user('Now two.'), assistantOf(second), user('Now three.')], { marker: 'gb5' });
    expect(textOfParts(retried)).toBe('answered: Now three.');
    const afterRetry = messagesOf(conversationOf(FIRST).at(-1)!);
    expect(userTexts(afterRetry).filter(said)).toEqual([FIRST, 'Now two.', 'Now three.']);
    expect(assistantTexts(afterRetry)).toEqual([textOfParts(first), textOfParts(second)]);
    expect(JSON.stringify(afterRetry)).not.toContain('Instead, four.');

    const log = Buffer.concat(bridgeLog).toString('utf8');
    expect(log.match(/went back \(.*\): ACP session \S+, forked from \S+ after message \S+/g)).toHaveLength(2);
  },
  TEST_TIMEOUT_MS,
);

test(
  'Retry of an answer that ended at a confirmation still shown (issue 52): it goes back like any Retry; the model never sees the abandoned attempt',
  async () => {
    const FIRST = 'Retry at a confirmation: first words.';
    const SECOND = 'Now clean the build folder.';
    let cleanings = 0;
    scripts.set(FIRST, (request) => {
      if (!lastUserText(request).includes(SECOND)) return textReply(`answered: ${lastUserText(request)}`);
      // The first time, a command that needs the person's confirmation; asked again, words.
      return ++cleanings === 1 ? toolUseReply('Bash', { command: 'rm -rf build-to-clean', description: 'Clean the build folder' }) : textReply('answered again: clean it');
    });
    const first = await chat([user(FIRST)], { marker: 'rc1' });
    const pending = await chat([user(FIRST), assistantOf(first), user(SECOND)], { marker: 'rc2' });
    expect(toolCallsOf(pending)).toHaveLength(1);

    // Retry (Copilot sends the request again; the confirmation is dropped with the answer it ended).
    const retried = await chat([user(FIRST), assistantOf(first), user(SECOND)], { marker: 'rc3' });
    expect(textOfParts(retried)).toBe('answered again: clean it');
    const afterRetry = messagesOf(conversationOf(FIRST).at(-1)!);
    expect(userTexts(afterRetry).filter((text) => text.includes(FIRST) || text.includes(SECOND))).toEqual([FIRST, SECOND]);
    expect(assistantTexts(afterRetry)).toEqual([textOfParts(first)]);
    expect(JSON.stringify(afterRetry)).not.toContain('rm -rf build-to-clean');
    expect(Buffer.concat(bridgeLog).toString('utf8')).toMatch(/went back \(.*Retry.*\): ACP session \S+, forked from/);
  },
  TEST_TIMEOUT_MS,
);

test(
  'other words instead of an answer to a confirmation still shown are the person moving on: a cancel in the same session, the command never runs',
  async () => {
    const FIRST = 'Moving on from a confirmation: first words.';
    const SECOND = 'Now clean the other build folder.';
    const THIRD = 'No, just tell me its size.';
    scripts.set(FIRST, (request) => {
      const last = lastUserText(request);
      return last.includes(SECOND) ? toolUseReply('Bash', { command: 'touch other-build-ran', description: 'Clean the other build folder' }) : textReply(`answered: ${last.trim().split('\n').at(-1)}`);
    });
    const first = await chat([user(FIRST)], { marker: 'mo1' });
    const pending = await chat([user(FIRST), assistantOf(first), user(SECOND)], { marker: 'mo2' });
    expect(toolCallsOf(pending)).toHaveLength(1);

    const moved = await chat([user(FIRST), assistantOf(first), user(THIRD)], { marker: 'mo3' });
    expect(textOfParts(moved)).toContain(`answered: ${THIRD}`);
    const requests = conversationOf(FIRST);
    expect(sessionIdOf(requests.at(-1)!)).toBe(sessionIdOf(requests[0]!));
    expect(existsSync(path.join(workspace, 'other-build-ran'))).toBe(false);
  },
  TEST_TIMEOUT_MS,
);

test(
  "Claude Code's subagents: two in parallel, each named by its task while it runs, its Read under its name, one clean end line each, the main answer once",
  async () => {
    const FIRST = 'Survey the workspace with two subagents, please.';
    writeFileSync(path.join(workspace, 'README.md'), '# Survey demo\n\nA workspace for subagents to read.\n');
    const SURVEYS = ['Alpha survey', 'Beta survey'];
    // Each subagent's conversation begins with its prompt: read the README, then report.
    for (const survey of SURVEYS) {
      scriptsContaining.set(`Do the ${survey} of this workspace.`, (request) =>
        toolUses(request).some((u) => u.name === 'Read')
          ? textReply(`${survey} found a demo README. It has one heading.`)
          : toolUseReply('Read', { file_path: path.join(workspace, 'README.md') }),
      );
    }
    scripts.set(FIRST, (request) =>
      toolUses(request).some((u) => u.name === 'Agent')
        ? textReply('Both surveys agree: a demo workspace.')
        : {
            content: SURVEYS.flatMap(
              (survey) => toolUseReply('Agent', { description: survey, prompt: `Do the ${survey} of this workspace.`, subagent_type: 'Explore', run_in_background: false }).content,
            ),
          },
    );

    const parts = await chat([user(FIRST)]);

    const texts = contentOf(parts).flatMap((p) => (p.type === 'text' ? [p.value] : []));
    const answer = texts.join('');
    for (const survey of SURVEYS) {
      // Its own conversation with the model: the Read, then the report on what it read.
      const asked = mock.conversation().filter((r) => userTexts(messagesOf(r))[0]?.includes(`Do the ${survey} of this workspace.`) === true);
      expect(asked.map((r) => toolUses(messagesOf(r)).map((u) => u.name))).toEqual([[], ['Read']]);
      const named = texts.findIndex((t) => t.includes(`🤖 ${survey}\n`));
      const readStarts = texts.findIndex((t) => t.includes(`🔧 \`${survey} › Read README.md\``));
      const readEnds = texts.findIndex((t) => t.includes(`✓ \`${survey} › Read README.md\``));
      const ends = texts.filter((t) => t.includes(`✓ ${survey} (`));
      // Named while it runs: before its read, which comes before its end.
      expect(named).toBeGreaterThanOrEqual(0);
      expect(readStarts).toBeGreaterThan(named);
      expect(readEnds).toBeGreaterThan(readStarts);
      expect(ends).toEqual([expect.stringMatching(new RegExp(`✓ ${survey} \\(Explore\\): done · 1 tool use · [\\d.]+k? tokens · \\d+ s — ${survey} found a demo README\\.\\n`))]);
      expect(texts.findIndex((t) => t.includes(`✓ ${survey} (`))).toBeGreaterThan(readEnds);
    }
    expect(answer).not.toContain('Task');
    expect(answer).not.toMatch(/tools-used-before-summary|Subagent hand-back|<\/?[A-Za-z]/);
    expect(answer).not.toMatch(/🔧 `Read README\.md`/);
    expect(answer.split('Both surveys agree: a demo workspace.')).toHaveLength(2);
  },
  TEST_TIMEOUT_MS,
);

test(
  "a subagent's permission names the subagent that asks: the agent-action call carries its name, and once allowed its command runs and it reports",
  async () => {
    const FIRST = 'Have a subagent create asked.txt, please.';
    const SURVEY = 'Alpha survey';
    const COMMAND = 'touch asked.txt';
    scriptsContaining.set(`Do the ${SURVEY} of this workspace.`, (request) =>
      toolUses(request).some((u) => u.name === 'Bash') ? textReply(`${SURVEY} created asked.txt.`) : toolUseReply('Bash', { command: COMMAND, description: 'Create asked.txt' }),
    );
    scripts.set(FIRST, (request) =>
      toolUses(request).some((u) => u.name === 'Agent')
        ? textReply('The subagent made the file.')
        : toolUseReply('Agent', { description: SURVEY, prompt: `Do the ${SURVEY} of this workspace.`, subagent_type: 'general-purpose', run_in_background: false }),
    );

    const first = await chat([user(FIRST)]);
    const [permission] = toolCallsOf(first);
    expect(permission).toMatchObject({ toolName: AGENT_ACTION, parameters: { kind: 'execute', subagent: SURVEY, raw_input: expect.objectContaining({ command: COMMAND }) } });
    expect(existsSync(path.join(workspace, 'asked.txt'))).toBe(false);

    const second = await chat([user(FIRST), assistantOf(first), approve(permission!)]);
    expect(existsSync(path.join(workspace, 'asked.txt'))).toBe(true);
    expect(textOfParts(second)).toMatch(new RegExp(`✓ ${SURVEY} \\(general-purpose\\): done · 1 tool use`));
    expect(textOfParts(second).endsWith('The subagent made the file.')).toBe(true);
  },
  TEST_TIMEOUT_MS,
);

test(
  "a subagent's edit through VS Code's create_file: the answer names the subagent that asks right before VS Code's call, which VS Code reviews",
  async () => {
    const FIRST = 'Have a subagent write notes-by-subagent.txt.';
    const SURVEY = 'Notes writer';
    const file = path.join(workspace, 'notes-by-subagent.txt');
    const bridged = /mcp__vscode-tools-[0-9a-f]+__create_file/;
    scriptsContaining.set(`Do the ${SURVEY} of this workspace.`, (request) => {
      const name = bridged.exec(JSON.stringify(request.messages))?.[0];
      if (name === undefined) return textReply('I have no create_file tool.');
      return callDeferredTool(request, name, { filePath: file, content: 'written by a subagent\n' }, () => `${SURVEY} wrote the notes.`);
    });
    scripts.set(FIRST, (request) =>
      toolUses(request).some((u) => u.name === 'Agent')
        ? textReply('The subagent wrote them.')
        : toolUseReply('Agent', { description: SURVEY, prompt: `Do the ${SURVEY} of this workspace.`, subagent_type: 'general-purpose', run_in_background: false }),
    );
    const tools = [AGENT_ACTION_DEFINITION, CREATE_FILE, REPLACE_STRING];

    const asked = await chat([user(FIRST)], { tools });
    const shown = contentOf(asked);
    const [create] = toolCallsOf(asked);
    expect(create).toMatchObject({ toolName: 'create_file', parameters: { filePath: file } });
    // The line right before VS Code's call names the subagent that asks.
    const before = shown[shown.indexOf(create!) - 1];
    expect(before).toEqual({ type: 'text', value: expect.stringMatching(new RegExp(`> 🤖 ${SURVEY} asks: \`create_file\`\\n\\n$`)) });

    writeFileSync(file, 'written by a subagent\n');
    const last = await chat([user(FIRST), assistantOf(asked), edited(create!, file)], { tools });
    expect(textOfParts(last)).toMatch(new RegExp(`✓ ${SURVEY} \\(general-purpose\\): done · 2 tool uses`));
    expect(textOfParts(last).endsWith('The subagent wrote them.')).toBe(true);
  },
  TEST_TIMEOUT_MS,
);

test(
  "Stop during two running subagents: the request fails with -32800, neither subagent asks the model again, and the next answer begins with a line for each, stopped; the conversation goes on in its session",
  async () => {
    const FIRST = 'Survey the workspace slowly with two subagents, please.';
    const SECOND = 'Never mind the surveys: are you there?';
    const SURVEYS = ['Slow alpha survey', 'Slow beta survey'];
    const subagentRequests = (): RecordedRequest[] => mock.conversation().filter((r) => SURVEYS.some((s) => userTexts(messagesOf(r))[0]?.includes(`Do the ${s} of this workspace.`) === true));
    for (const survey of SURVEYS) {
      // A report that streams for far longer than the test waits: the subagent is still running when Stop comes.
      scriptsContaining.set(`Do the ${survey} of this workspace.`, () => ({ content: [{ type: 'text', text: Array.from({ length: 400 }, (_, i) => `${i} `) }], delayMs: 50 }));
    }
    scripts.set(FIRST, (request) =>
      lastUserText(request).includes(SECOND) || lastUserText(request).includes('And now?')
        ? textReply('Yes, here.')
        : { content: SURVEYS.flatMap((survey) => toolUseReply('Agent', { description: survey, prompt: `Do the ${survey} of this workspace.`, subagent_type: 'Explore', run_in_background: false }).content) },
    );

    const cts = new CancellationTokenSource();
    const received: ResponsePart[] = [];
    const cancelled = chat([user(FIRST)], { token: cts, onPart: (part) => received.push(part) });
    // Both subagents are asking the model, and both are named in the answer: then the person presses Stop.
    expect(await waitUntil(() => subagentRequests().length === 2 && SURVEYS.every((s) => textOfParts(received).includes(`🤖 ${s}`)), RESPONSE_MS)).toBe(true);
    cts.cancel();

    expect(await rejectionCode(cancelled)).toBe(ProtocolErrorCodes.RequestCancelled);
    expect(await waitUntil(() => subagentRequests().every((r) => r.endedAt !== undefined), 10_000)).toBe(true);
    expect(subagentRequests().every((r) => r.aborted === true)).toBe(true);
    const stoppedAnswer = { role: 'assistant' as const, content: [{ type: 'text' as const, value: textOfParts(received) }] };
    const next = await chat([user(FIRST), stoppedAnswer, user(SECOND)]);
    // The stopped response is read no more: the next answer begins with a line for each subagent the stop ended.
    const lines = textOfParts(next).split('Yes, here.');
    expect(lines).toHaveLength(2);
    for (const survey of SURVEYS) expect(lines[0]).toMatch(new RegExp(`^> ⏹ ${survey} \\(Explore\\): stopped · 0 tool uses · \\d+ s$`, 'm'));
    expect(lines[0]!.match(/⏹/g)).toHaveLength(2);
    // No model request of either subagent followed the stop, and the main conversation asked once more, for the answer.
    expect(subagentRequests()).toHaveLength(2);
    expect(conversationOf(FIRST).map((r) => lastUserText(messagesOf(r)).includes(SECOND))).toEqual([false, true]);
    // That answer, lines and all, is the conversation as it goes on: the next message is answered in the same session, told nothing again.
    const THIRD = 'And now?';
    const third = await chat([user(FIRST), stoppedAnswer, user(SECOND), assistantOf(next), user(THIRD)]);
    expect(textOfParts(third)).toBe('Yes, here.');
    expect(textOfParts(third)).not.toContain('⏹');
    const asked = conversationOf(FIRST);
    expect(asked).toHaveLength(3);
    expect(new Set(asked.map(sessionIdOf)).size).toBe(1);
    const said = userTexts(messagesOf(asked[2]!));
    // (Claude Code marks its interrupted turn in the user message after it.)
    expect([said.filter((t) => t.includes(SECOND)).length, said.filter((t) => t.includes(THIRD)).length]).toEqual([1, 1]);
    expect(said.at(-1)).toContain(THIRD);
  },
  TEST_TIMEOUT_MS,
);

test(
  "a session begun by Claude Code's own CLI (print mode, same HOME) is listed, continued in a new chat, and its next message goes on in that session",
  async () => {
    const FIRST = 'Remember the word heliotrope, please.';
    const NEXT = 'Which word did I ask you to remember?';
    scripts.set(FIRST, (request) => textReply(lastUserText(request).includes(FIRST) ? 'Heliotrope: remembered.' : 'You asked me to remember heliotrope.'));
    const agentEnv = 'mcp_server' in claude ? claude.mcp_server.env : [];
    const env = { ...process.env, ...Object.fromEntries(agentEnv.map(({ name, value }) => [name, value])) };
    // Not synchronously: the mock answers from this process.
    const printed = await promisify(execFile)(CLAUDE_CLI, ['-p', FIRST], { cwd: workspace, env, timeout: RESPONSE_MS });
    expect(printed.stdout.trim()).toBe('Heliotrope: remembered.');

    const listed = await client.listAgentSessions({ agent: claude });
    expect(listed.listed).toBe(true);
    const begun = listed.sessions.find((s) => s.title?.includes('heliotrope') === true);
    expect(begun).toBeDefined();
    const { exchanges } = await client.continueAgentSession({ agent: claude, sessionId: begun!.sessionId });
    expect(exchanges).toEqual([{ request: FIRST, response: 'Heliotrope: remembered.' }]);

    // The new chat's next request, as Copilot sends it: the shown request in its blocks, the shown answer, the new words.
    const shown: Message[] = exchanges.flatMap(({ request, response }): Message[] => [
      user(`<context>\nThe current date is November 29, 2026.\n</context>\n<userRequest>\n${request}\n</userRequest>`),
      { role: 'assistant', content: [{ type: 'text', value: response }] },
    ]);
    expect(textOfParts(await chat([...shown, user(NEXT)]))).toBe('You asked me to remember heliotrope.');
    // Claude's model holds the earlier exchange as its own messages, in that session: not a transcript told anew.
    const asked = messagesOf(conversationOf(FIRST).at(-1)!);
    expect(assistantTexts(asked)).toContain('Heliotrope: remembered.');
    expect(userTexts(asked).join('\n')).not.toContain('This conversation began before this session');
    expect(userTexts(asked).filter((t) => t.includes(FIRST))).toHaveLength(1);
    expect(sessionIdOf(conversationOf(FIRST).at(-1)!)).toBe(begun!.sessionId);
    expect(logTail(400)).toContain(`resumed ACP session ${begun!.sessionId}`);
    // Restore Checkpoint on the new message, other words instead: Claude's model holds the shown exchange as its own
    // (its session forked after it, at the point the replay named), nothing of the message taken back.
    const OTHER = 'Which colour was that flower again?';
    expect(textOfParts(await chat([...shown, user(OTHER)]))).toBe('You asked me to remember heliotrope.');
    const back = messagesOf(conversationOf(FIRST).at(-1)!);
    expect(lastUserText(back)).toContain(OTHER);
    expect(assistantTexts(back)).toEqual(['Heliotrope: remembered.']);
    expect(userTexts(back).join('\n')).not.toContain(NEXT);
    expect(userTexts(back).join('\n')).not.toContain('This conversation began before this session');
    expect(logTail(400)).toContain(`forked from ${begun!.sessionId} after message`);
    // A session Claude Code does not have (deleted in its terminal meanwhile): one sentence.
    const gone = await client.continueAgentSession({ agent: claude, sessionId: randomUUID() }).then(() => 'continued', (error: Error) => error.message);
    expect(gone).toBe('claude no longer has this session (it was deleted, or belongs to another folder): start a new chat instead.');
  },
  TEST_TIMEOUT_MS,
);

test(
  "Claude's models and context window reach the client (symposium/agentInfo)",
  async () => {
    const reported = agentInfos.filter((p) => JSON.stringify(p.agent) === JSON.stringify(claude)).at(-1);
    expect(reported?.info.models?.configId).toBeDefined();
    expect(reported!.info.models!.choices.length).toBeGreaterThan(0);
    expect(reported!.info.models!.choices.map((c) => c.value)).toContain(reported!.info.models!.current);
    // claude-agent-acp accepts images and reports its context window with usage_update.
    expect(reported!.info.imageInput).toBe(true);
    expect(reported!.info.contextWindow).toBeGreaterThan(0);
  },
  TEST_TIMEOUT_MS,
);

test(
  'closing the bridge\'s stdin ends the bridge and every agent process it started',
  async () => {
    const running = processesOfOurs();
    for (const { pid } of running) ours.add(pid);
    // The agent and its Claude child, at least, were running with our HOME.
    expect(running.length).toBeGreaterThanOrEqual(2);
    expect(running.some((p) => p.command.includes('claude-agent-acp'))).toBe(true);

    client.dispose();
    bridge.stdin!.end();
    const exit = await new Promise<number | null>((resolve) => {
      if (bridge.exitCode !== null) resolve(bridge.exitCode);
      else bridge.once('exit', (code) => resolve(code));
    });
    expect(exit).toBe(0);
    await waitUntil(() => processesOfOurs().length === 0, 10_000);
    expect(processesOfOurs()).toEqual([]);
  },
  TEST_TIMEOUT_MS,
);
