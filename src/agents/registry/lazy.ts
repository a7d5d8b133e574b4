import { from, switchMap, type Observable } from 'rxjs';
import type { ResponsePart } from '../../protocol/messages.js';
import type { AgentSession, AgentStream, TurnInput } from '../agent-stream.js';
import type { AgentSessions } from '../agent-sessions.js';
import type { RecentAgentSession } from '../../state/conversation-store.js';

/**
 * An agent stream whose code is loaded on first use: the ACP SDK costs a noticeable share of the
 * bridge's start-up, which a user of only the built-in Eliza should not pay.
 */
export class LazyAgentStream implements AgentStream {
  private loaded: Promise<AgentStream> | undefined;
  private disposed = false;

  constructor(private readonly load: () => Promise<AgentStream>) {}

  openSession(conversationId: string): AgentSession {
    let opened: AgentSession | undefined;
    const session = this.stream().then((stream) => (opened = stream.openSession(conversationId)));
    return {
      // Once loaded, a turn goes to the session directly: every hop on this path delays the first part.
      turn: (input: TurnInput): Observable<ResponsePart> => (opened !== undefined ? opened.turn(input) : from(session).pipe(switchMap((s) => s.turn(input)))),
      close: () => void session.then((s) => s.close(), () => {}),
      get awaitingConsumer() {
        return opened?.awaitingConsumer === true;
      },
    };
  }

  prepare(): void {
    void this.stream().then((stream) => stream.prepare?.(), () => {});
  }

  resumeAhead(conversations: readonly RecentAgentSession[]): void {
    void this.stream().then((stream) => stream.resumeAhead?.(conversations), () => {});
  }

  async authenticate(methodId: string): Promise<void> {
    const stream = await this.stream();
    if (stream.authenticate === undefined) throw new Error('This agent has no sign-in.');
    await stream.authenticate(methodId);
  }

  /** The loaded agent's own sessions; an agent that keeps none says so. */
  readonly sessions: AgentSessions = {
    list: async () => (await this.ownSessions()).list(),
    delete: async (sessionId) => (await this.ownSessions()).delete(sessionId),
    continue: async (sessionId) => (await this.ownSessions()).continue(sessionId),
  };

  private async ownSessions(): Promise<AgentSessions> {
    const { sessions } = await this.stream();
    if (sessions === undefined) throw new Error('This agent keeps no sessions of its own.');
    return sessions;
  }

  dispose(): void {
    this.disposed = true;
    void this.loaded?.then((stream) => stream.dispose(), () => {});
  }

  private stream(): Promise<AgentStream> {
    this.loaded ??= this.load().then((stream) => {
      if (this.disposed) stream.dispose();
      return stream;
    });
    return this.loaded;
  }
}
