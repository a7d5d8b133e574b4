/**
 * The same checks for every npm agent of the catalogue, driven through the real bridge as VS Code
 * drives it, with the real agent at its pinned version against a scripted mock of its model API
 * (see catalog-agents.ts). One bridge, one mock and one agent process serve a file's tests; each test
 * is its own chat, so its own ACP session, and the mock routes a request to that test's script by a key
 * in the chat's first user message. Needs `npx tsc -p .` first (npm test does it).
 *
 * The last two tests end bridges by signal and check that no process of the agent is left (found
 * through the fresh HOME every agent process inherits); afterAll kills by pid what they left behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts, type LmClient } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, AgentInfoParams, Message, OpenUrlParams, ResponsePart, SessionConfig, ToolDefinition } from '../../src/protocol/messages.js';
import { INSTALL_TIMEOUT_MS } from '../fixtures/agent-install.js';
import { processesWithHome } from '../fixtures/home-processes.js';
import { SignInMcpServer } from '../fixtures/sign-in-mcp-server.js';
import { waitUntil } from '../fixtures/wait-until.js';
import { allToolResults, assistantTexts, lastToolResults, lastUserText, textReply, userTexts, type ChatView, type RecordedRequest, type Reply, type Script } from '../fixtures/model-api-mock.js';
import { AGENT_ACTION as CONFIRMATION_TOOL, ASK_QUESTIONS, AgentBridge, CREATE_FILE, REPLACE_STRING, RUN_IN_TERMINAL, edited, picking, questionsOf, resultOf, approvals, assistantOf, rejection, sleep, toolCallsOf, user } from './agent-bridge.js';
import type { AgentSetup, AgentUnderTest } from './catalog-agents.js';

const TEST_TIMEOUT_MS = 120_000;
/** How long one response may take (the first also starts the agent: up to half a minute on a loaded machine). */
const RESPONSE_MS = 90_000;
const AGENT_ACTION = 'symposium-agent-action';
/**
 * A session unused this long is closed; the resume test waits it out. Long enough that a conversation the other
 * tests keep going does not idle out between its turns on a loaded machine (at 6 s, under a load average of 10,
 * Qwen's first conversation in the interleaving test was closed and resumed while two others ran).
 */
const SESSION_IDLE_MS = 15_000;

/** What VS Code sends once the person allowed these actions: the approvals the confirmed tool returns. */
const approve = approvals;

/**
 * Asks `question` with WEATHER offered and expects the agent's call of it for Paris as the response's only
 * tool call (no confirmation before a VS Code tool); VS Code's result goes back, and the agent's next
 * response says it and calls nothing more.
 */
export async function expectWeatherCalledThroughBridge(chat: (messages: readonly Message[], options?: ChatOptions) => Promise<ResponsePart[]>, question: string): Promise<void> {
  const first = await chat([user(question)], { tools: [WEATHER] });
  const calls = toolCallsOf(first);
  expect(calls.map((c) => c.toolName)).toEqual([WEATHER.name]);
  expect(calls[0].parameters).toEqual({ city: 'Paris' });
  const second = await chat([user(question), assistantOf(first), resultOf(calls[0].toolCallId, 'Sunny, 21 degrees')], { tools: [WEATHER] });
  expect(toolCallsOf(second)).toEqual([]);
  expect(textOfParts(second)).toContain('Sunny, 21 degrees');
}

/** The VS Code tool the bridged-tool scenarios offer. */
export const WEATHER: ToolDefinition = {
  name: 'get_weather',
  description: 'The current weather of a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** A tool only some conversations are offered. */
const CLOCK: ToolDefinition = { name: 'get_time', description: 'The time of day.', inputSchema: { type: 'object', properties: {} } };

/** Where a chat request goes, and how long its response may take. */
export interface ChatTarget {
  readonly client: LmClient;
  readonly modelId: string;
  readonly agent: AgentDefinition;
  readonly responseMs: number;
  /** The end of the bridge's log, for the failure of a request that got no response. */
  logTail(): string;
}

export interface ChatOptions {
  /** VS Code tools offered besides the confirmation tool. */
  readonly tools?: ToolDefinition[];
  readonly token?: CancellationTokenSource;
  readonly onPart?: (part: ResponsePart) => void;
  readonly config?: SessionConfig;
  /** The stateful marker the consumer gives the response (Copilot's). */
  readonly marker?: string;
}

/**
 * Sends a chat request as VS Code does (offering the confirmation tool) and collects its parts; fails
 * with the bridge's log if no response comes within `target.responseMs`.
 */
export async function chatWith(target: ChatTarget, messages: readonly Message[], options: ChatOptions = {}): Promise<ResponsePart[]> {
  const parts: ResponsePart[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no response within ${target.responseMs} ms; the bridge's log ends with:\n${target.logTail()}`)), target.responseMs);
  });
  const response = target.client.provideChatResponse(
    { modelId: target.modelId, messages: [...messages], agent: target.agent, options: { tools: [CONFIRMATION_TOOL, ...(options.tools ?? [])] }, ...(options.config === undefined ? {} : { config: options.config }), ...(options.marker === undefined ? {} : { marker: options.marker }) },
    (part) => {
      parts.push(part);
      options.onPart?.(part);
    },
    options.token?.token,
  );
  try {
    await Promise.race([response, timeout]);
  } finally {
    clearTimeout(timer);
  }
  return parts;
}

