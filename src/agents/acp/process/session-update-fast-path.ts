import type { AnyMessage, SessionNotification } from '@agentclientprotocol/sdk';
import * as t from 'io-ts';

const Meta = t.union([t.record(t.string, t.unknown), t.null]);

/**
 * A piece of the agent's message or thoughts as text: nearly everything an agent sends while it streams; or of the
 * person's message, half of what `session/load` replays (thousands of them for a long session, issue 52); with the id
 * of its message where the agent names one (a fork point names the message: session/answer-ends.ts), and its `_meta`
 * (Qwen Code's names the subagent that said it: subagent-routes.ts). Fields beyond these (annotations) are dropped:
 * nothing downstream reads them.
 */
const TextChunk = t.exact(
  t.intersection([
    t.type({
      sessionUpdate: t.keyof({ agent_message_chunk: null, agent_thought_chunk: null, user_message_chunk: null }),
      content: t.exact(t.type({ type: t.literal('text'), text: t.string })),
    }),
    t.partial({ messageId: t.union([t.string, t.null]), _meta: Meta }),
  ]),
);
const Line = t.refinement(t.number, (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff, 'uint32');
const NoContent = t.refinement(t.array(t.unknown), (items): items is never[] => items.length === 0, 'no content');

/**
 * A tool call as agents announce it before running it (Claude Code announces each one, bridged calls
 * too, and the response that shows VS Code a bridged call waits for the announcements): without content,
 * which takes the SDK's way with its many kinds of blocks. Stricter than the SDK, which sets invalid
 * optional fields aside: what does not fit here goes to it.
 */
const ToolCallAnnouncement = t.exact(
  t.intersection([
    t.type({ sessionUpdate: t.literal('tool_call'), toolCallId: t.string, title: t.string }),
    t.partial({
      name: t.union([t.string, t.null]),
      kind: t.keyof({ read: null, edit: null, delete: null, move: null, search: null, execute: null, think: null, fetch: null, switch_mode: null, other: null }),
      status: t.keyof({ pending: null, in_progress: null, completed: null, failed: null }),
      content: NoContent,
      locations: t.array(t.exact(t.intersection([t.type({ path: t.string }), t.partial({ line: t.union([Line, t.null]), _meta: Meta })]))),
      rawInput: t.unknown,
      rawOutput: t.unknown,
      _meta: Meta,
    }),
  ]),
);

/** A `session/update` notification whose update is decoded here rather than by the SDK. */
const FastUpdate = t.type({
  jsonrpc: t.literal('2.0'),
  method: t.literal('session/update'),
  params: t.exact(t.type({ sessionId: t.string, update: t.union([TextChunk, ToolCallAnnouncement]) })),
});

/**
 * The ACP subagents RFD's announcement of a child session (`subagent_update`, for agents it is declared to): the SDK's
 * stable schema has no such update and would drop it; child-sessions.ts reads it.
 */
const SubagentAnnouncement = t.type({
  jsonrpc: t.literal('2.0'),
  method: t.literal('session/update'),
  params: t.type({ sessionId: t.string, update: t.type({ sessionUpdate: t.literal('subagent_update'), sessionId: t.string }) }),
});

/**
 * The update of a message FastUpdate fits, its unknown fields dropped; a child session's announcement whole. A text chunk, nearly every message, is
 * recognised with the codec's `is` and copied by hand: `decode` builds a context per field and strips keys through
 * new objects, a tenth of a millisecond on the way of every first part.
 */
function fastUpdateOf(message: AnyMessage): SessionNotification | undefined {
  if (!FastUpdate.is(message)) {
    // The stable SessionNotification has no `subagent_update`: child-sessions.ts checks what it reads of it.
    return SubagentAnnouncement.is(message) ? (message.params as unknown as SessionNotification) : undefined;
  }
  const { sessionId, update } = message.params;
  if (update.sessionUpdate !== 'tool_call') {
    const chunk: { sessionUpdate: typeof update.sessionUpdate; content: { type: 'text'; text: string }; messageId?: string; _meta?: Record<string, unknown> } = {
      sessionUpdate: update.sessionUpdate,
      content: { type: 'text', text: update.content.text },
    };
    if (typeof update.messageId === 'string') chunk.messageId = update.messageId;
    if (update._meta != null) chunk._meta = update._meta;
    return { sessionId, update: chunk };
  }
  const decoded = FastUpdate.decode(message);
  return decoded._tag === 'Right' ? decoded.right.params : undefined;
}

/** A message read from the agent: an update decoded here (and whether its session had a prompt in flight then), or a message for the SDK. */
type Read = { readonly update: SessionNotification; readonly outsidePrompt: boolean } | { readonly message: AnyMessage };

/**
 * Text chunks and tool call announcements past the ACP SDK, every other message through it. The SDK's
 * client validates each `session/update` twice with zod (its session router, then the handler): a
 * quarter of the bridge's CPU while an agent streams (issue 16, row 2), and 0.5-1 ms for each tool call
 * announcement, during which the bridge cannot take the call itself (row 7). These are decoded here with
 * small io-ts codecs and handed to `onUpdate` as they are read.
 *
 * Order is kept: a message passed to the SDK reaches its handler within the microtasks after it was
 * read, so an update read after one waits for the next macrotask (`setImmediate`), and what follows that
 * update waits behind it. Messages for the SDK in a row go to it at once (a burst of tool call
 * announcements must not trickle in one per turn of the event loop while the calls themselves arrive).
 */
export class SessionUpdateFastPath {
  private readonly waiting: Read[] = [];
  private held = false;
  private drainedNow: (() => void) | undefined;

  constructor(
    /** `outsidePrompt`: the update was read while its session had no prompt in flight (see `agentChannel`). */
    private readonly onUpdate: (notification: SessionNotification, outsidePrompt: boolean) => void,
    private readonly toSdk: (message: AnyMessage) => void,
    private readonly promptInFlight: (sessionId: string) => boolean = () => true,
  ) {}

  /** Decided as the message is read: an update may be handed on later, after the prompt's response. */
  private classify(message: AnyMessage): Read {
    const update = fastUpdateOf(message);
    return update !== undefined ? { update, outsidePrompt: !this.promptInFlight(update.sessionId) } : { message };
  }

  push(message: AnyMessage): void {
    const read = this.classify(message);
    if (!this.held) return this.handle(read);
    // Messages for the SDK keep their order among themselves there: only an update decoded here must wait, and what follows it.
    if (this.waiting.length === 0 && 'message' in read) return this.passOn(read.message);
    this.waiting.push(read);
  }

  /** Settles once no update waits any more: at once when none does. */
  drained(): Promise<void> {
    return this.held ? new Promise<void>((resolve) => (this.drainedNow = resolve)) : Promise.resolve();
  }

  private handle(read: Read): void {
    if ('update' in read) this.onUpdate(read.update, read.outsidePrompt);
    else this.passOn(read.message);
  }

  private passOn(message: AnyMessage): void {
    this.toSdk(message);
    if (this.held) return;
    this.held = true;
    setImmediate(() => this.release());
  }

  private release(): void {
    this.held = false;
    while (!this.held && this.waiting.length > 0) this.handle(this.waiting.shift()!);
    if (!this.held) this.drainedNow?.();
  }
}
