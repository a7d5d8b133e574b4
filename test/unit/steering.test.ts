/**
 * The person's words sent while the agent's turn went on (issue 59): steered into that turn once the agent has moved
 * on from the answered calls, where it can be steered; else, or when no turn ran any more, the session's next prompt.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { createLogger } from '../../src/log/logger.js';
import { FollowUps, STEERING_METHOD, steeringOf, type Steer } from '../../src/agents/acp/session/steering.js';

const words: acp.ContentBlock[] = [{ type: 'text', text: 'say steered words' }];
const logged: string[] = [];
const log = createLogger('debug', (line) => logged.push(line));
/** An update the agent sends once it has the call's result (claude-agent-acp: the call completed). */
const callEnded: acp.SessionUpdate = { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' };

function steerAnswering(...answers: (boolean | Error)[]): Steer & { calls: acp.ContentBlock[][] } {
  const calls: acp.ContentBlock[][] = [];
  const steer = async (blocks: acp.ContentBlock[]): Promise<boolean> => {
    calls.push(blocks);
    const answer = answers.shift();
    if (answer instanceof Error) throw answer;
    return answer ?? true;
  };
  return Object.assign(steer, { calls });
}

beforeEach(() => logged.splice(0));

test('an agent that cannot be steered: the words are the next prompt', async () => {
  const followUps = new FollowUps();
  followUps.add(words, undefined);
  followUps.heard(callEnded, log, 'c1');
  expect(followUps.none).toBe(false);
  expect(await followUps.take()).toEqual(words);
  expect(followUps.none).toBe(true);
});

test('steered once the agent moved on from the answered calls, not before; nothing left to prompt', async () => {
  const followUps = new FollowUps();
  const steer = steerAnswering(true);
  followUps.add(words, steer);
  // Still the call's own progress, or bookkeeping: the agent has not moved on.
  followUps.heard({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' }, log, 'c1');
  followUps.heard({ sessionUpdate: 'available_commands_update', availableCommands: [] }, log, 'c1');
  await Promise.resolve();
  expect(steer.calls).toEqual([]);
  followUps.heard(callEnded, log, 'c1');
  followUps.heard({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }, log, 'c1');
  expect(await followUps.take()).toEqual([]);
  expect(steer.calls).toEqual([words]);
  expect(logged.join('')).toContain("conversation c1: the person's words steered into the running turn");
});

test('the agent says no turn runs (promptRequired): the words are the next prompt, once', async () => {
  const followUps = new FollowUps();
  followUps.add(words, steerAnswering(false));
  followUps.heard(callEnded, log, 'c1');
  expect(followUps.none).toBe(false);
  expect(await followUps.take()).toEqual(words);
  expect(await followUps.take()).toEqual([]);
});

test('the turn stopped before the agent moved on: the words are the next prompt, never steered', async () => {
  const followUps = new FollowUps();
  const steer = steerAnswering(true);
  followUps.add(words, steer);
  expect(await followUps.take()).toEqual(words);
  followUps.heard(callEnded, log, 'c1');
  expect(steer.calls).toEqual([]);
});

test('a steer that fails is logged, and the words are the next prompt', async () => {
  const followUps = new FollowUps();
  followUps.add(words, steerAnswering(new Error('Method not found')));
  followUps.heard(callEnded, log, 'c1');
  expect(await followUps.take()).toEqual(words);
  expect(logged.join('')).toMatch(/warn\] conversation c1: steering failed, the words are its next prompt: Error: Method not found/);
});

test('the bridge cancelled the turn: nothing said for it is asked any more, even by a steer still in flight', async () => {
  const followUps = new FollowUps();
  followUps.add(words, steerAnswering(false));
  followUps.heard(callEnded, log, 'c1');
  followUps.clear();
  expect(await followUps.take()).toEqual([]);
  expect(followUps.none).toBe(true);
});

describe('steeringOf', () => {
  const agentAnswering = (answer: unknown) => {
    const requests: [string, unknown][] = [];
    const agent = { request: async (method: string, params: unknown) => (requests.push([method, params]), answer) } as unknown as acp.ClientContext;
    return { agent, requests };
  };
  const advertising = (meta: Record<string, unknown> | undefined) => ({ protocolVersion: 1, ...(meta === undefined ? {} : { _meta: meta }) }) as acp.InitializeResponse;

  test('an agent that does not advertise steering is not steered', () => {
    const { agent } = agentAnswering({ outcome: 'injected' });
    expect(steeringOf(advertising(undefined), agent, 's1')).toBeUndefined();
    expect(steeringOf(advertising({ steering: { supported: false } }), agent, 's1')).toBeUndefined();
    expect(steeringOf(advertising({ steering: true }), agent, 's1')).toBeUndefined();
  });

  test("claude-agent-acp's _session/steering, asking it to start nothing when no turn runs", async () => {
    const { agent, requests } = agentAnswering({ outcome: 'injected' });
    const steer = steeringOf(advertising({ steering: { supported: true } }), agent, 's1')!;
    expect(await steer(words)).toBe(true);
    expect(requests).toEqual([[STEERING_METHOD, { sessionId: 's1', prompt: words, _meta: { steering: { idleBehavior: 'promptRequired' } } }]]);
    expect(await steeringOf(advertising({ steering: { supported: true } }), agentAnswering({ outcome: 'promptRequired', reason: 'noRunningTurn' }).agent, 's1')!(words)).toBe(false);
  });

  test('a malformed answer fails, naming the field', async () => {
    const steer = steeringOf(advertising({ steering: { supported: true } }), agentAnswering({}).agent, 's1')!;
    await expect(steer(words)).rejects.toThrow(/outcome/);
  });
});
