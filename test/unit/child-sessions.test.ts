import type { SessionNotification } from '@agentclientprotocol/sdk';
import { ChildSessions } from '../../src/agents/acp/child-sessions.js';
import { CHILD_SESSION, PARENT_SESSION } from '../../src/agents/acp/updates/subagent-routes.js';

/**
 * Child sessions as codex-acp 2.6.0 sends them once the subagents RFD is declared (recorded over ACP): the parent
 * announces each child with `subagent_update`, the child's calls and words come under its own session id.
 */
const root = 'root';
const child = 'root:subagent:t1';
const notification = (sessionId: string, update: Record<string, unknown>): SessionNotification => ({ sessionId, update } as unknown as SessionNotification);
const announced = notification(root, { sessionUpdate: 'subagent_update', sessionId: child, capabilities: {}, description: 'Do the Alpha survey of this workspace.' });

describe('child sessions led to their parent', () => {
  test("a child is its parent's call, named by its description; its calls go to the root marked with it; its last message is its report at its end", () => {
    const children = new ChildSessions();
    expect(children.lead(announced)).toEqual({
      sessionId: root,
      update: { sessionUpdate: 'tool_call', toolCallId: child, title: 'Do the Alpha survey of this workspace.', kind: 'think', status: 'in_progress', rawInput: { description: 'Do the Alpha survey of this workspace.' }, _meta: { [CHILD_SESSION]: true } },
    });
    expect(children.rootOf(child)).toBe(root);
    // Its bookkeeping (running, capabilities, cwd) shows nothing.
    expect(children.lead(notification(root, { sessionUpdate: 'subagent_update', sessionId: child, state: { state: 'running' } }))).toBeUndefined();
    expect(children.lead(notification(root, { sessionUpdate: 'subagent_update', sessionId: child, cwd: '/w' }))).toBeUndefined();
    const read = { sessionUpdate: 'tool_call', toolCallId: 'call_rd', title: 'Read file', kind: 'read', status: 'in_progress' };
    expect(children.lead(notification(child, read))).toEqual({ sessionId: root, update: { ...read, _meta: { [PARENT_SESSION]: child } } });
    // Its words are not the parent's answer: kept, the last message only (Codex's child sends a notice first).
    expect(children.lead(notification(child, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Warning: no model metadata.' } }))).toBeUndefined();
    expect(children.lead(notification(child, { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'Alpha found ' } }))).toBeUndefined();
    expect(children.lead(notification(child, { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'a README.' } }))).toBeUndefined();
    expect(children.lead(notification(child, { sessionUpdate: 'usage_update', used: 1, size: 2 }))).toBeUndefined();
    expect(children.lead(notification(root, { sessionUpdate: 'subagent_update', sessionId: child, state: { state: 'idle', stopReason: 'end_turn' } }))).toEqual({
      sessionId: root,
      update: { sessionUpdate: 'tool_call_update', toolCallId: child, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Alpha found a README.' } }], _meta: { [CHILD_SESSION]: true } },
    });
  });

  test('a child that failed or was cancelled ends failed; a session never announced is left as it is', () => {
    const children = new ChildSessions();
    children.lead(announced);
    expect(children.lead(notification(root, { sessionUpdate: 'subagent_update', sessionId: child, state: { state: 'cancelled' } }))?.update).toMatchObject({ toolCallId: child, status: 'failed', content: [] });
    const other = notification('other', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
    expect(children.lead(other)).toBe(other);
    expect(children.rootOf('other')).toBe('other');
  });
});
