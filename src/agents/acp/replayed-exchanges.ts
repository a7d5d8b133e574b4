import type * as acp from '@agentclientprotocol/sdk';
import type { SessionExchange } from '../agent-sessions.js';

/**
 * The exchanges of a session as `session/load` replays it: the person's text (`user_message_chunk`s in a row make
 * one request), then the agent's text until the next request. Thinking, tool calls and plans are the agent's own
 * context, kept in its session: a chat shows the words. Work per update heard.
 */
export class ReplayedExchanges {
  private readonly heard: { request: string; response: string }[] = [];
  private userSpeaking = false;

  hear(update: acp.SessionUpdate): void {
    if (update.sessionUpdate === 'user_message_chunk') {
      if (update.content.type !== 'text') return;
      if (!this.userSpeaking) this.heard.push({ request: '', response: '' });
      this.userSpeaking = true;
      this.heard[this.heard.length - 1]!.request += update.content.text;
    } else if (update.sessionUpdate === 'agent_message_chunk') {
      const last = this.heard[this.heard.length - 1];
      if (update.content.type !== 'text' || last === undefined) return;
      this.userSpeaking = false;
      // Messages of one answer (around its tool calls) read as paragraphs.
      last.response += update.content.text;
    } else if (update.sessionUpdate === 'tool_call') {
      this.userSpeaking = false;
      const last = this.heard[this.heard.length - 1];
      if (last !== undefined && last.response !== '' && !last.response.endsWith('\n\n')) last.response += '\n\n';
    }
  }

  /** Every exchange heard, oldest first, each trimmed. */
  exchanges(): SessionExchange[] {
    return this.heard.map(({ request, response }) => ({ request: request.trim(), response: response.trim() }));
  }
}
