/**
 * Spawned ACP agents through the real bridge: the built `symposium-lm vscodelm` over stdio, driving the
 * scripted ACP agent (test/fixtures/scripted-agent.ts, a real agent on the SDK's agent side), whose
 * prompt lines say what it does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, Message, ResponsePart, ToolCallPart } from '../../src/protocol/messages.js';

import { AGENT_ACTION, AGENT_TIMEOUT_MS, AgentBridge as Bridge, SCRIPTED_AGENT as AGENT, approvals, rejection, replied, resultOf, skipped, sleep, toolCallsOf, user } from './agent-bridge.js';

function scripted(flags: string[] = [], name = 'scripted'): AgentDefinition {
  return { mcp_server: { name, command: process.execPath, args: [AGENT, ...flags], env: [] } };
}

let bridge: Bridge;
beforeEach(() => {
  bridge = new Bridge();
});
afterEach(async () => {
  await bridge.close();
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

describe('a spawned ACP agent', () => {
  test('streams message chunks as text and thoughts as thinking', async () => {
    // Chunks 30 ms apart: each arrives after the one before was written. (Chunks arriving while a write is
    // out are joined; with none between them, a loaded machine could join the first ones to the thinking's write.)
    const parts = await bridge.chat([user('think let me see', 'stream 4 30')], scripted());
    expect(parts[0]).toEqual({ type: 'thinking', value: 'let me see' });
    // The first chunk goes out at once, not held back for more.
    expect(parts[1]).toEqual({ type: 'text', value: 'c1 ' });
    expect(parts.slice(1).every((p) => p.type === 'text')).toBe(true);
    expect(textOfParts(parts)).toBe('c1 c2 c3 c4 ');
  });

  test('text streamed faster than the pace goes out in a few large parts; text slower than it, chunk by chunk', async () => {
    const agent = scripted();
    await bridge.chat([user('say started')], agent);
    // 20,000 chunks as fast as the agent can send them: at most one text part per 2 ms, all of it exact.
    const started = performance.now();
    const fast = await bridge.chat([user('stream 20000')], agent);
    const elapsedMs = performance.now() - started;
    const chars = Array.from({ length: 20000 }, (_, i) => `c${i + 1} `).join('');
    expect(textOfParts(fast)).toBe(chars);
    // Without the pace it was one part every 1.7 ms or less (585 in 973 ms); with it, about one in 5 ms.
    expect(fast.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / 2));
    // 20 ms apart, far slower than the pace: every chunk is its own part, none held back.
    const slow = await bridge.chat([user('stream 6 20')], agent);
    expect(slow).toEqual(['c1 ', 'c2 ', 'c3 ', 'c4 ', 'c5 ', 'c6 '].map((value) => ({ type: 'text', value })));
  });

  test('receives only the new user message on each turn of a conversation', async () => {
    const agent = scripted();
    const first = [user('say hello')];
    const reply1 = await bridge.chat(first, agent);
    const second = [...first, replied(reply1), user('echo')];
    const reply2 = await bridge.chat(second, agent);
    expect(JSON.parse(textOfParts(reply2))).toEqual([{ type: 'text', text: 'echo' }]);
    // The same ACP session served both turns.
    expect((await bridge.logged(/is ACP session/)).match(/is ACP session/g)).toHaveLength(1);
  });

  test("shows a tool as one line when it starts and one when it ends (a command's output whole between them), and a plan as a checklist, then its changes", async () => {
    const text = textOfParts(await bridge.chat([user('tool t1 ls -la', 'orphan-update', 'plan read|write')], scripted()));
    expect(text).toContain('> 🔧 `ls -la`');
    expect(text).toContain('~~~~console\ndone: ls -la\n~~~~\n\n\n\n> ✓ `ls -la`\n');
    expect(text).toContain('> ✓ `tool call`');
    expect(text).toContain('- [ ] **read**\n- [ ] write');
    // Shown once; then only what changed.
    expect(text).toContain('> ✓ read');
    expect(text).not.toContain('- [x] read');
  });

  test('runs in the workspace it is given, never in the bridge install directory', async () => {
    await bridge.close();
    const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'workspace-')));
    bridge = new Bridge(['--cwd', workspace]);
    expect(textOfParts(await bridge.chat([user('cwd')], scripted()))).toBe(workspace);
  });
});

describe('permission requests', () => {
  test('become a symposium-agent-action tool call; the approval of that very call allows it', async () => {
    const agent = scripted();
    const first = [user('permission touch x')];
    const asked = await bridge.chat(first, agent, [AGENT_ACTION]);
    const [call] = toolCallsOf(asked);
    expect(call).toMatchObject({
      toolName: 'symposium-agent-action',
      parameters: { kind: 'execute', title: 'touch x', raw_input: { command: 'touch x' }, action_id: expect.any(String) as unknown },
    });
    const rest = await bridge.chat([...first, replied(asked), approvals(call!)], agent, [AGENT_ACTION]);
    expect(textOfParts(rest)).toContain('permission touch x: allow_once');
  });

  test('several at once are shown together and matched by id; a missing result rejects that one', async () => {
    const agent = scripted();
    const first = [user('permissions 3')];
    const asked = await bridge.chat(first, agent, [AGENT_ACTION]);
    const calls = toolCallsOf(asked);
    expect(calls.map((c) => c.parameters.title)).toEqual(['action 1', 'action 2', 'action 3']);
    const rest = textOfParts(await bridge.chat([...first, replied(asked), approvals(calls[0]!, calls[2]!)], agent, [AGENT_ACTION]));
    expect(rest).toContain('permission action 1: allow_once');
    expect(rest).toContain('permission action 2: reject_once');
    expect(rest).toContain('permission action 3: allow_once');
  });

  test.each([
    ['skipped (a result that is not the approval)', (call: ToolCallPart) => skipped(call)],
    ['answered by another call\'s approval', (call: ToolCallPart) => approvals({ ...call, parameters: { ...call.parameters, action_id: 'another' } })],
    ['answered with an error', (call: ToolCallPart): Message => resultOf(call.toolCallId, 'Tool symposium-agent-action is currently disabled by the user, and cannot be called')],
  ])('%s: the action is rejected and never runs; the turn goes on', async (_name, answer) => {
    const agent = scripted();
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'consent-')), 'ran');
    const first = [user(`run touch ${marker}`)];
    const asked = await bridge.chat(first, agent, [AGENT_ACTION]);
    const [call] = toolCallsOf(asked);
    const rest = await bridge.chat([...first, replied(asked), answer(call!)], agent, [AGENT_ACTION]);
    expect(textOfParts(rest)).toContain(`did not run touch ${marker}: reject_once`);
    expect(existsSync(marker)).toBe(false);
  });

  test('with the approval, the command really runs', async () => {
    const agent = scripted();
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'consent-')), 'ran');
    const first = [user(`run touch ${marker}`)];
    const asked = await bridge.chat(first, agent, [AGENT_ACTION]);
    const rest = await bridge.chat([...first, replied(asked), approvals(...toolCallsOf(asked))], agent, [AGENT_ACTION]);
    expect(textOfParts(rest)).toContain(`ran touch ${marker}`);
    expect(existsSync(marker)).toBe(true);
  });

  test('a consumer that offers no way to ask (Ask mode): refused at once, and the response says so', async () => {
    const agent = scripted();
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'consent-')), 'ran');
    const parts = await bridge.chat([user(`run touch ${marker}`)], agent, []);
    expect(toolCallsOf(parts)).toEqual([]);
    expect(textOfParts(parts)).toContain(`Not allowed: the agent asked to run \`touch ${marker}\`, and this chat cannot ask you`);
    expect(textOfParts(parts)).toContain(`did not run touch ${marker}: reject_once`);
    expect(existsSync(marker)).toBe(false);
  });

  test('the person moves on without allowing (stop, then a new message): the paused turn is cancelled, nothing of it shows, the message is answered', async () => {
    const agent = scripted();
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'consent-')), 'ran');
    const first = [user(`run touch ${marker}`, 'say the rest of the stopped turn')];
    const asked = await bridge.chat(first, agent, [AGENT_ACTION]);
    const [call] = toolCallsOf(asked);
    // Copilot records "The user cancelled the tool call." when stop is pressed while the confirmation shows.
    const cancelled = resultOf(call!.toolCallId, 'The user cancelled the tool call.');
    for (const answer of [[cancelled, user('say next')], [user('say next')]]) {
      const next = await bridge.chat([...first, replied(asked), ...answer], agent, [AGENT_ACTION]);
      expect(textOfParts(next)).toBe('next');
    }
    expect(await bridge.logged(/permission '.*': cancelled/)).toContain(`permission 'touch ${marker}': cancelled`);
    expect(existsSync(marker)).toBe(false);
  });

  // codex-acp 2.6 may end a prompt with stopReason "cancelled" on its own; what the user said meanwhile is not lost.
  test('an approval with a new message: the message is answered in that response, even when the agent ends the prompt "cancelled" itself', async () => {
    const agent = scripted();
    const first = [user('permission touch x', 'stop cancelled')];
    const asked = await bridge.chat(first, agent, [AGENT_ACTION]);
    const [call] = toolCallsOf(asked);
    expect(call).toMatchObject({ toolName: 'symposium-agent-action' });
    const answered = [...first, replied(asked), approvals(call!), user('say the next answer')];
    const next = textOfParts(await bridge.chat(answered, agent, [AGENT_ACTION]));
    expect(next).toContain('permission touch x: allow_once');
    expect(next).toContain('the next answer');
    // Nothing of it is left over for the turn after.
    const after = [...answered, { role: 'assistant' as const, content: [{ type: 'text' as const, value: next }] }, user('say third')];
    expect(textOfParts(await bridge.chat(after, agent, [AGENT_ACTION]))).toBe('third');
  });

  test('a request that leaves the tool call out cancels the paused turn and starts afresh', async () => {
    const agent = scripted();
    const first = user('say before', 'permission rm -rf x');
    const asked = await bridge.chat([first], agent, [AGENT_ACTION]);
    expect(asked[asked.length - 1]).toMatchObject({ type: 'tool_call', toolName: 'symposium-agent-action' });
    // VS Code cancels the whole turn when the user rejects: the next request lacks the tool call.
    const next = await bridge.chat([first, user('say something else')], agent, [AGENT_ACTION]);
    expect(textOfParts(next)).toBe('something else');
    expect(bridge.stderr()).not.toMatch(/permission rm -rf x: (allow|reject)/);
  });
});

describe('cancellation', () => {
  test('$/cancelRequest stops the agent mid-stream; the next turn waits for the cancelled prompt to end', async () => {
    const agent = scripted();
    const source = new CancellationTokenSource();
    const parts: ResponsePart[] = [];
    const running = bridge.client.provideChatResponse({ modelId: 'scripted', messages: [user('ignore-cancel 300', 'stream 200 10')], agent }, (part) => {
      parts.push(part);
      if (parts.length === 3) source.cancel();
    }, source.token);
    expect((await rejection(running)).code).toBe(ProtocolErrorCodes.RequestCancelled);
    const seen = parts.length;
    // The agent kept streaming for 300 ms after the cancel (it ignores it that long): none of that arrives,
    // here or in the next turn, and the next prompt is sent only once the cancelled one has ended.
    const next = await bridge.chat([user('ignore-cancel 300\nstream 200 10'), user('say next')], agent);
    expect(textOfParts(next)).toBe('next');
    expect(parts.length).toBe(seen);
    expect(seen).toBeLessThan(20);
  });

  test('updates trailing the end of a turn never reach the next response', async () => {
    const agent = scripted();
    const first = [user('say one', 'late LATE 10')];
    const reply1 = await bridge.chat(first, agent);
    expect(textOfParts(reply1)).toBe('one');
    // The next request comes at once, before the late update: the bridge waits it out.
    const reply2 = await bridge.chat([...first, replied(reply1), user('stream 10 20')], agent);
    expect(textOfParts(reply2)).not.toContain('LATE');
    expect(await bridge.logged(/dropped a late/)).toContain('dropped a late agent_message_chunk update');
  });

  test('an update sent right after the response never joins the turn it trails, even read with the response', async () => {
    const agent = scripted();
    // The update follows the response at once: often in the same read. 20 turns: before the bridge ended a
    // prompt by the order it read the agent's messages, about one turn in six came back with it.
    for (let i = 0; i < 20; i++) {
      const reply = await bridge.chat([user(`say one ${i}`, 'late LATE 0')], agent);
      expect(textOfParts(reply)).toBe(`one ${i}`);
    }
  });

  test('an agent that never ends a cancelled prompt loses its session, not the conversation', async () => {
    const agent = scripted();
    const source = new CancellationTokenSource();
    const first = user('say started', 'ignore-cancel 60000', 'hang');
    const running = bridge.client.provideChatResponse({ modelId: 'scripted', messages: [first], agent }, () => source.cancel(), source.token);
    expect((await rejection(running)).code).toBe(ProtocolErrorCodes.RequestCancelled);
    const next = await bridge.chat([first, user('say still here')], agent);
    expect(textOfParts(next)).toBe('still here');
    expect(await bridge.logged(/moves to a new session/)).toContain('moves to a new session');
  });
});

describe('errors a user can understand', () => {
  test('an agent that crashes mid-turn: its exit code and last stderr lines; the next request restarts it', async () => {
    const agent = scripted();
    const error = await rejection(bridge.chat([user('say partial', 'crash 3')], agent));
    expect(error.code).toBe(ProtocolErrorCodes.AgentFailed);
    expect(error.message).toMatch(/^Agent "scripted" exited with code 3/);
    expect(error.message).toContain('scripted-agent: crashing');
    expect(textOfParts(await bridge.chat([user('say back again')], agent))).toBe('back again');
  });

  test('a command that does not exist', async () => {
    const agent: AgentDefinition = { mcp_server: { name: 'ghost', command: 'no-such-agent-command', args: [], env: [] } };
    const error = await rejection(bridge.chat([user('hi')], agent));
    expect(error.message).toBe('Agent "ghost" could not start: command not found: no-such-agent-command (is it installed and on PATH?)');
    expect(textOfParts(await bridge.chat([user('say fine')], scripted()))).toBe('fine');
  });

  test('an agent that exits during initialize', async () => {
    const error = await rejection(bridge.chat([user('hi')], scripted(['--exit-on-initialize', '7'])));
    expect(error.message).toMatch(/^Agent "scripted" exited with code 7 during initialize; its last output on stderr:\n.*exiting during initialize/s);
  });

  test.each([['initialize'], ['session/new']])('an agent that never answers %s times out clearly', async (step) => {
    const error = await rejection(bridge.chat([user('hi')], scripted(['--hang-on', step])));
    expect(error.message).toBe(`Agent "scripted" did not answer ${step} within ${AGENT_TIMEOUT_MS / 1000} s.`);
  });

  test('an agent that needs authentication names its methods', async () => {
    const error = await rejection(bridge.chat([user('hi')], scripted(['--auth-required'])));
    expect(error.message).toBe(`Agent "scripted" needs authentication (API key, Sign in). Sign in with the agent's own command line, then try again.`);
  });

  test('an agent of another protocol version', async () => {
    const error = await rejection(bridge.chat([user('hi')], scripted(['--protocol-version', '2'])));
    expect(error.message).toBe('Agent "scripted" speaks ACP protocol version 2; this bridge speaks version 1.');
  });

  test("an agent's stderr goes to the log, never into the protocol", async () => {
    expect(textOfParts(await bridge.chat([user('say quiet')], scripted(['--stderr-noise'])))).toBe('quiet');
    expect(await bridge.logged(/agent scripted: scripted-agent/)).toMatch(/agent scripted: scripted-agent/);
  });
});

describe('prompt content', () => {
  const image: Message = {
    role: 'user',
    content: [
      { type: 'text', value: 'echo' },
      { type: 'data', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'data', mimeType: 'cache_control', data: 'e30=' },
    ],
  };

  /** What the scripted agent's `echo` said it received (its other prompt lines answer separately). */
  const echoed = (parts: ResponsePart[]): unknown => JSON.parse(textOfParts(parts.filter((p) => p.type === 'text' && p.value.startsWith('['))));

  /** The JSON array `echo` wrote, found in the text of a response that holds other chunks too. */
  const echoIn = (text: string): unknown[] => {
    const start = text.indexOf('[{"');
    for (let end = text.indexOf(']', start); start >= 0 && end >= 0; end = text.indexOf(']', end + 1)) {
      try {
        return JSON.parse(text.slice(start, end + 1)) as unknown[];
      } catch {
        // not the end of the array yet
      }
    }
    throw new Error(`no echo in ${text}`);
  };

  test('images go as image blocks to an agent that accepts them', async () => {
    const blocks = echoed(await bridge.chat([image], scripted(['--image'])));
    expect(blocks).toEqual([
      { type: 'text', text: 'echo' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    ]);
  });

  test('and as a short placeholder to one that does not', async () => {
    const blocks = echoed(await bridge.chat([image], scripted()));
    expect(blocks).toEqual([
      { type: 'text', text: 'echo' },
      { type: 'text', text: '[An image (image/png) was attached; this agent does not accept images.]' },
    ]);
  });

  test("the context policy: by default the person's words and what they attached; the system prompt and the consumer's context when asked for", async () => {
    const messages: Message[] = [
      { role: 'system', content: [{ type: 'text', value: 'You are Copilot.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', value: '<attachments>\n<attachment id="a.ts" filePath="/ws/a.ts">\nconst a = 1;\n</attachment>\n</attachments>\n<context>\nThe current date is today.\n</context>\n<userRequest>\necho\n</userRequest>' },
          { type: 'data', mimeType: 'text/plain', data: Buffer.from('notes').toString('base64') },
        ],
      },
    ];
    const link = { type: 'resource_link', uri: 'file:///ws/a.ts', name: 'a.ts', mimeType: 'text/x-typescript' };
    const itsText = { type: 'text', text: 'The text of a.ts as the person sees it (file:///ws/a.ts):\n```\nconst a = 1;\n```' };
    expect(echoed(await bridge.chat(messages, scripted()))).toEqual([{ type: 'text', text: 'echo' }, link, itsText]);
    await bridge.close();
    bridge = new Bridge(['--context', 'system']);
    expect(echoed(await bridge.chat(messages, scripted()))).toEqual([{ type: 'text', text: 'You are Copilot.' }, { type: 'text', text: 'echo' }, link, itsText]);
    await bridge.close();
    // `attachments`, the former name of `everything`, still means it.
    bridge = new Bridge(['--context', 'attachments']);
    // Every line of the consumer's context now reaches the agent (which answers each), around echo's JSON.
    const all = echoIn(textOfParts(await bridge.chat(messages, scripted())));
    expect(all[0]).toEqual({ type: 'text', text: 'You are Copilot.' });
    expect(all[1]).toMatchObject({ type: 'text', text: expect.stringContaining('<attachment id="a.ts" filePath="/ws/a.ts">\nconst a = 1;\n</attachment>') });
    // The file comes along as a link too: its text is in the consumer's.
    expect(all[2]).toEqual(link);
    expect(all[3]).toEqual({ type: 'text', text: 'notes' });
  });

  test('what the person attached: a resource for an agent that takes embedded context; a session told the chat so far is told it as a reference', async () => {
    const attached = (words: string): Message =>
      user(`<attachments>\n<attachment id="a.ts" filePath="/ws/src/a.ts">\nconst a = 1;\n</attachment>\n</attachments>\n<reminderInstructions>\nCopilot's own.\n</reminderInstructions>\n<userRequest>\n${words}\n</userRequest>`);
    const first = [attached('say first\necho')];
    const reply = await bridge.chat(first, scripted(['--embedded-context'], 'embedding'));
    expect(echoed(reply)).toEqual([
      { type: 'text', text: 'say first\necho' },
      { type: 'resource', resource: { uri: 'file:///ws/src/a.ts', mimeType: 'text/x-typescript', text: 'const a = 1;' } },
    ]);
    // The chat goes on with another model: its new session is told what was said, the file as a reference only.
    const switched = echoIn(textOfParts(await bridge.chat([...first, replied(reply), user('echo')], scripted(['--embedded-context'], 'other'))));
    expect(switched).toHaveLength(2);
    // (The reply it is told echoes the first prompt, resource and all: the person's message itself is the reference.)
    expect(switched[0]).toMatchObject({ type: 'text', text: expect.stringContaining('User: say first\necho\n[attached: file /ws/src/a.ts]\nAssistant: first[') });
    expect(JSON.stringify(switched[0])).not.toContain("Copilot's own.");
    expect(switched[1]).toEqual({ type: 'text', text: 'echo' });
  });
});

