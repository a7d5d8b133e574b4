import { createHash } from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk';
import type { ForkPoint } from '../../../state/conversation-store.js';

export type { ForkPoint };

/**
 * Where a session's answers end, as an agent that forks names the point (claude-agent-acp 0.100's `session/fork`
 * fork point, `dist/fork-session.js`): the id of the agent's last message of the answer (the `messageId` of its
 * chunks), a fingerprint of that message's text (`sha256:` and the hex digest, as it computes it), and how many of
 * the session's messages had that text up to it, itself included. Work per chunk heard; none per history.
 */
export class AnswerEnds {
  private turnKey: string | undefined;
  private messageId: string | undefined;
  private text = '';
  /** How many of the messages heard before the current one had each fingerprint. */
  private readonly counted = new Map<string, number>();

  /** A turn asked under `turnKey` goes on in the session's prompt: its answer ends where that prompt's does. */
  asked(turnKey: string): void {
    this.turnKey = turnKey;
  }

  heard(update: acp.SessionUpdate): void {
    if (update.sessionUpdate !== 'agent_message_chunk' || update.messageId == null) return;
    if (update.messageId !== this.messageId) {
      if (this.messageId !== undefined) {
        const fingerprint = fingerprintOf(this.text);
        this.counted.set(fingerprint, (this.counted.get(fingerprint) ?? 0) + 1);
      }
      this.messageId = update.messageId;
      this.text = '';
    }
    if (update.content.type === 'text') this.text += update.content.text;
  }

  /** The prompt in ACP session `sessionId` was answered: the point after its answer; none if its agent names no messages. */
  answered(sessionId: string): ForkPoint | undefined {
    const { turnKey, messageId } = this;
    if (turnKey === undefined || messageId === undefined) return undefined;
    const fingerprint = fingerprintOf(this.text);
    return { turn: turnKey, session: sessionId, message: messageId, fingerprint, occurrence: (this.counted.get(fingerprint) ?? 0) + 1 };
  }
}

function fingerprintOf(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The `_meta` of a `session/fork` that names `point` as claude-agent-acp reads it (`_meta.jetbrains.air.fork`, version 1). */
export function forkPointMeta(point: ForkPoint): Record<string, unknown> {
  return { jetbrains: { air: { fork: { version: 1, messageId: point.message, messageFingerprint: point.fingerprint, messageOccurrence: point.occurrence } } } };
}