export function describeCatalogAgent(setup: AgentSetup): void {
  let agent: AgentUnderTest;
  let root: string;
  let home: string;
  let workspace: string;
  let bridge: AgentBridge;
  /** An MCP server of the person's own whose tool asks to open a sign-in page (for agents that relay such pages). */
  let signIn: SignInMcpServer | undefined;
  const scripts = new Map<string, Script>();
  const unscripted: string[] = [];
  const agentInfos: AgentInfoParams[] = [];
  const ours = new Set<number>();

  /** The conversation requests of the chat whose first message holds `key`. */
  const conversationOf = (key: string): RecordedRequest[] => agent.mock.conversation().filter((r) => r.view !== undefined && userTexts(r.view).some((t) => t.includes(key)));
  const viewOf = (r: RecordedRequest): ChatView => {
    if (r.view === undefined) throw new Error(`request ${r.seq} is no chat request`);
    return r.view;
  };
  /** How many of the request's user texts hold `text`. */
  const saidTimes = (view: ChatView, text: string): number => userTexts(view).filter((t) => t.includes(text)).length;

  const target = (): ChatTarget => ({
    client: bridge.client,
    modelId: setup.id,
    agent: agent.definition,
    responseMs: RESPONSE_MS,
    logTail: () => bridge.stderr().split('\n').slice(-40).join('\n'),
  });
  const chat = (messages: readonly Message[], options?: ChatOptions): Promise<ResponsePart[]> => chatWith(target(), messages, options);

  /**
   * A model that calls WEATHER (however the agent names it) for `city` until it has `asked(view)` results, then
   * says what the tool said; without the tool it says so.
   */
  const weatherScript =
    (city: string, asked: (view: ChatView) => number = () => 1): Script =>
    (view): Reply => {
      const results = allToolResults(view);
      if (results.length >= asked(view)) return textReply(`The tool said: ${results.map((r) => r.text).join(' ')}`);
      const name = agent.bridgedToolName(view, WEATHER.name);
      return name === undefined ? textReply('I have no weather tool.') : { content: [{ type: 'tool_call', id: `call_weather_${Date.now()}`, name, input: { city } }] };
    };

  /** The processes whose environment holds our HOME: the agent and whatever it started. */
  const processesOfOurs = (): { pid: number; command: string }[] => processesWithHome(home);

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), `${setup.id}-agent-test-`)));
    home = path.join(root, 'home');
    workspace = path.join(root, 'workspace');
    mkdirSync(home);
    mkdirSync(workspace);
    if (setup.relaysSignInPages === true) signIn = await SignInMcpServer.start('https://accounts.example.com/connect?redirect_uri=http%3A%2F%2Flocalhost%3A1%2Fcb&state=xyz');
    agent = await setup.prepare(
      { home, ...(signIn === undefined ? {} : { signInServer: signIn.url }) },
      {
        respond: (view, recorded) => {
          for (const [key, script] of scripts) if (userTexts(view).some((t) => t.includes(key))) return script(view, recorded);
          unscripted.push(userTexts(view).at(-1) ?? '');
          return textReply('This conversation has no script.');
        },
      },
    );
    bridge = new AgentBridge(['--cwd', workspace, '--agent-timeout-ms', String(RESPONSE_MS), '--cancel-timeout-ms', '10000', '--session-idle-ms', String(SESSION_IDLE_MS)]);
    bridge.client.onAgentInfo((params) => agentInfos.push(params));
  }, INSTALL_TIMEOUT_MS);

  afterEach(() => {
    if (home !== undefined) for (const { pid } of processesOfOurs()) ours.add(pid);
    const errors = agent === undefined ? [] : agent.mock.errors.splice(0);
    const stray = unscripted.splice(0);
    expect(errors).toEqual([]);
    expect(stray).toEqual([]);
  });

  afterAll(async () => {
    await bridge?.close();
    for (const { pid } of home === undefined ? [] : processesOfOurs()) {
      if (!ours.has(pid)) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await agent?.mock.close();
    await signIn?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  }, TEST_TIMEOUT_MS);

  test(
    'a streamed answer, and a second turn: the model sees the first exchange as its own history and the one new message',
    async () => {
      const KEY = 'Say hello, please.';
      const SECOND = 'And now say goodbye.';
      scripts.set(KEY, (view) => (userTexts(view).some((t) => t.includes(SECOND)) ? textReply('Goodbye', ' from the', ' mock model') : { ...textReply('Hello', ' from', ' the mock', ' model'), delayMs: 20 }));

      const first = await chat([user(KEY)]);
      expect(textOfParts(first).endsWith('Hello from the mock model')).toBe(true);
      // Streamed as it came: several text parts.
      expect(first.filter((p) => p.type === 'text').length).toBeGreaterThan(1);

      const second = await chat([user(KEY), assistantOf(first), user(SECOND)]);
      expect(textOfParts(second).endsWith('Goodbye from the mock model')).toBe(true);
      // (Agents also send requests of their own with the conversation, e.g. Qwen Code's follow-up suggestions.)
      const asked = conversationOf(KEY).filter((r) => saidTimes(viewOf(r), SECOND) > 0);
      expect(asked.length).toBeGreaterThanOrEqual(1);
      const last = viewOf(asked[0]);
      expect(saidTimes(last, KEY)).toBe(1);
      expect(saidTimes(last, SECOND)).toBe(1);
      expect(assistantTexts(last).join('\n')).toContain('Hello from the mock model');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "going back (issue 45): after an edited earlier request the model's next request holds the exchange before it and nothing after; forked where the agent forks at a point, else told",
    async () => {
      const FIRST = `Going back with ${setup.id}: first words.`;
      scripts.set(FIRST, (view) => textReply(`answered: ${userTexts(view).at(-1)?.split('\n').at(-1) ?? ''}`));
      const first = await chat([user(FIRST)], { marker: `${setup.id}-gb1` });
      const second = await chat([user(FIRST), assistantOf(first), user('Now two.')], { marker: `${setup.id}-gb2` });
      await chat([user(FIRST), assistantOf(first), user('Now two.'), assistantOf(second), user('Now three.')], { marker: `${setup.id}-gb3` });
      // The second request edited (or a checkpoint before it restored, then new words): the first answer's marker is older.
      expect(textOfParts(await chat([user(FIRST), assistantOf(first), user('Instead, four.')], { marker: `${setup.id}-gb4` }))).toContain('Instead, four.');
      const asked = conversationOf(FIRST).filter((r) => saidTimes(viewOf(r), 'Instead, four.') > 0);
      expect(asked.length).toBeGreaterThanOrEqual(1);
      const seen = JSON.stringify(viewOf(asked[0]!));
      expect(seen).toContain('first words');
      expect(seen).not.toContain('Now two.');
      expect(seen).not.toContain('Now three.');
      const route = /went back \(.*\)(: ACP session \S+, forked from| to a point of conversation \S+, but )/.exec(bridge.stderr());
      expect(route?.[1].startsWith(': ACP session') ? 'fork' : route === null ? 'none' : 'told').toBe(setup.forksAtAPoint === true ? 'fork' : 'told');
      // Forked, the model holds the first exchange as its own messages; told, as a transcript in the new prompt.
      if (setup.forksAtAPoint === true) expect(assistantTexts(viewOf(asked[0]!)).join('\n')).toContain(`answered: ${FIRST}`);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a file the person attached in the Chat view reaches the model (its text, or its path to read), Copilot's own blocks do not",
    async () => {
      const KEY = 'What does the attached file say?';
      const CONTENT = `The attached file says marigold, for ${setup.id}.`;
      const file = path.join(workspace, 'attached-notes.txt');
      writeFileSync(file, `${CONTENT}\n`);
      const REMINDER = 'These reminders are Copilot\'s own.';
      scripts.set(KEY, () => textReply('It says marigold.'));
      // As Copilot Chat 0.67 renders a file attached with Add Context… (agent mode: FileVariable in <attachments>).
      const message = user(
        `<attachments>\n<attachment id="attached-notes.txt" filePath="${file}">\n${CONTENT}\n</attachment>\n</attachments>\n<context>\nThe current date is November 27, 2026.\n</context>\n<reminderInstructions>\n${REMINDER}\n</reminderInstructions>\n<userRequest>\n${KEY}\n</userRequest>`,
      );
      expect(textOfParts(await chat([message]))).toContain('It says marigold.');
      const seen = conversationOf(KEY).map((r) => userTexts(viewOf(r)).join('\n'));
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect(seen[0]).toContain(CONTENT);
      expect(seen[0]).not.toContain(REMINDER);
      // What the agent declares decides how it came: embedded (a resource) or a link with the text after it.
      const declared = /takes in a prompt: images (yes|no), embedded context (yes|no)/.exec(bridge.stderr());
      expect(declared?.[2]).toBe(setup.embeddedContext === true ? 'yes' : 'no');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a file attached by name only (Copilot omitted its contents) reaches the model as a link: its path, or its text where the agent reads it',
    async () => {
      const KEY = 'What does the file I named say?';
      const CONTENT = `The named file says tulip, for ${setup.id}.`;
      const file = path.join(workspace, 'named-notes.txt');
      writeFileSync(file, `${CONTENT}\n`);
      scripts.set(KEY, () => textReply('It says tulip.'));
      const message = user(`<attachments>\n<attachment id="named-notes.txt" filePath="${file}" />\n</attachments>\n<userRequest>\n${KEY}\n</userRequest>`);
      expect(textOfParts(await chat([message]))).toContain('It says tulip.');
      const seen = userTexts(viewOf(conversationOf(KEY)[0]!)).join('\n');
      expect(seen).toContain(file);
      if (setup.readsLinkedFiles === true) expect(seen).toContain(CONTENT);
      else expect(seen).not.toContain(CONTENT);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a permission approved: the response ends on one symposium-agent-action call showing the command; its result runs it',
    async () => {
      const KEY = 'Please create approved.txt.';
      const COMMAND = 'touch approved.txt';
      scripts.set(KEY, (view): Reply => (lastToolResults(view).length > 0 ? textReply('I created ', 'approved.txt.') : { content: [agent.shell(view, COMMAND)] }));

      const first = await chat([user(KEY)]);
      const calls = toolCallsOf(first);
      expect(calls.map((c) => c.toolName)).toEqual([AGENT_ACTION]);
      expect(first[first.length - 1]).toBe(calls[0]);
      // The command reaches VS Code's confirmation, from the request or from the tool call announced before it.
      expect(JSON.stringify(calls[0].parameters.raw_input ?? null) + String(calls[0].parameters.title)).toContain(COMMAND);
      expect(existsSync(path.join(workspace, 'approved.txt'))).toBe(false);

      const second = await chat([user(KEY), assistantOf(first), approve(calls[0])]);
      expect(toolCallsOf(second)).toEqual([]);
      expect(textOfParts(second).endsWith('I created approved.txt.')).toBe(true);
      expect(existsSync(path.join(workspace, 'approved.txt'))).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "offered the consumer's run_in_terminal, the agent runs its command through it (a second process of the agent, its shell off): its model has no shell tool, the call reaches the consumer as run_in_terminal, its output reaches the model; without it the agent keeps its shell",
    async () => {
      const KEY = 'Run echo proof in the terminal, please.';
      const input = { command: 'echo proof', explanation: 'Shows the proof', goal: 'Show the proof', isBackground: false, timeout: 10_000 };
      const offered: string[][] = [];
      scripts.set(KEY, (view): Reply => {
        if (view.tools.length > 0) offered.push([...view.tools]);
        const results = allToolResults(view);
        if (results.length > 0) return textReply(`Output: ${results.map((r) => r.text).join(' ')}`);
        const name = agent.bridgedToolName(view, RUN_IN_TERMINAL.name);
        return name === undefined ? textReply('I have no run_in_terminal tool.') : { content: [{ type: 'tool_call', id: `call_terminal_${Date.now()}`, name, input }] };
      });
      const tools = [CREATE_FILE, REPLACE_STRING, RUN_IN_TERMINAL];

      const asked = await chat([user(KEY)], { tools });
      expect(offered[0]?.filter((name) => agent.shellTools.includes(name))).toEqual([]);
      expect(toolCallsOf(asked)).toEqual([{ type: 'tool_call', toolCallId: expect.any(String), toolName: RUN_IN_TERMINAL.name, parameters: input }]);
      // What Copilot's run_in_terminal answers once the command ran in VS Code's terminal.
      const [run] = toolCallsOf(asked);
      const last = await chat([user(KEY), assistantOf(asked), resultOf(run!.toolCallId, 'proof\n')], { tools });
      expect(toolCallsOf(last)).toEqual([]);
      // The model's answer says the result it was given (agents wrap it: Gemini CLI in JSON, Codex after its wall time).
      expect(textOfParts(last)).toMatch(/Output: [\s\S]*proof/);

      const PLAIN = 'Which tools do you have, with no terminal offered?';
      const plain: string[][] = [];
      scripts.set(PLAIN, (view) => {
        if (view.tools.length > 0) plain.push([...view.tools]);
        return textReply('Some.');
      });
      expect(textOfParts(await chat([user(PLAIN)], { tools: [WEATHER] }))).toContain('Some.');
      expect(plain[0]?.filter((name) => agent.shellTools.includes(name))).not.toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  // VS Code's steer (issue 59): the person writes while the command runs; the consumer sends the call's real result,
  // then the words. The model gets the output as the call's result, never a refusal, and the words once: in its
  // running turn where the agent can be steered (codex-acp's `_session/steering`), else as its next prompt.
  test(
    "steered: the person writes while the agent's command runs (its real result, then their words): the model gets the output as the call's result and the words once",
    async () => {
      const KEY = 'Run echo steered-proof in the terminal, please.';
      const WORDS = 'And then say the steered words.';
      const input = { command: 'echo steered-proof', explanation: 'Shows the proof', goal: 'Show the proof', isBackground: false, timeout: 10_000 };
      scripts.set(KEY, (view): Reply => {
        if (lastUserText(view).includes(WORDS)) return textReply('Heard the steered words.');
        const results = allToolResults(view);
        if (results.length > 0) return { ...textReply('Output: ', ...results.map((r) => `${r.text} `), 'as ', 'it ', 'ran.'), delayMs: 150 };
        const name = agent.bridgedToolName(view, RUN_IN_TERMINAL.name);
        return name === undefined ? textReply('I have no run_in_terminal tool.') : { content: [{ type: 'tool_call', id: `call_terminal_${Date.now()}`, name, input }] };
      });
      const tools = [CREATE_FILE, REPLACE_STRING, RUN_IN_TERMINAL];
      const asked = await chat([user(KEY)], { tools });
      const [run] = toolCallsOf(asked);
      expect(run?.toolName).toBe(RUN_IN_TERMINAL.name);
      const next = await chat([user(KEY), assistantOf(asked), resultOf(run!.toolCallId, 'steered-proof\n'), user(WORDS)], { tools });
      expect(toolCallsOf(next)).toEqual([]);
      expect(textOfParts(next)).toContain('Heard the steered words.');
      const requests = conversationOf(KEY);
      const results = requests.flatMap((r) => allToolResults(viewOf(r)));
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.text.includes('steered-proof'))).toBe(true);
      expect(requests.every((r) => saidTimes(viewOf(r), WORDS) <= 1)).toBe(true);
      expect(requests.some((r) => saidTimes(viewOf(r), WORDS) === 1)).toBe(true);
      // Where it can be steered, the words reached its turn while it still answered the result (streamed slowly).
      const steered = /the person's words steered into the running turn/;
      if (agent.steers === true) expect(await bridge.logged(steered)).toMatch(steered);
      else expect(bridge.stderr()).not.toMatch(steered);
    },
    TEST_TIMEOUT_MS,
  );

  /**
   * A permission never granted: the model asks to `touch file` (through the confirmation tool), and the
   * next request, `next(first)`, says `second` instead of approving, which the model answers with `answer`.
   * Checks that the answer reaches the person and that nothing ran; returns both responses.
   */
  async function permissionNotGranted(c: {
    readonly key: string;
    readonly file: string;
    readonly second: string;
    readonly answer: readonly string[];
    readonly next: (first: ResponsePart[]) => Message[];
  }): Promise<{ first: ResponsePart[]; second: ResponsePart[] }> {
    scripts.set(c.key, (view): Reply => {
      if (userTexts(view).some((t) => t.includes(c.second))) return textReply(...c.answer);
      if (allToolResults(view).length > 0) return textReply('Understood, I will not create it.');
      return { content: [agent.shell(view, `touch ${c.file}`)] };
    });

    const first = await chat([user(c.key)]);
    expect(toolCallsOf(first)[0]?.toolName).toBe(AGENT_ACTION);
    const second = await chat(c.next(first));
    expect(textOfParts(second)).toContain(c.answer.join(''));
    expect(existsSync(path.join(workspace, c.file))).toBe(false);
    return { first, second };
  }

  test(
    'a permission rejected by divergence: the next request drops the call and asks anew; nothing runs, the new question is answered',
    async () => {
      const KEY = 'Please create diverged.txt.';
      const SECOND = 'Never mind. What is the capital of France?';
      const { first, second } = await permissionNotGranted({
        key: KEY,
        file: 'diverged.txt',
        second: SECOND,
        answer: ['The capital', ' of France is Paris.'],
        // VS Code's request after a rejection: the turn with the call is gone from the history.
        next: () => [user(KEY), user(SECOND)],
      });
      expect(toolCallsOf(first).map((c) => c.toolName)).toEqual([AGENT_ACTION]);
      expect(toolCallsOf(second)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a permission denied by a missing result, with a new message: the message is answered in that response, nothing runs',
    async () => {
      const KEY = 'Please create denied.txt.';
      const SECOND = 'Forget it. What is two plus two?';
      await permissionNotGranted({
        key: KEY,
        file: 'denied.txt',
        second: SECOND,
        answer: ['Two plus two', ' is four.'],
        // The call stays in the history, with no result for it: a new message instead.
        next: (first) => [user(KEY), assistantOf(first), user(SECOND)],
      });
      // The new message reached the model once, in this turn.
      const asked = conversationOf(KEY).filter((r) => userTexts(viewOf(r)).some((t) => t.includes(SECOND)));
      expect(asked.length).toBeGreaterThanOrEqual(1);
      expect(saidTimes(viewOf(asked[0]), SECOND)).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a cancel mid-stream: the request fails with -32800, the stream is abandoned, and nothing of it reaches the next answer',
    async () => {
      const KEY = 'Count slowly to two hundred.';
      const SECOND = 'Are you still there?';
      const counting = Array.from({ length: 200 }, (_, i) => `n${i} `);
      const script: Script = (view) => (userTexts(view).some((t) => t.includes(SECOND)) ? textReply('Yes,', ' still here.') : { content: [{ type: 'text', text: counting }], delayMs: 40 });
      scripts.set(KEY, script);
      // Some agents (Gemini CLI) drop a cancelled turn's message from their history.
      scripts.set(SECOND, script);

      const cts = new CancellationTokenSource();
      const received: ResponsePart[] = [];
      const cancelled = chat([user(KEY)], {
        token: cts,
        onPart: (part) => {
          if (part.type === 'text' && part.value.includes('n')) received.push(part);
          if (received.length === 3) cts.cancel();
        },
      });
      expect((await rejection(cancelled)).code).toBe(ProtocolErrorCodes.RequestCancelled);
      const [streamed] = conversationOf(KEY);
      expect(await waitUntil(() => streamed.endedAt !== undefined, 20_000)).toBe(true);
      expect(streamed.deltasSent).toBeLessThan(counting.length);

      const partial = textOfParts(received);
      const next = await chat([user(KEY), { role: 'assistant', content: [{ type: 'text', value: partial }] }, user(SECOND)]);
      expect(textOfParts(next)).toContain('Yes, still here.');
      expect(textOfParts(next)).not.toMatch(/n\d+ /);
    },
    TEST_TIMEOUT_MS,
  );

  /** Chats from `messages` on, the person allowing whatever the agent asks first; the last answer. */
  const allowingAll = async (messages: readonly Message[], options: ChatOptions): Promise<ResponsePart[]> => {
    let history = [...messages];
    let answer = await chat(history, options);
    for (let asked = toolCallsOf(answer)[0]; asked?.toolName === AGENT_ACTION; asked = toolCallsOf(answer)[0]) {
      history = [...history, assistantOf(answer), approve(asked)];
      answer = await chat(history, options);
    }
    return answer;
  };

  if (setup.subagents !== undefined) test(
    `two subagents in parallel (issue 51): each named by its task while it runs, ${setup.subagents === 'with their calls' ? 'its read under its name' : 'no call of its own sent'}, one clean end line each with its report, the main answer once`,
    async () => {
      const FIRST = `Survey the workspace with two subagents, ${setup.id}.`;
      const readme = path.join(workspace, 'README.md');
      writeFileSync(readme, '# Survey demo\n\nA workspace for subagents to read.\n');
      const SURVEYS = ['Alpha survey', 'Beta survey'];
      const start = agent.startSubagent;
      const read = agent.readFile;
      if (start === undefined || read === undefined) throw new Error(`${setup.id} says it starts subagents, but not how`);
      // Each subagent's conversation begins with its prompt: read the README, then report.
      for (const survey of SURVEYS) scripts.set(`Do the ${survey} of this workspace.`, (view) => (allToolResults(view).length > 0 ? textReply(`${survey} found a demo README. It has one heading.`) : { content: [read(view, readme)] }));
      scripts.set(FIRST, (view) => {
        if (allToolResults(view).length < SURVEYS.length) return { content: SURVEYS.map((survey) => start(view, survey, `Do the ${survey} of this workspace.`)) };
        // Where the subagents' reports do not come as the calls' results, the model waits for them (Codex).
        const wait = agent.awaitSubagents?.(view);
        return wait === undefined ? textReply('Both surveys agree.') : { content: [wait] };
      });

      // The agent may ask before it starts each subagent: the person allows each, and the answer goes on.
      const messages: Message[] = [user(FIRST)];
      const texts: string[] = [];
      for (let asked = 0; asked <= SURVEYS.length; asked++) {
        const parts = await chat(messages);
        texts.push(...parts.flatMap((p) => (p.type === 'text' ? [p.value] : [])));
        const calls = toolCallsOf(parts);
        if (calls.length === 0) break;
        expect(calls.map((c) => c.toolName)).toEqual([AGENT_ACTION]);
        messages.push(assistantOf(parts), approve(calls[0]!));
      }
      const answer = texts.join('');
      for (const survey of SURVEYS) {
        // Named by its description, with its kind where the agent says it; Codex's, which has none, by its prompt.
        const name = `(${survey}|Do the ${survey} of this workspace)`;
        const named = texts.findIndex((t) => new RegExp(`🤖 ${name}( \\([\\w-]+\\))?\\n`).test(t));
        const isEnd = (t: string): boolean => new RegExp(`✓ ${name}( \\(|:)`).test(t);
        const ends = texts.filter(isEnd);
        expect(named).toBeGreaterThanOrEqual(0);
        expect(ends).toEqual([expect.stringMatching(new RegExp(`✓ ${name}( \\([\\w-]+\\))?: done · (\\d+ tool uses? · )?([\\d.]+k? tokens · )?\\d+ s — ${survey} found a demo README\\.\\n`))]);
        const end = texts.findIndex(isEnd);
        if (setup.subagents === 'with their calls') {
          const readStarts = texts.findIndex((t) => new RegExp(`🔧 \`${name} › `).test(t));
          expect(readStarts).toBeGreaterThan(named);
          expect(end).toBeGreaterThan(readStarts);
          expect(ends[0]).toContain('· 1 tool use ·');
        } else {
          // The agent does not send its subagents' calls: no count of them is made up.
          expect(end).toBeGreaterThan(named);
          expect(ends[0]).not.toContain('tool use');
        }
        // What the subagent said is its own: only its report's first sentence, in its end line.
        expect(answer.split(`${survey} found a demo README.`)).toHaveLength(2);
      }
      expect(answer).not.toMatch(/`(Agent|task|spawnAgent)`|task_result|<\/?[A-Za-z]/);
      expect(answer.split('Both surveys agree.')).toHaveLength(2);
    },
    TEST_TIMEOUT_MS,
  );

  if (setup.subagents !== undefined) test(
    'Stop during two running subagents (issue 51): the request fails with -32800, neither subagent asks the model again, and the next message is answered',
    async () => {
      const FIRST = `Survey the workspace slowly with two subagents, ${setup.id}.`;
      const SECOND = 'Never mind the surveys: are you there?';
      const SURVEYS = ['Slow alpha survey', 'Slow beta survey'];
      const start = agent.startSubagent;
      if (start === undefined) throw new Error(`${setup.id} says it starts subagents, but not how`);
      const subagentRequests = (): RecordedRequest[] => SURVEYS.flatMap((survey) => conversationOf(`Do the ${survey} of this workspace.`));
      // A report that streams for far longer than the test waits: the subagent is still running when Stop comes.
      for (const survey of SURVEYS) scripts.set(`Do the ${survey} of this workspace.`, () => ({ content: [{ type: 'text', text: Array.from({ length: 400 }, (_, i) => `${i} `) }], delayMs: 50 }));
      scripts.set(FIRST, (view) => {
        if (userTexts(view).some((t) => t.includes(SECOND))) return textReply('Yes, here.');
        if (allToolResults(view).length < SURVEYS.length) return { content: SURVEYS.map((survey) => start(view, survey, `Do the ${survey} of this workspace.`)) };
        const wait = agent.awaitSubagents?.(view);
        return wait === undefined ? textReply('Both surveys ended.') : { content: [wait] };
      });

      const cts = new CancellationTokenSource();
      const received: ResponsePart[] = [];
      const both = (): boolean => subagentRequests().length === SURVEYS.length;
      // The person allows whatever the agent asks before its subagents start; then both are asking the model.
      let history: Message[] = [user(FIRST)];
      let response = chat(history, { token: cts, onPart: (part) => received.push(part) });
      for (let asked = 0; asked <= SURVEYS.length; asked++) {
        let answered: ResponsePart[] | undefined;
        void response.then((parts) => (answered = parts), () => undefined);
        expect(await waitUntil(() => both() || answered !== undefined, RESPONSE_MS)).toBe(true);
        if (both()) break;
        const calls = toolCallsOf(answered!);
        expect(calls.map((c) => c.toolName)).toEqual([AGENT_ACTION]);
        history = [...history, assistantOf(answered!), approve(calls[0]!)];
        response = chat(history, { token: cts, onPart: (part) => received.push(part) });
      }
      expect(both()).toBe(true);
      cts.cancel();

      expect((await rejection(response)).code).toBe(ProtocolErrorCodes.RequestCancelled);
      expect(await waitUntil(() => subagentRequests().every((r) => r.endedAt !== undefined), 20_000)).toBe(true);
      expect(subagentRequests().every((r) => r.aborted)).toBe(true);
      const next = await chat([...history, { role: 'assistant', content: [{ type: 'text', value: textOfParts(received) }] }, user(SECOND)]);
      expect(textOfParts(next)).toContain('Yes, here.');
      // No model request of either subagent followed the stop.
      expect(subagentRequests()).toHaveLength(SURVEYS.length);
    },
    TEST_TIMEOUT_MS,
  );

  if (setup.asksQuestions === true) test(
    "its model's question is asked through VS Code's vscode_askQuestions, and the person's pick reaches the model",
    async () => {
      const KEY = 'Ask me which database to use.';
      scripts.set(KEY, (view): Reply => {
        const results = lastToolResults(view);
        return results.length > 0 ? textReply('You answered: ', results.map((r) => r.text).join(' ')) : { content: [agent.askQuestion!('Which database should I use?', 'Database', ['SQLite', 'Postgres'])] };
      });
      const options: ChatOptions = { tools: [ASK_QUESTIONS], ...(agent.questionsConfig === undefined ? {} : { config: agent.questionsConfig }) };

      const asked = await chat([user(KEY)], options);
      const [call] = toolCallsOf(asked);
      expect(call?.toolName).toBe('vscode_askQuestions');
      const database = questionsOf(call!).find((q) => q.options?.some((o) => o.label === 'Postgres'));
      expect(database).toMatchObject({ header: 'Database', question: 'Which database should I use?' });

      const last = await chat([user(KEY), assistantOf(asked), picking(call!, 'Postgres')], options);
      expect(toolCallsOf(last)).toEqual([]);
      expect(textOfParts(last)).toMatch(/You answered: .*Postgres/);
    },
    TEST_TIMEOUT_MS,
  );

  if (setup.relaysSignInPages === true) test(
    "a sign-in page an MCP server of the person's own asks to open (URL elicitation) reaches the client, and its answer the server",
    async () => {
      const KEY = 'Connect my Example account.';
      scripts.set(KEY, (view): Reply => {
        const results = lastToolResults(view);
        const tool = view.tools.find((name) => name.endsWith('connect_account'));
        if (results.length > 0 || tool === undefined) return textReply('Connected: ', results.map((r) => r.text).join(' ') || 'no tool');
        return { content: [{ type: 'tool_call', id: `call_sign_in_${Date.now()}`, name: tool, input: {} }] };
      });
      const asked: OpenUrlParams[] = [];
      const serving = bridge.client.onOpenUrl(async (params) => {
        asked.push(params);
        return { opened: true };
      });
      try {
        const answer = await allowingAll([user(KEY)], {});
        expect(asked).toEqual([{ agent: agent.name, message: 'Connect your Example account', url: signIn!.signInUrl }]);
        expect(signIn!.answers).toEqual(['accept']);
        expect(textOfParts(answer)).toContain('elicitation: accept');
      } finally {
        serving.dispose();
      }
    },
    TEST_TIMEOUT_MS,
  );

  // Only agents that edit by themselves have this route; for the others there is no test to skip.
  if (setup.editsByItself === true) test(
    'a file the agent changes by itself is shown in the answer as a diff, and the change is on disk',
    async () => {
      const KEY = 'Please change greeting.txt.';
      const file = path.join(workspace, 'greeting.txt');
      writeFileSync(file, 'hello\nbefore\nbye\n');
      scripts.set(KEY, (view): Reply => (lastToolResults(view).length > 0 ? textReply('I changed ', 'greeting.txt.') : { content: [agent.editFile!(view, file, 'before', 'after')] }));
      const tools = [CONFIRMATION_TOOL];

      const answer = await allowingAll([user(KEY)], { tools });
      expect(readFileSync(file, 'utf8')).toBe('hello\nafter\nbye\n');
      const text = textOfParts(answer);
      // The change as the agent reported it: the whole file (Codex) or the replaced text only (OpenCode).
      const diff = /```diff\n(@@[\s\S]*?)\n```/.exec(text)?.[1].split('\n');
      expect(diff).toEqual(expect.arrayContaining(['-before', '+after']));
      expect(text.endsWith('I changed greeting.txt.')).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  // Only agents that write through their client have this route; for the others there is no test to skip.
  if (setup.writesThroughClient === true) test(
    "a file the agent writes is made by the consumer's create_file, after the person allowed the edit, so VS Code reviews it",
    async () => {
      const KEY = 'Please write notes.txt for me.';
      const file = path.join(workspace, 'notes.txt');
      scripts.set(KEY, (view): Reply => (lastToolResults(view).length > 0 ? textReply('I wrote ', 'notes.txt.') : { content: [agent.writeFile!(file, 'written by the agent\n')] }));
      const tools = [CONFIRMATION_TOOL, CREATE_FILE, REPLACE_STRING];

      const asked = await chat([user(KEY)], { tools });
      const [confirmation] = toolCallsOf(asked);
      expect(confirmation?.toolName).toBe(AGENT_ACTION);
      const history: Message[] = [user(KEY), assistantOf(asked), approve(confirmation!)];
      const edit = await chat(history, { tools });
      const [create] = toolCallsOf(edit);
      expect(create).toEqual({ type: 'tool_call', toolCallId: expect.any(String), toolName: 'create_file', parameters: { filePath: file, content: 'written by the agent\n' } });
      expect(existsSync(file)).toBe(false);

      // What Copilot's create_file does, and what it answers.
      writeFileSync(file, 'written by the agent\n');
      const last = await chat([...history, assistantOf(edit), edited(create!, file)], { tools });
      expect(toolCallsOf(last)).toEqual([]);
      expect(textOfParts(last).endsWith('I wrote notes.txt.')).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a VS Code tool called through the bridge: a tool call VS Code runs, with no permission prompt before it; its result reaches the model",
    async () => {
      const KEY = 'What is the weather in Paris?';
      scripts.set(KEY, weatherScript('Paris'));

      await expectWeatherCalledThroughBridge(chat, KEY);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a conversation goes on after others began (one in the spare session, one offered other tools): its model sees its own tools, and its VS Code tool calls reach it",
    async () => {
      const FIRST = 'What is the weather in Lyon?';
      const AGAIN = 'And what is it like now?';
      const SPARE = 'Say hello from the spare chat.';
      const OTHER = 'Say hello from the chat with a clock.';
      // Asked once, and again with each AGAIN.
      scripts.set(FIRST, weatherScript('Lyon', (view) => 1 + saidTimes(view, AGAIN)));
      scripts.set(SPARE, () => textReply('Hello from the spare chat.'));
      scripts.set(OTHER, () => textReply('Hello from the chat with a clock.'));
      const tools = [WEATHER];

      const asked = await chat([user(FIRST)], { tools });
      const [call] = toolCallsOf(asked);
      expect(call?.toolName).toBe(WEATHER.name);
      const history: Message[] = [user(FIRST), assistantOf(asked), resultOf(call!.toolCallId, 'Cloudy, 14 degrees')];
      const answered = await chat(history, { tools });
      expect(textOfParts(answered)).toContain('Cloudy, 14 degrees');
      // Its first prompt ended: a spare opens for the next new conversation, which comes and takes it.
      await sleep(2_000);
      expect(textOfParts(await chat([user(SPARE)], { tools })).endsWith('Hello from the spare chat.')).toBe(true);
      // Another, offered other tools, opens a session of its own.
      expect(textOfParts(await chat([user(OTHER)], { tools: [WEATHER, CLOCK] })).endsWith('Hello from the chat with a clock.')).toBe(true);

      history.push(assistantOf(answered), user(AGAIN));
      const again = await chat(history, { tools });
      const [second] = toolCallsOf(again);
      expect(second).toEqual({ type: 'tool_call', toolCallId: expect.any(String), toolName: WEATHER.name, parameters: { city: 'Lyon' } });
      const asking = conversationOf(FIRST).filter((r) => saidTimes(viewOf(r), AGAIN) > 0);
      expect(asking.length).toBeGreaterThanOrEqual(1);
      expect(agent.bridgedToolName(viewOf(asking[0]), CLOCK.name)).toBeUndefined();
      const last = await chat([...history, assistantOf(again), resultOf(second!.toolCallId, 'Sunny, 20 degrees')], { tools });
      expect(toolCallsOf(last)).toEqual([]);
      expect(textOfParts(last)).toContain('Sunny, 20 degrees');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'resume after the session idled out: the conversation goes on, and the model sees what was said before',
    async () => {
      const KEY = 'Remember the word pelican.';
      const SECOND = 'Which word did I ask you to remember?';
      scripts.set(KEY, (view): Reply => (userTexts(view).some((t) => t.includes(SECOND)) ? textReply('You asked me to remember ', 'pelican.') : textReply('I will remember it.')));
      const first = await chat([user(KEY)]);
      expect(textOfParts(first).endsWith('I will remember it.')).toBe(true);
      await sleep(SESSION_IDLE_MS + 2_000);

      const second = await chat([user(KEY), assistantOf(first), user(SECOND)]);
      expect(textOfParts(second).endsWith('You asked me to remember pelican.')).toBe(true);
      // The session had been closed: this turn resumed it, or went on in a new one.
      expect(bridge.stderr()).toMatch(/resumed ACP session|goes on in a new session/);
      // As its own history (resumed) or in a transcript (a new session told the conversation so far).
      const last = viewOf(conversationOf(KEY).at(-1)!);
      const seen = [...userTexts(last), ...assistantTexts(last)].join('\n');
      expect(seen).toContain(KEY);
      expect(seen).toContain('I will remember it.');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the agent's models reach the client (symposium/agentInfo), and a model picked there is the one the agent asks",
    async () => {
      const models = agentInfos.filter((p) => JSON.stringify(p.agent) === JSON.stringify(agent.definition)).at(-1)?.info.models;
      expect(models?.choices.length).toBeGreaterThan(0);
      expect(models!.choices.map((c) => c.value)).toContain(models!.current);
      const picked = agent.pickableModel;
      // Only Gemini CLI's other models reach the mock the same way (OpenCode's belong to other providers,
      // Qwen Code reports one, Codex speaks to its own models differently): the others' report is checked.
      if (picked === undefined) return;
      expect(models!.choices.map((c) => c.value)).toContain(picked);
      expect(picked).not.toBe(models!.current);
      const KEY = 'Which model answers this?';
      scripts.set(KEY, (view) => textReply(`Model ${view.model} answers.`));
      const parts = await chat([user(KEY)], { config: { [models!.configId]: picked } });
      expect(textOfParts(parts)).toContain(`Model ${picked} answers.`);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'SIGKILL of a bridge leaves no agent process behind',
    async () => {
      const before = new Set(processesOfOurs().map((p) => p.pid));
      const other = new AgentBridge(['--cwd', workspace, '--agent-timeout-ms', String(RESPONSE_MS)]);
      try {
        const KEY = 'Hello from the bridge about to be killed.';
        scripts.set(KEY, () => textReply('Hello back.'));
        const parts = await other.client.collectChatResponse({ modelId: setup.id, messages: [user(KEY)], agent: agent.definition });
        expect(textOfParts(parts).endsWith('Hello back.')).toBe(true);
        const started = processesOfOurs().filter((p) => !before.has(p.pid));
        for (const { pid } of started) ours.add(pid);
        expect(started.length).toBeGreaterThanOrEqual(1);
        other.child.kill('SIGKILL');
        const alive = (): number[] => started.map((p) => p.pid).filter(running);
        await waitUntil(() => alive().length === 0, 20_000);
        expect(alive()).toEqual([]);
      } finally {
        await other.close();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'SIGTERM of the bridge ends it and every agent process it started',
    async () => {
      const running = processesOfOurs();
      for (const { pid } of running) ours.add(pid);
      expect(running.length).toBeGreaterThanOrEqual(1);
      bridge.child.kill('SIGTERM');
      await new Promise((resolve) => (bridge.child.exitCode !== null || bridge.child.signalCode !== null ? resolve(undefined) : bridge.child.once('exit', resolve)));
      await waitUntil(() => processesOfOurs().length === 0, 20_000);
      expect(processesOfOurs()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
}

/** The process runs (not a zombie: its cmdline is empty then). It may end between the two reads, which says no as well. */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8') !== '';
  } catch {
    return false;
  }
}
