import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { TestScheduler } from 'rxjs/testing';
import type { AcpTurnEvent } from '../../src/agents/acp/updates/turn-events.js';
import { TurnRendering } from '../../src/agents/acp/updates/update-parts.js';
import { acpTurnToParts, PLAN_SHOWN_WITHIN_MS } from '../../src/agents/acp/updates/acp-turn-to-parts.js';
import type { ResponsePart } from '../../src/protocol/messages.js';
import type { Todo } from '../../src/tools/consumer-todos.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
/** For responses without a plan: nothing is held, so nothing is put back. */
const nothingHeld = (events: AcpTurnEvent[]): void => expect(events).toEqual([]);

const chunk = (text: string): AcpTurnEvent => ({ kind: 'update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
const update = (u: SessionUpdate): AcpTurnEvent => ({ kind: 'update', update: u });
const permission = (id: string, title: string): AcpTurnEvent => ({
  kind: 'permission',
  permission: {
    toolCall: { toolCallId: id, title, kind: 'execute', rawInput: { command: title } },
    options: [
      { optionId: 'x1', name: 'Allow', kind: 'allow_once' },
      { optionId: 'x2', name: 'Reject', kind: 'reject_once' },
    ],
    actionId: `action-${id}`,
  },
});
const stopped: AcpTurnEvent = { kind: 'stopped', stopReason: 'end_turn' };

const text = (value: string): ResponsePart => ({ type: 'text', value });
const action = (id: string, title: string): ResponsePart => ({
  type: 'tool_call',
  toolCallId: id,
  toolName: 'symposium-agent-action',
  parameters: { kind: 'execute', title, raw_input: { command: title }, action_id: `action-${id}` },
});

describe('acpTurnToParts', () => {
  test('message chunks become text and thoughts thinking, until the agent stops', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const thought = update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hm' } });
      const events = cold('a-t-b-s-c', { a: chunk('Hello '), t: thought, b: chunk('world'), s: stopped, c: chunk('late') });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('a-t-b-|', {
        a: text('Hello '),
        t: { type: 'thinking', value: 'hm' },
        b: text('world'),
      });
    });
  });

  test('a permission request becomes a symposium-agent-action tool call and ends the response once settled', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const events = cold('a-p---------b', { a: chunk('Let me run it.'), p: permission('call-1', 'touch x'), b: chunk('after') });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('a-p----|', { a: text('Let me run it.'), p: action('call-1', 'touch x') });
      expectSubscriptions(events.subscriptions).toBe('^------!');
    });
  });

  test('a permission refused because nobody can be asked is told in a line, and the response goes on', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const refused: AcpTurnEvent = { kind: 'refused', permission: (permission('call-1', 'touch x') as Extract<AcpTurnEvent, { kind: 'permission' }>).permission };
      const events = cold('a-r-b-s', { a: chunk('Let me run it.'), r: refused, b: chunk('I could not.'), s: stopped });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('a-r-b-|', {
        a: text('Let me run it.'),
        r: text('\n\n> ⛔ Not allowed: the agent asked to run `touch x`, and this chat cannot ask you: it offers no Symposium agent action tool (Ask and Plan do not; in Agent mode, Configure Tools can turn it off).\n\n'),
        b: text('I could not.'),
      });
    });
  });

  test('several permission requests close together are shown in one response', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const events = cold('p-q-a--r------', { p: permission('1', 'one'), q: permission('2', 'two'), a: chunk('meanwhile'), r: permission('3', 'three') });
      // settles 5 frames after the last request (frame 7), not after the first
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('p-q-a--r----|', {
        p: action('1', 'one'),
        q: action('2', 'two'),
        a: text('meanwhile'),
        r: action('3', 'three'),
      });
    });
  });

  test('bridged tool calls and permission requests in one turn are shown together', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const call = (id: string, name: string): AcpTurnEvent => ({ kind: 'tool', call: { toolCallId: id, name, arguments: { query: name } } });
      const events = cold('t-p-u----', { t: call('v1', 'search'), p: permission('p1', 'rm x'), u: call('v2', 'read_file') });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 3, toolMs: 3 }, nothingHeld))).toBe('t-p-u--|', {
        t: { type: 'tool_call', toolCallId: 'v1', toolName: 'search', parameters: { query: 'search' } },
        p: action('p1', 'rm x'),
        u: { type: 'tool_call', toolCallId: 'v2', toolName: 'read_file', parameters: { query: 'read_file' } },
      });
    });
  });

  test('a bridged tool call settles sooner than a permission request', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const settle = { permissionMs: 10, toolMs: 2 };
      const call: AcpTurnEvent = { kind: 'tool', call: { toolCallId: 'v1', name: 'search', arguments: {} } };
      const toolCall: ResponsePart = { type: 'tool_call', toolCallId: 'v1', toolName: 'search', parameters: {} };
      expectObservable(cold('t-------------', { t: call }).pipe(acpTurnToParts(new TurnRendering(), settle, nothingHeld))).toBe('t-|', { t: toolCall });
      expectObservable(cold('p-------------', { p: permission('p1', 'rm x') }).pipe(acpTurnToParts(new TurnRendering(), settle, nothingHeld))).toBe('p---------|', {
        p: action('p1', 'rm x'),
      });
    });
  });

  test('once every announced call has arrived the response completes at once, not after the settle time', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const call = (id: string): AcpTurnEvent => ({ kind: 'tool', call: { toolCallId: id, name: 'search', arguments: {} } });
      const arrived: AcpTurnEvent = { kind: 'announced-calls-arrived' };
      const events = cold('a-t-uA--------b', { a: chunk('Searching.'), t: call('v1'), u: call('v2'), A: arrived, b: chunk('late') });
      const part = (id: string): ResponsePart => ({ type: 'tool_call', toolCallId: id, toolName: 'search', parameters: {} });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 10, toolMs: 10 }, nothingHeld))).toBe('a-t-u|', { a: text('Searching.'), t: part('v1'), u: part('v2') });
      expectSubscriptions(events.subscriptions).toBe('^----!');
    });
  });

  test('an arrival notice counts only right after a call of this response', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const call: AcpTurnEvent = { kind: 'tool', call: { toolCallId: 'v1', name: 'search', arguments: {} } };
      const arrived: AcpTurnEvent = { kind: 'announced-calls-arrived' };
      const part: ResponsePart = { type: 'tool_call', toolCallId: 'v1', toolName: 'search', parameters: {} };
      const settle = { permissionMs: 10, toolMs: 3 };
      // A notice left from an earlier response, ahead of this one's call: the call settles as calls do.
      expectObservable(cold('At-------', { A: arrived, t: call }).pipe(acpTurnToParts(new TurnRendering(), settle, nothingHeld))).toBe('-t--|', { t: part });
      // After a permission request, whose window it does not cut short.
      expectObservable(cold('pA--------------', { A: arrived, p: permission('p1', 'rm x') }).pipe(acpTurnToParts(new TurnRendering(), settle, nothingHeld))).toBe('p---------|', {
        p: action('p1', 'rm x'),
      });
      expectObservable(cold('tA------', { A: arrived, t: call }).pipe(acpTurnToParts(new TurnRendering(), settle, nothingHeld))).toBe('t|', { t: part });
    });
  });

  test('a tool shows one line when it starts and one when it ends, with a brief result', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const events = cold('a-b-c-d-s', {
        a: update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls -la', status: 'pending' }),
        b: update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' }),
        c: update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'total 0\nfoo' } }] }),
        d: update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }),
        s: stopped,
      });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('a---c---|', {
        a: text('\n\n> 🔧 `ls -la`\n\n'),
        c: text('\n\n> ✓ `ls -la`: total 0\n\n'),
      });
    });
  });

  test("a call of VS Code's tools through the bridge shows no lines of its own: VS Code shows the call", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const server = 'vscode-tools-a1b2c3';
      const rendering = new TurnRendering(server);
      // Claude Code announces the MCP call (the tool's name in `_meta`), then the call reaches the bridge: VS Code runs it.
      const call: AcpTurnEvent = { kind: 'tool', call: { toolCallId: 'v1', name: 'search_workspace', arguments: { query: 'x' } } };
      const first = cold('a-t-', {
        a: update({ sessionUpdate: 'tool_call', toolCallId: 'toolu_1', title: 'search_workspace', status: 'pending', _meta: { claudeCode: { toolName: `mcp__${server}__search_workspace` } } }),
        t: call,
      });
      expectObservable(first.pipe(acpTurnToParts(rendering, { permissionMs: 1, toolMs: 1 }, nothingHeld))).toBe('--t|', {
        t: { type: 'tool_call', toolCallId: 'v1', toolName: 'search_workspace', parameters: { query: 'x' } },
      });
      // The next response: the bridged call ends without a line; the agent's own tool keeps both of its lines.
      const second = cold('b-c-d-s', {
        b: update({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'found' } }] }),
        c: update({ sessionUpdate: 'tool_call', toolCallId: 'toolu_2', title: 'ls', status: 'pending', _meta: { claudeCode: { toolName: 'Bash' } } }),
        d: update({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_2', status: 'completed' }),
        s: stopped,
      });
      expectObservable(second.pipe(acpTurnToParts(rendering, { permissionMs: 1, toolMs: 1 }, nothingHeld))).toBe('--c-d-|', {
        c: text('\n\n> 🔧 `ls`\n\n'),
        d: text('\n\n> ✓ `ls`\n\n'),
      });
    });
  });

  test('an update for a tool call never announced is tolerated', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const events = cold('a-s', { a: update({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'failed' }), s: stopped });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('a-|', { a: text('\n\n> ✗ `tool call` failed\n\n') });
    });
  });

  test("the agent's context usage becomes a usage data part, as Copilot's context meter reads it", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const events = cold('u-s', { u: update({ sessionUpdate: 'usage_update', used: 53000, size: 200000 }), s: stopped });
      const usage = Buffer.from(JSON.stringify({ prompt_tokens: 53000, completion_tokens: 0, total_tokens: 53000 })).toString('base64');
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('u-|', { u: { type: 'data', mimeType: 'usage', data: usage } });
    });
  });

  test('a plan becomes a checklist, then its changes, and unknown updates are ignored', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const plan = (first: 'in_progress' | 'completed'): AcpTurnEvent =>
        update({
          sessionUpdate: 'plan',
          entries: [
            { content: 'Read', priority: 'high', status: first },
            { content: 'Write', priority: 'low', status: 'pending' },
          ],
        });
      const unknown = { kind: 'update', update: { sessionUpdate: 'something_new', whatever: 1 } } as unknown as AcpTurnEvent;
      const events = cold('a-a-u-b-s', { a: plan('in_progress'), u: unknown, b: plan('completed'), s: stopped });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('a-----b-|', {
        a: text('\n\n- [ ] **Read**\n- [ ] Write\n\n'),
        b: text('\n\n> ✓ Read\n\n'),
      });
    });
  });

  const todos = (...statuses: Todo['status'][]): AcpTurnEvent => ({ kind: 'plan', tool: 'manage_todo_list', todos: statuses.map((status, i) => ({ id: i + 1, title: `step ${i + 1}`, status })) });
  const todoCall = (...statuses: Todo['status'][]): ResponsePart => ({
    type: 'tool_call',
    toolCallId: expect.stringMatching(/^symposium-plan-/) as unknown as string,
    toolName: 'manage_todo_list',
    parameters: { todoList: statuses.map((status, i) => ({ id: i + 1, title: `step ${i + 1}`, status })) },
  });

  test('a plan ends the response once plans settled, on one call of the todo tool showing the latest; what came after it is put back', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const heldBack: AcpTurnEvent[][] = [];
      const events = cold('-a-l-b-m-c------d', { a: chunk('one'), l: todos('in-progress', 'not-started'), b: chunk('two'), m: todos('completed', 'in-progress'), c: chunk('three'), d: chunk('later') });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, (held) => heldBack.push(held)))).toBe('-a----------(L|)', {
        a: text('one'),
        L: todoCall('completed', 'in-progress'),
      });
      flush();
      expect(heldBack).toEqual([[chunk('two'), chunk('three')]]);
    });
  });

  test('a plan the agent keeps changing shows within PLAN_SHOWN_WITHIN_MS of its first change', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const heldBack: AcpTurnEvent[][] = [];
      // A plan every 100 ms for 2 s, while settling waits 500 ms after the last.
      const events = cold(`l ${'99ms l '.repeat(19)}`, { l: todos('in-progress') });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 500, toolMs: 500 }, (held) => heldBack.push(held)))).toBe(`${PLAN_SHOWN_WITHIN_MS}ms (L|)`, {
        L: todoCall('in-progress'),
      });
      flush();
      expect(heldBack).toEqual([[]]);
    });
  });

  test('after a plan, the agent’s stop and its permission requests wait for the next response too', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const heldBack: AcpTurnEvent[][] = [];
      const events = cold('-l-p-a-s', { l: todos('in-progress'), p: permission('t1', 'rm x'), a: chunk('after'), s: stopped });
      expectObservable(events.pipe(acpTurnToParts(new TurnRendering(), { permissionMs: 5, toolMs: 5 }, (held) => heldBack.push(held)))).toBe('--------(L|)', { L: todoCall('in-progress') });
      flush();
      expect(heldBack).toEqual([[permission('t1', 'rm x'), chunk('after'), stopped]]);
    });
  });

  test('a paused turn continues in the next response with the same rendering', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const rendering = new TurnRendering();
      const first = cold('a-p', { a: update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'rm x', status: 'pending' }), p: permission('t1', 'rm x') });
      const second = cold('----c-s', { c: update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }), s: stopped });
      expectObservable(first.pipe(acpTurnToParts(rendering, { permissionMs: 1, toolMs: 1 }, nothingHeld))).toBe('a-p|', { a: text('\n\n> 🔧 `rm x`\n\n'), p: action('t1', 'rm x') });
      // the title comes from the first response's announcement
      expectObservable(second.pipe(acpTurnToParts(rendering, { permissionMs: 1, toolMs: 1 }, nothingHeld))).toBe('----c-|', { c: text('\n\n> ✓ `rm x`\n\n') });
    });
  });
});
