/**
 * VS Code's tools offered to agents through the real bridge: the built `symposium-lm vscodelm` over stdio,
 * driving the scripted ACP agent (test/fixtures/scripted-agent.ts), which reaches the bridged tools with the
 * real MCP SDK client, over HTTP (`--mcp-http`) or through the `symposium-lm mcp-relay` stdio relay. What
 * each test checks is what the consumer (VS Code) sees: the tool calls a response ends on, and what the
 * agent says once the next request answered them.
 */
import { networkInterfaces } from 'node:os';
import { CancellationTokenSource, Trace } from 'vscode-jsonrpc/node.js';
import { elizaRespond, initialElizaState } from '../../src/agents/eliza/engine.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, Message, ResponsePart, ToolDefinition } from '../../src/protocol/messages.js';

import { AGENT_ACTION, AgentBridge as Bridge, RUN_IN_TERMINAL, SCRIPTED_AGENT as AGENT, approvals, connects, rejection, replied, resultOf, skipped, sleep, toolCallsOf, user } from './agent-bridge.js';

type ToolCall = Extract<ResponsePart, { type: 'tool_call' }>;
type ResultItem = Extract<Message['content'][number], { type: 'tool_result' }>['result'][number];

/** The user message carrying tool results, in the order given. */
const results = (...answers: [toolCallId: string, result: ResultItem[]][]): Message => ({
  role: 'user',
  content: answers.map(([toolCallId, result]) => ({ type: 'tool_result' as const, toolCallId, result })),
});
const text = (value: string): ResultItem => ({ type: 'text', value });
const textParts = (parts: readonly ResponsePart[]): string[] => parts.flatMap((p) => (p.type === 'text' ? [p.value] : []));

function tool(name: string, description = `the ${name} tool`, properties: Record<string, unknown> = {}): ToolDefinition {
  return { name, description, inputSchema: { type: 'object', properties } };
}

const SEARCH = tool('search_workspace', 'Searches the workspace for text', { query: { type: 'string' } });

const HTTP_AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [AGENT, '--mcp-http'], env: [] } };
const STDIO_AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [AGENT], env: [] } };
const ELIZA: AgentDefinition = { eliza: { deterministic: true } };

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The one tool call a response ends on. */
function endsOnOneCall(parts: readonly ResponsePart[]): ToolCall {
  const calls = toolCallsOf(parts);
  expect(calls).toHaveLength(1);
  expect(parts[parts.length - 1]).toBe(calls[0]);
  return calls[0];
}

/**
 * The agent's log of a call that ended declined. `late` when the turn's cancel reached the agent first; the
 * declined result and session/cancel travel on different channels (HTTP, stdio), so either may come first.
 */
const DECLINED = (name: string): RegExp =>
  new RegExp(`scripted-agent: (?:late )?result ${name}: error ${name}: The user declined or cancelled the ${name} tool call\\.`);

let bridge: Bridge;
/** Processes a test started outside the bridge's own bookkeeping (stdio relays), killed if still there. */
const strays: number[] = [];

beforeEach(() => {
  bridge = new Bridge();
});

