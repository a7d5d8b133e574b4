import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { TestScheduler } from 'rxjs/testing';
import type { AcpTurnEvent } from '../../src/agents/acp/updates/turn-events.js';
import { TurnRendering } from '../../src/agents/acp/updates/update-parts.js';
import { acpTurnToParts } from '../../src/agents/acp/updates/acp-turn-to-parts.js';
import type { ResponsePart } from '../../src/protocol/messages.js';

/**
 * Claude Code's subagents as claude-agent-acp 0.100.0 sends them (tool-calls/reporters/agent.js, acp-agent.js): the
 * `Agent` call opens titled "Task" with its input still streaming, the next update names it, each call its subagent
 * makes carries `parentToolUseId`, and its report ends it after Claude Code's `<tools-used-before-summary>` markup.
 */
const update = (u: SessionUpdate): AcpTurnEvent => ({ kind: 'update', update: u });
const agentOpens = (id: string): AcpTurnEvent =>
  update({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Task', kind: 'think', status: 'pending', rawInput: {}, content: [], _meta: { claudeCode: { toolName: 'Agent' } } });
const agentNamed = (id: string, description: string): AcpTurnEvent =>
  update({
    sessionUpdate: 'tool_call_update',
    toolCallId: id,
    title: description,
    kind: 'think',
    rawInput: { description, prompt: `Read README.md and report (${description}).`, subagent_type: 'Explore' },
    content: [{ type: 'content', content: { type: 'text', text: `Read README.md and report (${description}).` } }],
    _meta: { claudeCode: { toolName: 'Agent' } },
  });
const read = (id: string, parent: string): AcpTurnEvent =>
  update({
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title: 'Read README.md',
    kind: 'read',
    status: 'pending',
    rawInput: { file_path: '/w/README.md' },
    locations: [{ path: '/w/README.md', line: 1 }],
    content: [],
    _meta: { claudeCode: { toolName: 'Read', parentToolUseId: parent } },
  });
const readDone = (id: string, parent: string): AcpTurnEvent =>
  update({
    sessionUpdate: 'tool_call_update',
    toolCallId: id,
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: '```\n1 # Demo\n```' } }],
    _meta: { claudeCode: { toolName: 'Read', parentToolUseId: parent } },
  });
const report = 'The README describes a demo project. It has one heading.';
const agentDone = (id: string): AcpTurnEvent =>
  update({
    sessionUpdate: 'tool_call_update',
    toolCallId: id,
    status: 'completed',
    content: [
      { type: 'content', content: { type: 'text', text: '<tools-used-before-summary>Read</tools-used-before-summary>' } },
      { type: 'content', content: { type: 'text', text: report } },
    ],
    rawOutput: `[Subagent hand-back] The text below is the final report of a subagent this session delegated to. The report follows:\n  ${report}`,
    _meta: { claudeCode: { toolName: 'Agent' } },
  });
const chunk = (text: string): AcpTurnEvent => ({ kind: 'update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
const stopped: AcpTurnEvent = { kind: 'stopped', stopReason: 'end_turn' };
const text = (value: string): ResponsePart => ({ type: 'text', value });
const nothingHeld = (events: AcpTurnEvent[]): void => expect(events).toEqual([]);

describe('subagents in the answer', () => {
  test('each subagent is named by its task, its reads under it, and ends in one line with its outcome', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    testScheduler.run(({ cold, expectObservable }) => {
      const rendering = new TurnRendering(undefined, () => testScheduler.now());
      const events = cold('aAbB-rR-qQ 3990ms xy-m-s', {
        a: agentOpens('toolu_a'),
        A: agentNamed('toolu_a', 'Alpha survey'),
        b: agentOpens('toolu_b'),
        B: agentNamed('toolu_b', 'Beta survey'),
        r: read('toolu_r1', 'toolu_a'),
        R: read('toolu_r2', 'toolu_b'),
        q: readDone('toolu_r1', 'toolu_a'),
        Q: readDone('toolu_r2', 'toolu_b'),
        x: agentDone('toolu_a'),
        y: agentDone('toolu_b'),
        m: chunk('Both surveys agree.'),
        s: stopped,
      });
      expectObservable(events.pipe(acpTurnToParts(rendering, { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('-A-B-rR-qQ 3990ms xy-m-|', {
        A: text('\n\n> 🤖 Alpha survey (Explore)\n\n'),
        B: text('\n\n> 🤖 Beta survey (Explore)\n\n'),
        r: text('\n\n> 🔧 `Alpha survey › Read README.md`\n\n'),
        R: text('\n\n> 🔧 `Beta survey › Read README.md`\n\n'),
        q: text('\n\n> ✓ `Alpha survey › Read README.md`: 1 # Demo\n\n'),
        Q: text('\n\n> ✓ `Beta survey › Read README.md`: 1 # Demo\n\n'),
        x: text('\n\n> ✓ Alpha survey: done · 1 tool use · 4 s — The README describes a demo project.\n\n'),
        y: text('\n\n> ✓ Beta survey: done · 1 tool use · 4 s — The README describes a demo project.\n\n'),
        m: text('Both surveys agree.'),
      });
    });
  });

  test('a subagent not yet named when its first call or its end comes is shown by then, never as "Task"', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    testScheduler.run(({ cold, expectObservable }) => {
      const rendering = new TurnRendering(undefined, () => testScheduler.now());
      const described = update({ sessionUpdate: 'tool_call', toolCallId: 'toolu_c', title: 'Gamma survey', kind: 'think', status: 'pending', rawInput: { description: 'Gamma survey', prompt: 'p' }, _meta: { claudeCode: { toolName: 'Task' } } });
      const failed = update({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_a', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: '<tool_use_error>boom</tool_use_error>' } }] });
      const events = cold('ar-f-c-s', { a: agentOpens('toolu_a'), r: read('toolu_r1', 'toolu_a'), f: failed, c: described, s: stopped });
      expectObservable(events.pipe(acpTurnToParts(rendering, { permissionMs: 5, toolMs: 5 }, nothingHeld))).toBe('-r-f-c-|', {
        r: text('\n\n> 🤖 Subagent\n\n\n\n> 🔧 `Subagent › Read README.md`\n\n'),
        f: text('\n\n> ✗ Subagent: failed · 1 tool use · 0 s\n\n'),
        c: text('\n\n> 🤖 Gamma survey\n\n'),
      });
    });
  });
});
