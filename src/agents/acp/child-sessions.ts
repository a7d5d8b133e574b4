import type * as acp from '@agentclientprotocol/sdk';
import { CHILD_SESSION, PARENT_SESSION } from './updates/subagent-routes.js';

/**
 * An agent's subagents as child sessions, the ACP subagents RFD's form (agent-client-protocol PR #1992;
 * `@agentclientprotocol/sdk/unstable`'s `SubagentUpdate`), for agents the bridge declares `clientCapabilities.subagents`
 * to (Codex: its only form that sends what its subagents do, and whose Stop stops them; docs/agents.md).
 *
 * The parent session announces each child with a `subagent_update {sessionId, title?, description?, state?}`; the
 * child's own updates come under its session id. Led to the parent's conversation as the bridge renders subagents
 * (updates/subagent-routes.ts): the child as a tool call of the parent's, id its session id, marked `CHILD_SESSION`;
 * each of its calls marked with its session id (`PARENT_SESSION`); its words kept as its report, for its end.
 */
export class ChildSessions {
  /** Each child's parent session, and its last message so far. */
  private readonly children = new Map<string, { readonly parent: string; said: string; messageId?: string | null | undefined }>();

  /** The session whose conversation holds `sessionId`: its parent's, for a child. */
  rootOf(sessionId: string): string {
    let id = sessionId;
    for (let parent = this.children.get(id)?.parent; parent !== undefined; parent = this.children.get(id)?.parent) id = parent;
    return id;
  }

  /** The notification as the root's conversation takes it, or none (a child's bookkeeping, its words until its end). */
  lead(notification: acp.SessionNotification): acp.SessionNotification | undefined {
    const { sessionId } = notification;
    const update: unknown = notification.update;
    if (isSubagentUpdate(update)) return this.announced(sessionId, update);
    const child = this.children.get(sessionId);
    if (child === undefined) return notification;
    const { update: childUpdate } = notification;
    switch (childUpdate.sessionUpdate) {
      case 'agent_message_chunk':
        // Its report is its last message (Codex's child sends a notice of its own first).
        if (childUpdate.messageId !== child.messageId) [child.said, child.messageId] = ['', childUpdate.messageId];
        if (childUpdate.content.type === 'text' && child.said.length < SAID_LIMIT) child.said += childUpdate.content.text;
        return undefined;
      case 'tool_call':
      case 'tool_call_update':
        return { sessionId: this.rootOf(sessionId), update: { ...childUpdate, _meta: { ...(childUpdate._meta ?? {}), [PARENT_SESSION]: sessionId } } };
      default:
        return undefined;
    }
  }

  private announced(parent: string, update: SubagentUpdate): acp.SessionNotification | undefined {
    const known = this.children.get(update.sessionId);
    if (known === undefined) this.children.set(update.sessionId, { parent, said: '' });
    const title = update.title ?? update.description ?? undefined;
    const meta = { [CHILD_SESSION]: true };
    const root = this.rootOf(parent);
    if (known === undefined) {
      return { sessionId: root, update: { sessionUpdate: 'tool_call', toolCallId: update.sessionId, title: title ?? '', kind: 'think', status: 'in_progress', rawInput: { description: title }, _meta: meta } };
    }
    const state = update.state?.state;
    const ended = state === 'idle' && update.state?.stopReason === 'end_turn' ? 'completed' : state === 'failed' || state === 'cancelled' || state === 'disconnected' ? 'failed' : undefined;
    if (ended === undefined && title === undefined) return undefined;
    const content: acp.ToolCallContent[] = ended === 'completed' && known.said !== '' ? [{ type: 'content', content: { type: 'text', text: known.said } }] : [];
    if (ended !== undefined) known.said = '';
    return {
      sessionId: root,
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: update.sessionId,
        ...(title === undefined ? {} : { title, rawInput: { description: title } }),
        ...(ended === undefined ? {} : { status: ended, content }),
        _meta: meta,
      },
    };
  }
}

/** How much of a child's words are kept for its report (the end line shows its first sentence). */
const SAID_LIMIT = 4000;

/** What the bridge reads of a `subagent_update` (the SDK's stable types do not have it). */
interface SubagentUpdate {
  readonly sessionUpdate: 'subagent_update';
  readonly sessionId: string;
  readonly title?: string | null;
  readonly description?: string | null;
  readonly state?: { readonly state?: string; readonly stopReason?: string } | null;
}

function isSubagentUpdate(update: unknown): update is SubagentUpdate {
  if (typeof update !== 'object' || update === null) return false;
  const { sessionUpdate, sessionId, title, description, state } = update as Record<string, unknown>;
  const optionalString = (value: unknown): boolean => value === undefined || value === null || typeof value === 'string';
  return sessionUpdate === 'subagent_update' && typeof sessionId === 'string' && optionalString(title) && optionalString(description) && (state === undefined || state === null || typeof state === 'object');
}
