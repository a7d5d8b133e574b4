import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as t from 'io-ts';
import type { Logger } from '../log.js';
import { decodeOrThrow } from '../protocol/decode.js';

/** Where a conversation stands, so that a later bridge can pick it up. */
const StoredConversation = t.intersection([
  t.type({ id: t.string, at: t.number }),
  t.partial({
    /** The link (history digest) after its last completed reply. */
    link: t.string,
    /** The agent's session id for it, for `session/load` or `session/resume`. */
    agentSession: t.string,
  }),
]);
type StoredConversation = t.TypeOf<typeof StoredConversation>;

const StateFile = t.type({ version: t.literal(1), conversations: t.array(StoredConversation) }, 'StateFile');

export const STATE_FILE_NAME = 'conversations.json';
/** A few hundred bytes each: enough for every chat a user comes back to. */
const DEFAULT_CAPACITY = 2000;
const WRITE_DELAY_MS = 200;

/** What the history needs: which conversation a history (by its link) continues. */
export interface ConversationIndex {
  conversationAt(link: string): string | undefined;
  /** The conversation's history now ends at `link`; only its latest link resumes it. */
  rememberLink(conversationId: string, link: string): void;
}

/** What agents need: the agent session a conversation had. */
export interface AgentSessionIndex {
  agentSessionOf(conversationId: string): string | undefined;
  rememberAgentSession(conversationId: string, agentSession: string): void;
  forgetAgentSession(conversationId: string): void;
}

/**
 * The bridge's small index of conversations (link → conversation → agent session), kept in memory and,
 * given a directory (the extension's `globalStorageUri`), in a JSON file there, so that a conversation
 * survives a bridge restart or a VS Code reload. Least recently used entries go beyond `capacity`.
 * Writes are batched and atomic; bridges of several windows share the file, so each write merges
 * what is on disk (the newer entry of a conversation wins).
 */
export class ConversationStore implements ConversationIndex, AgentSessionIndex {
  /** In least-recently-used-first order. */
  private readonly byId = new Map<string, StoredConversation>();
  private readonly byLink = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly file: string | undefined;

  constructor(
    dir: string | undefined,
    private readonly log: Logger,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {
    this.file = dir === undefined ? undefined : path.join(dir, STATE_FILE_NAME);
    for (const entry of this.read()) this.put(entry);
  }

  conversationAt(link: string): string | undefined {
    return this.byLink.get(link);
  }

  rememberLink(conversationId: string, link: string): void {
    this.update(conversationId, { link });
  }

  agentSessionOf(conversationId: string): string | undefined {
    return this.byId.get(conversationId)?.agentSession;
  }

  rememberAgentSession(conversationId: string, agentSession: string): void {
    this.update(conversationId, { agentSession });
  }

  forgetAgentSession(conversationId: string): void {
    const entry = this.byId.get(conversationId);
    if (entry?.agentSession === undefined) return;
    const { agentSession: _, ...rest } = entry;
    this.update(conversationId, rest, true);
  }

  /** Writes what is pending now (at exit). */
  flush(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write();
  }

  private update(conversationId: string, change: Partial<StoredConversation>, replace = false): void {
    const old = this.byId.get(conversationId);
    const base = replace || old === undefined ? { id: conversationId } : old;
    this.put({ ...base, ...change, id: conversationId, at: Date.now() });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, WRITE_DELAY_MS).unref();
  }

  private put(entry: StoredConversation): void {
    const old = this.byId.get(entry.id);
    if (old?.link !== undefined && this.byLink.get(old.link) === entry.id) this.byLink.delete(old.link);
    this.byId.delete(entry.id);
    this.byId.set(entry.id, entry);
    if (entry.link !== undefined) this.byLink.set(entry.link, entry.id);
    for (const [id, oldest] of this.byId) {
      if (this.byId.size <= this.capacity) break;
      this.byId.delete(id);
      if (oldest.link !== undefined && this.byLink.get(oldest.link) === id) this.byLink.delete(oldest.link);
    }
  }

  private read(): StoredConversation[] {
    if (this.file === undefined) return [];
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`could not read ${this.file}: ${String(error)}; conversations start afresh`);
      return [];
    }
    try {
      return [...decodeOrThrow(StateFile, JSON.parse(text), 'state').conversations].sort((a, b) => a.at - b.at);
    } catch (error) {
      this.log.warn(`${this.file} is unreadable (${error instanceof Error ? error.message : String(error)}); conversations start afresh`);
      return [];
    }
  }

  private write(): void {
    if (this.file === undefined) return;
    // Another window's bridge may have written since: keep its newer entries.
    const merged = new Map(this.byId);
    for (const entry of this.read()) {
      const ours = merged.get(entry.id);
      if (ours === undefined || ours.at < entry.at) merged.set(entry.id, entry);
    }
    this.byId.clear();
    this.byLink.clear();
    for (const entry of [...merged.values()].sort((a, b) => a.at - b.at)) this.put(entry);
    const state: t.TypeOf<typeof StateFile> = { version: 1, conversations: [...this.byId.values()] };
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(state));
      renameSync(temporary, this.file);
    } catch (error) {
      this.log.warn(`could not save conversations to ${this.file}: ${String(error)}`);
    }
  }
}