afterEach(async () => {
  await bridge.close();
  for (const pid of strays.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

describe('bridged tools over HTTP', () => {
  test('the agent sees exactly the offered tools, and a call goes to VS Code and its result back to the agent', async () => {
    const tools = [SEARCH, AGENT_ACTION];
    const first = [user('mcp-list', 'mcp-call search_workspace {"query":"x"}')];
    const asked = await bridge.chat(first, HTTP_AGENT, tools);
    expect(textParts(asked)).toEqual(['search_workspace']);
    const call = endsOnOneCall(asked);
    expect(call).toEqual({ type: 'tool_call', toolCallId: expect.any(String), toolName: 'search_workspace', parameters: { query: 'x' } });

    const rest = await bridge.chat([...first, replied(asked), results([call.toolCallId, [text('3 matches')]])], HTTP_AGENT, tools);
    expect(textOfParts(rest)).toBe('result search_workspace: 3 matches');
    expect(toolCallsOf(rest)).toEqual([]);
  });

  test('the tool definitions reach the agent as offered; a tool without an object schema gets an empty one', async () => {
    const bare: ToolDefinition = { name: 'get_time', description: 'Tells the time' };
    const listed = await bridge.chat([user('mcp-list-full')], HTTP_AGENT, [SEARCH, bare]);
    expect(JSON.parse(textOfParts(listed))).toEqual([
      { name: 'search_workspace', description: 'Searches the workspace for text', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } },
      { name: 'get_time', description: 'Tells the time', inputSchema: { type: 'object', properties: {} } },
    ]);
  });

  test('several calls in one turn are shown together; results in another order reach the right calls', async () => {
    await bridge.close();
    // Parallel calls reach the bridge as separate HTTP requests: on a saturated machine they can arrive
    // further apart than the default settle window, which would show them in two rounds. A wide window
    // keeps this test about batching and matching, not about the machine's load.
    bridge = new Bridge(['--tool-settle-ms', '300']);
    const tools = [tool('read_file'), tool('grep'), tool('run_tests'), tool('list_dir'), tool('git_status')];
    const first = [user('mcp-calls read_file {"path":"a.ts"} ; grep {"pattern":"fo;o"} ; run_tests {}')];
    const asked = await bridge.chat(first, HTTP_AGENT, tools);
    const calls = toolCallsOf(asked);
    expect(asked).toEqual(calls);
    expect(calls.map((c) => [c.toolName, c.parameters]).sort()).toEqual(
      [
        ['grep', { pattern: 'fo;o' }],
        ['read_file', { path: 'a.ts' }],
        ['run_tests', {}],
      ],
    );
    expect(new Set(calls.map((c) => c.toolCallId)).size).toBe(3);

    const answer: Record<string, string> = { read_file: 'export const a = 1;', grep: '2 hits for fo;o', run_tests: 'all 12 passed' };
    const reversed = [...calls].reverse().map((c): [string, ResultItem[]] => [c.toolCallId, [text(answer[c.toolName])]]);
    const rest = await bridge.chat([...first, replied(asked), results(...reversed)], HTTP_AGENT, tools);
    expect(textOfParts(rest)).toBe(
      ['result read_file: export const a = 1;', 'result grep: 2 hits for fo;o', 'result run_tests: all 12 passed'].join('\n'),
    );
  });

  test('calls the agent announced are shown as soon as all of them arrived, without waiting out the settle window', async () => {
    await bridge.close();
    // A window longer than the test may take: the response ends in time only because the agent announced its calls.
    bridge = new Bridge(['--tool-settle-ms', '600000']);
    const announcing: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [AGENT, '--mcp-http', '--announce-calls'], env: [] } };
    const tools = [tool('read_file'), tool('grep'), tool('run_tests')];
    const first = [user('mcp-calls read_file {"path":"a.ts"} ; grep {"pattern":"x"} ; run_tests {}')];
    const asked = await bridge.chat(first, announcing, tools);
    expect(toolCallsOf(asked).map((c) => c.toolName).sort()).toEqual(['grep', 'read_file', 'run_tests']);
    const answers = toolCallsOf(asked).map((c): [string, ResultItem[]] => [c.toolCallId, [text(`${c.toolName} done`)]]);
    const rest = await bridge.chat([...first, replied(asked), results(...answers)], announcing, tools);
    expect(textOfParts(rest)).toBe('result read_file: read_file done\nresult grep: grep done\nresult run_tests: run_tests done');
  });

  test('a tool list that changes between requests is announced; an unchanged one is not', async () => {
    const v1 = [tool('a'), tool('b')];
    const v2 = [...v1, tool('c')];
    const v3 = [...v1, tool('c', 'the c tool, now better')];
    const history: Message[] = [];
    const turn = async (line: string, tools: ToolDefinition[]): Promise<string> => {
      history.push(user(line));
      const parts = await bridge.chat([...history], HTTP_AGENT, tools);
      history.push(replied(parts));
      return textOfParts(parts);
    };
    expect(await turn('mcp-watch', v1)).toBe('watching');
    expect(JSON.parse(await turn('mcp-changes 1 10000', v2))).toEqual([['a', 'b', 'c']]);
    expect(JSON.parse(await turn('mcp-changes 2 10000', v3))).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
    expect(JSON.parse(await turn('mcp-list-full', v3))[2]).toMatchObject({ name: 'c', description: 'the c tool, now better' });
    // Nothing changed: after waiting a while, still the two announcements.
    expect(JSON.parse(await turn('mcp-changes 3 400', v3))).toHaveLength(2);
  });

  test('a call whose turn the next request leaves out ends as declined, and the new question is answered', async () => {
    const first = user('mcp-call search_workspace {"query":"x"}', 'say after the call');
    const asked = await bridge.chat([first], HTTP_AGENT, [SEARCH]);
    expect(endsOnOneCall(asked).toolName).toBe('search_workspace');
    // The user rejected the call (or stopped): VS Code's next request lacks the exchange.
    const next = await bridge.chat([first, user('say something else')], HTTP_AGENT, [SEARCH]);
    // Only the new answer: nothing the agent said after the declined call (if it got that far) leaks into it.
    expect(textOfParts(next)).toBe('something else');
    expect(await bridge.logged(DECLINED('search_workspace'))).toMatch(DECLINED('search_workspace'));
  });

  // The consumer's tool loop did not go on by itself: the call's result came with the person's next words. Copilot
  // words it "The user cancelled the tool call." (recorded in the real Chat view); another consumer, or a later
  // Copilot, may word it otherwise or send nothing.
  test.each<[string, ResultItem[]]>([
    ["Copilot's \"The user cancelled the tool call.\"", [text('The user cancelled the tool call.')]],
    ['"Stopped by the user."', [text('Stopped by the user.')]],
    // Cline 4.1.13's, after Cancel while its run_commands ran and the person's next message (recorded in the real host).
    ['"Command failed: Command execution aborted"', [text('Command failed: Command execution aborted')]],
    ['an empty text', [text('')]],
    ['no content at all', []],
  ])("a call stopped while it ran (its result %s, then the person's next words): its turn is over, nothing more of it shows, the words are answered", async (_wording, stoppedResult) => {
    const RUN = tool('run_in_terminal', 'Runs a command in the terminal', { command: { type: 'string' } });
    const first = user('mcp-call run_in_terminal {"command":"sleep 60"}', 'say the rest of the stopped turn');
    const asked = await bridge.chat([first], HTTP_AGENT, [RUN]);
    const call = endsOnOneCall(asked);
    const stopped = results([call.toolCallId, stoppedResult]);
    const next = await bridge.chat([first, replied(asked), stopped, user('say after the stop')], HTTP_AGENT, [RUN]);
    expect(textOfParts(next)).toBe('after the stop');
    expect(await bridge.logged(DECLINED('run_in_terminal'))).toMatch(DECLINED('run_in_terminal'));
  });

  // VS Code's steer (issue 59, its default for a message sent while a request runs): Copilot's tool loop ends after
  // the round and sends the call's real result, then the person's words. The result answers the call; the words reach
  // the agent once, after what its turn still does: into that turn where the agent can be steered (`--steering`, as
  // claude-agent-acp's `_session/steering`), else as the session's next prompt.
  const EDIT = tool('replace_string_in_file', 'Edits a file', { filePath: { type: 'string' }, oldString: { type: 'string' }, newString: { type: 'string' } });
  const EDITED = 'The following files were successfully edited:\n/ws/a.ts';
  test.each<[string, AgentDefinition, RegExp]>([
    ['into its running turn, where it can be steered', { mcp_server: { name: 'scripted', command: process.execPath, args: [AGENT, '--mcp-http', '--steering'], env: [] } }, /steered into the running turn/],
    ['as its next prompt, where it cannot', HTTP_AGENT, /^(?![\s\S]*steered into the running turn)/],
  ])("a consumer's edit whose result comes with the person's words (a steer): the agent gets the edit's outcome as the call's result, its turn goes on, and the words reach it %s", async (_how, agent, steered) => {
    const first = user('mcp-call replace_string_in_file {"filePath":"/ws/a.ts","oldString":"a","newString":"b"}', 'stream 3 150', 'say the rest of the turn');
    const asked = await bridge.chat([first], agent, [EDIT]);
    const call = endsOnOneCall(asked);
    const next = await bridge.chat([first, replied(asked), results([call.toolCallId, [text(EDITED)]]), user('say steered words')], agent, [EDIT]);
    expect(textOfParts(next)).toBe(`result replace_string_in_file: ${EDITED}c1 c2 c3 the rest of the turnsteered words`);
    expect(bridge.stderr()).not.toMatch(DECLINED('replace_string_in_file'));
    expect(await bridge.logged(/the person's words (steered into the running turn|are the next prompt)|conversation .* prompt/)).toMatch(steered);
  });

  // Cline 4.1.13 after Reject at "Cline wants to execute this command" (recorded in the real host): its loop goes on by
  // itself, the refusal as the result and its note after it, none of the person's words.
  test("a command the person rejects in the consumer's own approval reaches the agent as that refusal, and its turn goes on", async () => {
    const RUN = tool('run_commands', 'Runs commands', { commands: { type: 'array' } });
    const first = user('mcp-call run_commands {"commands":["touch x"]}', 'say the rest of the turn');
    const asked = await bridge.chat([first], HTTP_AGENT, [RUN]);
    const call = endsOnOneCall(asked);
    const rejected = results([call.toolCallId, [text('{"error":"User denied the tool execution"}')]]);
    const note = user('Above is the result of calling one or more tools. The user cannot see the results, so you should explain them to the user if referencing them in your answer.');
    const next = await bridge.chat([first, replied(asked), rejected, note], HTTP_AGENT, [RUN]);
    expect(textOfParts(next)).toBe('result run_commands: {"error":"User denied the tool execution"}the rest of the turn');
  });

  // The consumer's tool never returned (its terminal closed, the chat left): the agent is not left waiting for ever.
  test('a call VS Code never answers is given up after --tool-call-timeout-ms: the agent is told so and goes on, and the next message answers', async () => {
    await bridge.close();
    bridge = new Bridge(['--tool-call-timeout-ms', '300']);
    const RUN = tool('run_in_terminal', 'Runs a command in the terminal', { command: { type: 'string' } });
    const first = user('mcp-call run_in_terminal {"command":"sleep 60"}', 'say the rest of the turn');
    const asked = await bridge.chat([first], HTTP_AGENT, [RUN]);
    endsOnOneCall(asked);
    const GIVEN_UP = /result run_in_terminal: error run_in_terminal: The run_in_terminal tool call got no answer from VS Code within 300 ms and was given up/;
    expect(await bridge.logged(GIVEN_UP)).toMatch(GIVEN_UP);
    expect(bridge.stderr()).toMatch(/VS Code did not answer the agent's run_in_terminal call within 300 ms/);
    // What the agent did after it shows first, then the answer to the person's next words.
    const next = await bridge.chat([first, replied(asked), user('say next')], HTTP_AGENT, [RUN]);
    expect(toolCallsOf(next)).toEqual([]);
    expect(textOfParts(next)).toMatch(/was given up.*the rest of the turnnext$/s);
  });

  test('a call whose response is cancelled with $/cancelRequest ends as declined', async () => {
    await bridge.close();
    // A long settle keeps the response open after the tool call, so that the cancel lands during it.
    bridge = new Bridge(['--tool-settle-ms', '1000']);
    const first = user('mcp-call search_workspace {"query":"x"}');
    const source = new CancellationTokenSource();
    const seen: ResponsePart[] = [];
    const running = bridge.client.provideChatResponse(
      { modelId: 'scripted', messages: [first], agent: HTTP_AGENT, options: { tools: [SEARCH] } },
      (part) => {
        seen.push(part);
        if (part.type === 'tool_call') source.cancel();
      },
      source.token,
    );
    expect((await rejection(running)).code).toBe(ProtocolErrorCodes.RequestCancelled);
    expect(toolCallsOf(seen).map((c) => c.toolName)).toEqual(['search_workspace']);
    expect(await bridge.logged(DECLINED('search_workspace'))).toMatch(DECLINED('search_workspace'));
    const next = await bridge.chat([first, user('say next')], HTTP_AGENT, [SEARCH]);
    expect(textOfParts(next)).toBe('next');
  });

  test('the server listens on 127.0.0.1 only and refuses requests without the right token', async () => {
    // Adjacent text parts may reach the client joined (the bridge joins what arrives while a write is out).
    const parts = await bridge.chat([user('mcp-list', 'say |', 'mcp-noauth', 'say |', 'mcp-badauth', 'say |', 'mcp-address', 'say |', 'mcp-servers')], HTTP_AGENT, [SEARCH]);
    const [listed, noauth, badauth, host, servers] = textOfParts(parts).split('|');
    // The agent's own connection, with the token it was given, works; without it, nothing does.
    expect([listed, noauth, badauth, host]).toEqual(['search_workspace', 'status 401', 'status 401', '127.0.0.1']);
    // Nothing answers on the machine's other addresses.
    const { port } = new URL((JSON.parse(servers) as { url: string }[])[0].url);
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i !== undefined && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    for (const address of external) expect(await connects(address, Number(port))).toBe(false);
  });

  test('an image in a tool result reaches the agent as MCP image content', async () => {
    const first = [user('mcp-call take_screenshot {}')];
    const tools = [tool('take_screenshot')];
    const asked = await bridge.chat(first, HTTP_AGENT, tools);
    const call = endsOnOneCall(asked);
    const image: ResultItem = { type: 'data', mimeType: 'image/png', data: PNG };
    const shown = await bridge.chat([...first, replied(asked), results([call.toolCallId, [text('the editor'), image]])], HTTP_AGENT, tools);
    expect(textOfParts(shown)).toBe('result take_screenshot: the editor [image/png]');

    // Byte for byte, with JSON data as text and Copilot's bookkeeping left out.
    const second = [...first, replied(asked), results([call.toolCallId, [text('the editor'), image]]), replied(shown), user('mcp-call-json take_screenshot {}')];
    const again = await bridge.chat(second, HTTP_AGENT, tools);
    const json: ResultItem = { type: 'data', mimeType: 'application/json', data: Buffer.from('{"w":1}').toString('base64') };
    const marker: ResultItem = { type: 'data', mimeType: 'stateful_marker', data: 'e30=' };
    const raw = await bridge.chat([...second, replied(again), results([endsOnOneCall(again).toolCallId, [image, json, marker]])], HTTP_AGENT, tools);
    expect(JSON.parse(textOfParts(raw))).toEqual({
      content: [
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'text', text: '{"w":1}' },
      ],
      isError: false,
    });
  });
});

describe('bridged tools through the stdio relay', () => {
  test('an agent without HTTP MCP gets a stdio entry that carries the token only in its environment', async () => {
    const parts = await bridge.chat([user('mcp-servers')], STDIO_AGENT, [SEARCH]);
    const servers = JSON.parse(textOfParts(parts)) as { name: string; command: string; args: string[]; env: { name: string; value: string }[]; type?: string }[];
    expect(servers).toHaveLength(1);
    const [entry] = servers;
    expect(entry).toMatchObject({ name: expect.stringMatching(/^vscode-tools-[0-9a-f]{6}$/) as unknown, command: process.execPath });
    expect(entry.type).toBeUndefined();
    expect(entry.args[entry.args.length - 1]).toBe('mcp-relay');
    const env = Object.fromEntries(entry.env.map((v) => [v.name, v.value]));
    expect(env.SYMPOSIUM_MCP_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(env.SYMPOSIUM_MCP_AUTHORIZATION).toMatch(/^Bearer \S{20,}$/);
    const token = env.SYMPOSIUM_MCP_AUTHORIZATION.slice('Bearer '.length);
    expect(entry.args.join(' ')).not.toContain(token);
  });

  test('listing and a full call round trip work through symposium-lm mcp-relay', async () => {
    const tools = [SEARCH, AGENT_ACTION];
    const first = [user('mcp-list', 'say |', 'mcp-pid', 'mcp-call search_workspace {"query":"y"}')];
    const asked = await bridge.chat(first, STDIO_AGENT, tools);
    const [listed, pid] = textOfParts(asked).split('|');
    expect(listed).toBe('search_workspace');
    expect(pid).toMatch(/^\d+$/);
    strays.push(Number(pid));
    const call = endsOnOneCall(asked);
    expect(call).toMatchObject({ toolName: 'search_workspace', parameters: { query: 'y' } });
    const rest = await bridge.chat([...first, replied(asked), results([call.toolCallId, [text('3 matches')]])], STDIO_AGENT, tools);
    expect(textOfParts(rest)).toBe('result search_workspace: 3 matches');
  });

  test('tool list changes reach the agent through the relay too', async () => {
    const first = [user('mcp-watch')];
    const watching = await bridge.chat(first, STDIO_AGENT, [tool('a')]);
    expect(textOfParts(watching)).toBe('watching');
    // Adjacent text parts may reach the client joined: a separator keeps the two answers apart.
    const changes = await bridge.chat([...first, replied(watching), user('mcp-changes 1 10000', 'say |', 'mcp-pid')], STDIO_AGENT, [tool('a'), tool('b')]);
    const [list, pid] = textOfParts(changes).split('|');
    strays.push(Number(pid));
    expect(JSON.parse(list)).toEqual([['a', 'b']]);
  });

  // The SDK's StdioServerTransport listens for 'data' and 'error' only; without watching stdin end, the
  // relay lived on, holding its stream to the bridge, after the agent that started it exited.
  test('the relay ends when the agent that started it exits', async () => {
    const first = [user('mcp-pid')];
    const parts = await bridge.chat(first, STDIO_AGENT, [SEARCH]);
    const pid = Number(textOfParts(parts));
    strays.push(pid);
    expect(alive(pid)).toBe(true);
    const error = await rejection(bridge.chat([...first, replied(parts), user('crash 3')], STDIO_AGENT, [SEARCH]));
    expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
    for (let waited = 0; waited < 3000 && alive(pid); waited += 50) await sleep(50);
    expect(alive(pid)).toBe(false);
  });
});

describe('tool lists named by id', () => {
  // The trace `sentRequests` turns on would go on logging every later test's messages.
  afterEach(() => bridge.client.connection.trace(Trace.Off, { log: () => {} }));

  /** The params of each chat request the client sends, as written. */
  function sentRequests(): Array<{ options?: { tools?: ToolDefinition[]; toolListId?: number } }> {
    const sent: Array<{ options?: { tools?: ToolDefinition[]; toolListId?: number } }> = [];
    void bridge.client.connection.trace(Trace.Verbose, {
      log: (message: unknown, data?: string) => {
        if (typeof message === 'string' && message.startsWith("Sending request 'lm/provideLanguageModelChatResponse") && data !== undefined) {
          sent.push(JSON.parse(data.slice(data.indexOf('{'))) as (typeof sent)[number]);
        }
      },
    });
    return sent;
  }

  test('a request offering the tools the last one offered names them instead of carrying them; the agent has them', async () => {
    const sent = sentRequests();
    const history: Message[] = [];
    const listed = async (tools: ToolDefinition[]): Promise<string> => {
      history.push(user('mcp-list'));
      const parts = await bridge.chat([...history], HTTP_AGENT, tools);
      history.push(replied(parts));
      return textOfParts(parts);
    };
    expect(await listed([SEARCH, tool('read_file')])).toBe('search_workspace,read_file');
    // Equal, though other objects (as VS Code hands them over with every request).
    expect(await listed([tool('search_workspace', 'Searches the workspace for text', { query: { type: 'string' } }), tool('read_file')])).toBe('search_workspace,read_file');
    expect(await listed([SEARCH])).toBe('search_workspace');
    expect(sent.map((p) => [p.options?.tools?.map((t) => t.name), p.options?.toolListId])).toEqual([
      [['search_workspace', 'read_file'], 1],
      [undefined, 1],
      [['search_workspace'], 2],
    ]);
  });

  test('a request naming a tool list the bridge does not keep fails with -32002 naming the field; the bridge keeps serving', async () => {
    const params = { modelId: 'scripted', messages: [user('mcp-list')], agent: HTTP_AGENT, options: { toolListId: 7 } };
    const error = await rejection(bridge.client.connection.sendRequest('lm/provideLanguageModelChatResponse', params));
    expect(error.code).toBe(ProtocolErrorCodes.UnknownToolList);
    expect(error.message).toContain('options.toolListId');
    expect(textOfParts(await bridge.chat([user('mcp-list')], HTTP_AGENT, [SEARCH]))).toBe('search_workspace');
  });

  test('tools whose request the bridge refused are sent again with the next request that offers them', async () => {
    const sent = sentRequests();
    const invalid = { modelId: 'scripted', messages: [user('mcp-list')], agent: { nobody: {} } as unknown as AgentDefinition, options: { tools: [SEARCH] } };
    expect((await rejection(bridge.client.collectChatResponse(invalid))).code).toBe(ProtocolErrorCodes.InvalidParams);
    expect(textOfParts(await bridge.chat([user('mcp-list')], HTTP_AGENT, [SEARCH]))).toBe('search_workspace');
    // Carried, refused; named, unknown to the bridge; carried again.
    expect(sent.map((p) => [p.options?.tools?.length, p.options?.toolListId])).toEqual([
      [1, 1],
      [undefined, 1],
      [1, 1],
    ]);
  });
});

describe('permission requests for bridged tools', () => {
  test('are approved without asking VS Code, which confirms its own tools when they run', async () => {
    const parts = await bridge.chat([user('permission-mcp search_workspace')], HTTP_AGENT, [SEARCH]);
    expect(toolCallsOf(parts)).toEqual([]);
    expect(textOfParts(parts)).toContain('permission-mcp search_workspace: allow_once');
  });

  // Asking could only end in a refusal, which the agent's model would read as the person's.
  test('and one for a tool of the server not offered now is not shown to VS Code: the server refuses the call, saying why', async () => {
    const parts = await bridge.chat([user('permission-mcp delete_everything', 'mcp-call delete_everything {}')], HTTP_AGENT, [SEARCH, AGENT_ACTION]);
    expect(toolCallsOf(parts)).toEqual([]);
    expect(textOfParts(parts)).toBe('permission-mcp delete_everything: allow_onceerror delete_everything: The tool delete_everything is not offered in this chat now (its mode or its tools changed since you listed it), so it cannot run.');
  });
});

describe('tools through Eliza', () => {
  const tools = [SEARCH, tool('read_file'), AGENT_ACTION];

  test('lists the offered tools', async () => {
    expect(textOfParts(await bridge.chat([user('list tools')], ELIZA, tools))).toBe('Tools offered: search_workspace, read_file.');
  });

  test('uses a tool and reports its result', async () => {
    const first = [user('use tool search_workspace with {"query":"x"}')];
    const asked = await bridge.chat(first, ELIZA, tools);
    const call = endsOnOneCall(asked);
    expect(call).toMatchObject({ toolName: 'search_workspace', parameters: { query: 'x' } });
    const rest = await bridge.chat([...first, replied(asked), results([call.toolCallId, [text('3 matches')]])], ELIZA, tools);
    expect(textOfParts(rest)).toBe('OK: 3 matches');
  });

  test('asks permission: the approval of that call grants it, any other result refuses it', async () => {
    const first = [user('request permission delete the build folder')];
    const asked = await bridge.chat(first, ELIZA, tools);
    const call = endsOnOneCall(asked);
    expect(call).toMatchObject({ toolName: 'symposium-agent-action', parameters: { title: 'delete the build folder' } });
    const rest = await bridge.chat([...first, replied(asked), approvals(call)], ELIZA, tools);
    expect(textOfParts(rest)).toBe('Permission granted.');
    const again = [...first, replied(asked), approvals(call), replied(rest), user('request permission delete the cache')];
    const askedAgain = await bridge.chat(again, ELIZA, tools);
    const skippedRest = await bridge.chat([...again, replied(askedAgain), skipped(endsOnOneCall(askedAgain))], ELIZA, tools);
    expect(textOfParts(skippedRest)).toBe('Permission refused.');
  });

  test('asks permission only where the consumer can ask the person', async () => {
    const reply = textOfParts(await bridge.chat([user('request permission delete the build folder')], ELIZA, [SEARCH]));
    expect(reply).toBe('I cannot ask you whether to delete the build folder: this chat has no way to ask (as in Ask mode), so I will not.');
  });

  test('asks permission: a rejection (the next request leaves the call out) gets an ordinary reply', async () => {
    const first = user('request permission delete the build folder');
    const asked = await bridge.chat([first], ELIZA, tools);
    expect(endsOnOneCall(asked).toolName).toBe('symposium-agent-action');
    const reply = textOfParts(await bridge.chat([first, user('I feel sad today')], ELIZA, tools));
    expect(reply).toBe(elizaRespond(initialElizaState(), 'I feel sad today', { kind: 'cycle' }).reply);
    expect(reply).not.toMatch(/permission|granted/i);
  });
});

describe("a command's huge output (issue 54)", () => {
  /** 50 MB of a build log: what ran first at its head, the error at its end. */
  function buildLog(): string {
    const line = 'compiling module 0123456789 of the workspace, nothing to report\n';
    const head = 'BUILD STARTED: npm run build\n';
    const tail = 'ERROR: src/main.ts(12,5): the build failed\n';
    return head + line.repeat(Math.ceil((50 * 1024 * 1024) / line.length)) + tail;
  }

  test('50 MB through the consumer\'s run_in_terminal: the agent gets its head and tail and the cut said in words, and the chat goes on', async () => {
    const tools = [RUN_IN_TERMINAL];
    const input = { command: 'npm run build', explanation: 'Builds', goal: 'Build', isBackground: false, timeout: 0 };
    const command = `mcp-call run_in_terminal ${JSON.stringify(input)}`;
    const first = [user(command)];
    const asked = await bridge.chat(first, HTTP_AGENT, tools);
    const call = endsOnOneCall(asked);
    expect(call).toMatchObject({ toolName: 'run_in_terminal', parameters: input });

    const output = buildLog();
    const answered = [...first, replied(asked), resultOf(call.toolCallId, output)];
    const restParts = await bridge.chat(answered, HTTP_AGENT, tools);
    const got = textOfParts(restParts).replace(/^result run_in_terminal: /, '');
    const cut = /\n\[output cut: (\d+) more characters not shown\]\n/.exec(got);
    expect(cut).not.toBeNull();
    const head = got.slice(0, cut!.index);
    const tail = got.slice(cut!.index + cut![0].length);
    expect(head.startsWith('BUILD STARTED: npm run build\n')).toBe(true);
    expect(tail.endsWith('ERROR: src/main.ts(12,5): the build failed\n')).toBe(true);
    expect(output.startsWith(head) && output.endsWith(tail)).toBe(true);
    expect(head.length + Number(cut![1]) + tail.length).toBe(output.length);

    // The next message carries the same output again: it continues the same agent session.
    const seen = textOfParts(await bridge.chat([...answered, replied(restParts), user('history')], HTTP_AGENT, tools));
    expect(JSON.parse(seen)).toEqual([command]);
  }, 60000);

  test('a request still over the limit is refused in words that say what to do; the chat edited before it goes on', async () => {
    await bridge.close();
    bridge = new Bridge(['--max-message-mb', '1']);
    const tools = [RUN_IN_TERMINAL];
    const hello = [user('say hello')];
    const greeted = await bridge.chat(hello, HTTP_AGENT, tools);
    const first = [...hello, replied(greeted), user('mcp-call run_in_terminal {"command":"cat *.log"}')];
    const asked = await bridge.chat(first, HTTP_AGENT, tools);
    const call = endsOnOneCall(asked);
    // Twelve outputs, each under the cut: 1.2 MB together, over this bridge's 1 MB.
    const outputs = Array.from({ length: 12 }, (_, i) => text(`log ${i}: ${'.'.repeat(99_000)}`));
    const refused = await rejection(bridge.chat([...first, replied(asked), results([call.toolCallId, outputs])], HTTP_AGENT, tools));
    expect(refused.code).toBe(ProtocolErrorCodes.InvalidRequest);
    expect(refused.message).toMatch(/^The request is too large: \d+ bytes, over the limit of 1048576 bytes \(1 MB\)\. .*start a new chat, or edit an earlier message/);
    // The person edits their last message: the call waiting for the refused result ends declined, and the
    // new words are answered in the same agent session.
    const edited = await bridge.chat([...hello, replied(greeted), user('history')], HTTP_AGENT, tools);
    expect(JSON.parse(textOfParts(edited))).toEqual(['say hello', 'mcp-call run_in_terminal {"command":"cat *.log"}']);
    expect(await bridge.logged(DECLINED('run_in_terminal'))).toMatch(DECLINED('run_in_terminal'));
  }, 60000);
});
