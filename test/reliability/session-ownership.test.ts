/**
 * One conversation, one owner of its agent session (issue 17, points 1 and 2), against the BUILT bridge
 * and the scripted agent: a cancelled turn still opening its session when the pool closes it must not
 * hold that session next to the conversation's next turn; and an agent that hands out a session id
 * again must never get one chat resumed into another's session.
 */
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, replied, sleep, user } from '../integration/agent-bridge.js';

const agent = (...flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });

let bridge: AgentBridge;
afterEach(async () => {
  await bridge.close();
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

test('stop and resend while the pool closes the session a cancelled turn is still loading: one owner, every reply whole', async () => {
  bridge = new AgentBridge(['--max-sessions', '1']);
  const scripted = agent('--load-session', '--close-session', '--load-delay', '1500');
  const a: Message[] = [user('say a1')];
  a.push(replied(await bridge.chat(a, scripted)));
  const b: Message[] = [user('say b1')];
  b.push(replied(await bridge.chat(b, scripted)));
  // A goes on: its session is loaded again (slowly); the user stops it meanwhile.
  a.push(user('say a2'));
  const token = new CancellationTokenSource();
  const stopped = bridge.chat(a, scripted, [], token);
  const loading = (log: string) => (log.match(/session\/load scripted-session-1/g) ?? []).length;
  await bridge.logged(/session\/load scripted-session-1/, 10000);
  token.cancel();
  expect((await rejection(stopped)).code).toBe(ProtocolErrorCodes.RequestCancelled);
  // B's turn makes the pool (one session at most) close A's session while its load still runs.
  b.push(user('say b2'));
  const b2 = bridge.chat(b, scripted);
  await sleep(100);
  // The user resends A's message.
  const a2 = await bridge.chat(a, scripted);
  expect(textOfParts(a2)).toBe('a2');
  expect(textOfParts(await b2)).toBe('b2');
  a.push(replied(a2), user('say a3'));
  expect(textOfParts(await bridge.chat(a, scripted))).toBe('a3');
  expect(loading(bridge.stderr())).toBeGreaterThanOrEqual(1);
}, 60000);

test('an agent that hands out a session id again after it restarted: no chat is resumed into another’s session', async () => {
  bridge = new AgentBridge(['--session-idle-ms', '200', '--agent-idle-ms', '200']);
  const scripted = agent('--load-session');
  const a: Message[] = [user('say secret of a')];
  a.push(replied(await bridge.chat(a, scripted)));
  // A's session closes, the agent exits; the next one numbers its sessions from 1 again.
  await bridge.logged(/no open session for 200 ms/, 10000);
  await sleep(300);
  const b: Message[] = [user('say words of b')];
  b.push(replied(await bridge.chat(b, scripted)));
  expect(bridge.stderr()).toMatch(/conversation \S+ is ACP session scripted-session-1[\s\S]*conversation \S+ is ACP session scripted-session-1/);
  // A goes on: it must not be resumed into B's session (which would show it B's words).
  a.push(user('history'));
  const seen = textOfParts(await bridge.chat(a, scripted));
  expect(seen).not.toContain('words of b');
  // And B's session is still B's: its next reply is whole.
  b.push(user('say more of b'));
  expect(textOfParts(await bridge.chat(b, scripted))).toBe('more of b');
}, 60000);

test('a conversation whose agent waits on a VS Code tool call keeps its session when others need room', async () => {
  bridge = new AgentBridge(['--max-sessions', '1']);
  const scripted = agent('--mcp-http', '--load-session');
  const tools = [{ name: 'lookup', description: 'Looks a tag up', inputSchema: { type: 'object', properties: {} } }];
  const a: Message[] = [user('mcp-call lookup {"tag":"a"}', 'say a after')];
  const asked = await bridge.chat(a, scripted, tools);
  const call = asked.find((p) => p.type === 'tool_call');
  expect(call?.type).toBe('tool_call');
  // Another conversation needs the one session there is room for, while A's agent waits for the tool's result.
  expect(textOfParts(await bridge.chat([user('say b')], scripted, tools))).toBe('b');
  a.push(replied(asked), { role: 'user', content: [{ type: 'tool_result', toolCallId: call?.type === 'tool_call' ? call.toolCallId : '', result: [{ type: 'text', value: 'found a' }] }] });
  expect(textOfParts(await bridge.chat(a, scripted, tools))).toBe('result lookup: found aa after');
}, 60000);

describe.each([
  ['an agent that gives every session/new one id', [] as string[]],
  ['the same agent, loading sessions', ['--load-session']],
])('%s: each conversation still gets its own reply, or a clear error naming the agent', (_name, flags) => {
  test('A, B, A, B', async () => {
    bridge = new AgentBridge();
    const scripted = agent('--session-id', 'dup-session', ...flags);
    const a: Message[] = [];
    const b: Message[] = [];
    const turn = async (history: Message[], words: string): Promise<string> => {
      history.push(user(`say ${words}`));
      try {
        const parts = await bridge.chat(history, scripted);
        history.push(replied(parts));
        return textOfParts(parts);
      } catch (error) {
        history.pop();
        return `error: ${error instanceof Error ? error.message : String(error)}`;
      }
    };
    // A holds the session: its replies are whole. B's are its own words, or an error that says the agent gave
    // one session id twice; never a silent empty reply.
    expect(await turn(a, 'A-first')).toBe('A-first');
    const bFirst = await turn(b, 'B-first');
    expect(await turn(a, 'A-second')).toBe('A-second');
    const bSecond = await turn(b, 'B-second');
    for (const [reply, words] of [[bFirst, 'B-first'], [bSecond, 'B-second']]) {
      if (reply !== words) expect(reply).toMatch(/^error: .*dup-session.*hands out session ids twice/);
    }
  }, 60000);
});