describe('processes', () => {
  function agentProcesses(marker: string): string[] {
    const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
    return out.split('\n').filter((line) => line.includes(marker));
  }

  test('one agent process serves every conversation with it, and it ends when the bridge exits', async () => {
    // A uniquely named link to the agent, so that its processes can be told apart in the process table.
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-'));
    const marker = path.join(dir, `scripted-${process.pid}-${Date.now()}.js`);
    symlinkSync(AGENT, marker);
    const agent: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [marker], env: [] } };
    const [a, b] = await Promise.all([bridge.chat([user('say a')], agent), bridge.chat([user('say b')], agent)]);
    expect([textOfParts(a), textOfParts(b)]).toEqual(['a', 'b']);
    expect(agentProcesses(marker)).toHaveLength(1);
    await bridge.close();
    await sleep(200);
    expect(agentProcesses(marker)).toEqual([]);
  });

  test('an agent process ends when the bridge is terminated by a signal', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-'));
    const marker = path.join(dir, `scripted-${process.pid}-${Date.now()}.js`);
    symlinkSync(AGENT, marker);
    await bridge.chat([user('say up')], { mcp_server: { name: 'scripted', command: process.execPath, args: [marker], env: [] } });
    expect(agentProcesses(marker)).toHaveLength(1);
    bridge.child.kill('SIGTERM');
    await new Promise((resolve) => bridge.child.once('exit', resolve));
    await sleep(200);
    expect(agentProcesses(marker)).toEqual([]);
  });
});
