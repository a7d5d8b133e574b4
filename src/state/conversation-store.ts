import { closeSync, constants, copyFileSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import * as t from 'io-ts';
import lockfile from 'proper-lockfile';
import type { Logger } from '../log/logger.js';

/**
 * Where an agent's session can be forked to go back to the point after one of its answers (see
 * agents/acp/session/answer-ends.ts): the turn it answered (the history's key of that turn), the ACP session, and the
 * agent's last message of that answer: its id, a fingerprint of its text, and how many messages of that text came
 * up to it (1-based).
 */
const ForkPoint = t.type({ turn: t.string, session: t.string, message: t.string, fingerprint: t.string, occurrence: t.number });
export type ForkPoint = t.TypeOf<typeof ForkPoint>;

/** Where a conversation stands, so that a later bridge can pick it up. */
const StoredConversation = t.intersection([
  t.type({ id: t.string, at: t.number }),
  t.partial({
    /** The link (history digest) after its last completed reply. */
    link: t.string,
    /** The consumer's marker of its latest response or summary (see history/stateful-marker.ts). */
    marker: t.string,
    /** The agent's session id for it, for `session/load` or `session/resume`. */
    agentSession: t.string,
    /** Which agent that session belongs to (a digest of its definition): ids are only unique per agent, if at all. */
    agent: t.string,
    /** The folder that session runs in: the workspace of the window that used it. */
    workspace: t.string,
    /** Where its latest answers can be gone back to, oldest first. */
    forkPoints: t.array(ForkPoint),
    /** The chat's first words (history/first-words.ts), by which a person picks it: nothing more of it is kept. */
    title: t.string,
  }),
]);
type StoredConversation = t.TypeOf<typeof StoredConversation>;

const STATE_VERSION = 1;

export const STATE_FILE_NAME = 'conversations.json';
/** A few hundred bytes each: enough for every chat a user comes back to. */
const DEFAULT_CAPACITY = 2000;
/** Fork points kept per conversation: going back further is told as a transcript. A few hundred bytes each. */
const FORK_POINTS_KEPT = 16;
const WRITE_DELAY_MS = 200;
/** How long a write waits for another bridge's write to finish; a lock older than LOCK_STALE_MS is a crashed bridge's. */
const LOCK_WAIT_MS = 2000;
const LOCK_STALE_MS = 5000;

/** What was read of the index file, and whether all of it was (otherwise it is kept aside before it is replaced). */
interface ReadState {
  readonly entries: StoredConversation[];
  readonly intact: boolean;
  readonly problem?: string;
}

/** What the history needs: which conversation a history (by its link, or the marker it carries) continues. */
export interface ConversationIndex {
  conversationAt(link: string): string | undefined;
  /** The conversation's history now ends at `link`; only its latest link resumes it. */
  rememberLink(conversationId: string, link: string): void;
  conversationMarked(marker: string): string | undefined;
  /** The consumer's marker of the conversation's latest response; only the latest one resumes it. */
  rememberMarker(conversationId: string, marker: string): void;
  /** The conversation whose agent answered a turn asked at `turn` (a fork point of it is kept): one to go back to. */
  conversationAsked(turn: string): string | undefined;
}

/**
 * What agents need: the agent session a conversation had. An agent session belongs to one conversation
 * at most: binding it to another (an agent that hands out an id again) unbinds the first, which then
 * goes on in a new session, told its history, rather than in the other conversation's.
 */
export interface AgentSessionIndex {
  /** The session of `agent` the conversation had, if it is still the conversation's own. */
  agentSessionOf(conversationId: string, agent: string): string | undefined;
  /** The conversation is in ACP session `agentSession` of `agent`, which runs in the folder `workspace`. */
  rememberAgentSession(conversationId: string, agent: string, agentSession: string, workspace: string): void;
  forgetAgentSession(conversationId: string): void;
  /** The conversations used in `workspace` since `since` (ms since the epoch) with a session of theirs, latest first. */
  recentAgentSessions(workspace: string, since: number): RecentAgentSession[];
  /** Its agent answered its turn `point.turn` as `point` says (a later point of that turn replaces it). */
  rememberForkPoint(conversationId: string, point: ForkPoint): void;
  /** Where the conversation's answer to its turn `turn` can be forked from, if it is known. */
  forkPointOf(conversationId: string, turn: string): ForkPoint | undefined;
}

/** A conversation used lately, and the agent session it had. */
export interface RecentAgentSession {
  readonly conversationId: string;
  readonly agent: string;
  readonly agentSession: string;
  /** When the conversation was last used, in ms since the epoch. */
  readonly usedAt: number;
  readonly title?: string;
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
  private readonly byMarker = new Map<string, string>();
  /** The turns of the fork points kept → their conversation. */
  private readonly byTurn = new Map<string, string>();
  /** (agent, agent session) → the conversation bound to it last. */
  private readonly bySession = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  /** The file was last replaced without an fsync. */
  private unsynced = false;
  private readonly file: string | undefined;
  /** The digest of the damaged file last kept aside, so that it is kept once, not at every write. */
  private keptAside: string | undefined;

  constructor(
    dir: string | undefined,
    private readonly log: Logger,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {
    this.file = dir === undefined ? undefined : path.join(dir, STATE_FILE_NAME);
    for (const entry of this.read().entries) this.put(entry);
  }

  conversationAt(link: string): string | undefined {
    return this.byLink.get(link);
  }

  rememberLink(conversationId: string, link: string): void {
    this.update(conversationId, { link });
  }

  conversationAsked(turn: string): string | undefined {
    return this.byTurn.get(turn);
  }

  conversationMarked(marker: string): string | undefined {
    return this.byMarker.get(marker);
  }

  rememberMarker(conversationId: string, marker: string): void {
    this.update(conversationId, { marker });
  }

  agentSessionOf(conversationId: string, agent: string): string | undefined {
    const entry = this.byId.get(conversationId);
    if (entry?.agentSession === undefined || entry.agent !== agent) return undefined;
    return this.bySession.get(sessionKey(agent, entry.agentSession)) === conversationId ? entry.agentSession : undefined;
  }

  rememberAgentSession(conversationId: string, agent: string, agentSession: string, workspace: string): void {
    const other = this.bySession.get(sessionKey(agent, agentSession));
    if (other !== undefined && other !== conversationId) {
      this.log.warn(`agent session ${agentSession} was handed out again: conversation ${other} no longer resumes it`);
      this.forgetAgentSession(other);
    }
    this.update(conversationId, { agentSession, agent, workspace });
  }

  forgetAgentSession(conversationId: string): void {
    const entry = this.byId.get(conversationId);
    if (entry?.agentSession === undefined) return;
    const { agentSession: _, agent: _agent, workspace: _workspace, ...rest } = entry;
    this.update(conversationId, rest, true);
  }

  rememberForkPoint(conversationId: string, point: ForkPoint): void {
    const kept = (this.byId.get(conversationId)?.forkPoints ?? []).filter((p) => p.turn !== point.turn);
    this.update(conversationId, { forkPoints: [...kept, point].slice(-FORK_POINTS_KEPT) });
  }

  forkPointOf(conversationId: string, turn: string): ForkPoint | undefined {
    return this.byId.get(conversationId)?.forkPoints?.find((p) => p.turn === turn);
  }

  /** The agent (its index key) of the conversation used last with a session of its own, in any workspace, since `since`. */
  lastUsedAgent(since: number): string | undefined {
    for (const entry of [...this.byId.values()].reverse()) {
      if (entry.at < since) return undefined;
      if (entry.agent !== undefined && entry.agentSession !== undefined) return entry.agent;
    }
    return undefined;
  }

  recentAgentSessions(workspace: string, since: number): RecentAgentSession[] {
    const recent: RecentAgentSession[] = [];
    // byId runs from the least recently used to the most.
    for (const entry of [...this.byId.values()].reverse()) {
      if (entry.at < since) break;
      const { agent, agentSession } = entry;
      if (entry.workspace !== workspace || agent === undefined || agentSession === undefined) continue;
      if (this.agentSessionOf(entry.id, agent) === agentSession) recent.push({ conversationId: entry.id, agent, agentSession, usedAt: entry.at, ...(entry.title === undefined ? {} : { title: entry.title }) });
    }
    return recent;
  }

  /** The conversation's first words, kept once (a later call for it changes nothing). */
  rememberTitle(conversationId: string, title: string): void {
    if (this.byId.get(conversationId)?.title === undefined) this.update(conversationId, { title });
  }

  /** Writes what is pending now, and to the disk itself (at exit). */
  flush(): void {
    if (this.timer === undefined && !this.unsynced) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write(true);
  }

  private update(conversationId: string, change: Partial<StoredConversation>, replace = false): void {
    const old = this.byId.get(conversationId);
    const base = replace || old === undefined ? { id: conversationId } : old;
    this.put({ ...base, ...change, id: conversationId, at: Date.now() });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.write(false);
    }, WRITE_DELAY_MS).unref();
  }

  private put(entry: StoredConversation): void {
    const old = this.byId.get(entry.id);
    if (old !== undefined) this.unindex(old);
    this.byId.delete(entry.id);
    this.byId.set(entry.id, entry);
    if (entry.link !== undefined) this.byLink.set(entry.link, entry.id);
    if (entry.marker !== undefined) this.byMarker.set(entry.marker, entry.id);
    for (const point of entry.forkPoints ?? []) this.byTurn.set(point.turn, entry.id);
    if (entry.agent !== undefined && entry.agentSession !== undefined) this.bySession.set(sessionKey(entry.agent, entry.agentSession), entry.id);
    for (const [id, oldest] of this.byId) {
      if (this.byId.size <= this.capacity) break;
      this.byId.delete(id);
      this.unindex(oldest);
    }
  }

  private unindex(entry: StoredConversation): void {
    if (entry.link !== undefined && this.byLink.get(entry.link) === entry.id) this.byLink.delete(entry.link);
    if (entry.marker !== undefined && this.byMarker.get(entry.marker) === entry.id) this.byMarker.delete(entry.marker);
    for (const point of entry.forkPoints ?? []) if (this.byTurn.get(point.turn) === entry.id) this.byTurn.delete(point.turn);
    if (entry.agent === undefined || entry.agentSession === undefined) return;
    const key = sessionKey(entry.agent, entry.agentSession);
    if (this.bySession.get(key) === entry.id) this.bySession.delete(key);
  }

  /**
   * The entries of the file that can be read: each entry on its own, so one bad entry costs only itself,
   * and a truncated file gives the entries before the cut. A file that is not all readable is copied
   * aside (`conversations.json.unreadable-…`) before anything replaces it.
   */
  private read(): ReadState {
    if (this.file === undefined) return { entries: [], intact: true };
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`could not read ${this.file}: ${String(error)}; conversations start afresh`);
      return { entries: [], intact: true };
    }
    const state = parseState(text);
    const digest = state.intact ? undefined : createHash('sha256').update(text).digest('hex');
    if (digest !== undefined && digest !== this.keptAside) {
      this.keptAside = digest;
      const aside = `${this.file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
      try {
        copyFileSync(this.file, aside, constants.COPYFILE_EXCL);
        this.log.warn(`${this.file}: ${state.problem}; kept ${state.entries.length} readable entries, and the file as it was in ${aside}`);
      } catch (error) {
        this.log.warn(`${this.file}: ${state.problem}; kept ${state.entries.length} readable entries; could not keep the file aside: ${String(error)}`);
      }
    }
    return { ...state, entries: state.entries.sort((a, b) => a.at - b.at) };
  }

  /**
   * Merges what is on disk (another window's bridge may have written since: the newer entry of a
   * conversation wins) and replaces the file, holding a lock across both so that two bridges never
   * lose each other's entries.
   */
  /**
   * `durable`: the file reaches the disk before it replaces the old one (fsync), as at exit. The writes
   * while requests come in skip that: it blocked the event loop ~2 ms of every write, which could land
   * on a response's first part (Copilot's tool loops send requests less than 200 ms apart); the rename
   * still replaces the file whole, and the write at exit makes it durable.
   */
  private write(durable: boolean): void {
    if (this.file === undefined) return;
    const file = this.file;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (error) {
      this.log.warn(`could not save conversations to ${file}: ${String(error)}`);
      return;
    }
    const release = this.lock(file);
    try {
      const merged = new Map(this.byId);
      for (const entry of this.read().entries) {
        const ours = merged.get(entry.id);
        if (ours === undefined || ours.at < entry.at) merged.set(entry.id, entry);
      }
      this.byId.clear();
      this.byLink.clear();
      this.byMarker.clear();
      this.byTurn.clear();
      this.bySession.clear();
      for (const entry of [...merged.values()].sort((a, b) => a.at - b.at)) this.put(entry);
      replaceFile(file, JSON.stringify({ version: STATE_VERSION, conversations: [...this.byId.values()] }), durable);
      this.unsynced = !durable;
    } catch (error) {
      this.log.warn(`could not save conversations to ${file}: ${String(error)}`);
    } finally {
      release?.();
    }
  }

  /**
   * The index's lock (proper-lockfile: a lock directory, stale after LOCK_STALE_MS), waited for briefly.
   * Synchronous, as the last write happens at exit. Without it (a bridge that holds it too long), the
   * write goes ahead: losing this bridge's entries for sure is worse than racing another's.
   */
  private lock(file: string): (() => void) | undefined {
    const deadline = Date.now() + LOCK_WAIT_MS;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      try {
        return lockfile.lockSync(file, { realpath: false, stale: LOCK_STALE_MS });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) {
          this.log.warn(`could not lock ${file} (${String(error)}); writing without the lock`);
          return undefined;
        }
        Atomics.wait(pause, 0, 0, 10);
      }
    }
  }
}

function sessionKey(agent: string, agentSession: string): string {
  return `${agent}\n${agentSession}`;
}

/**
 * Writes `text` to a new temporary file beside `file` and renames it over `file`. The temporary file's
 * name is random and it is created exclusively (O_EXCL), so nothing planted at that name (a symlink) is
 * followed; it is removed if anything fails.
 */
function replaceFile(file: string, text: string, durable: boolean): void {
  const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    try {
      writeSync(fd, text);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Already gone.
    }
    throw error;
  }
}

/** Every entry of an index file that decodes, even from a truncated file or one of another version. */
function parseState(text: string): ReadState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const entries = salvage(text);
    return { entries, intact: false, problem: 'is not complete JSON (truncated?)' };
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as { version?: unknown; conversations?: unknown }) : {};
  const raw = Array.isArray(record.conversations) ? (record.conversations as unknown[]) : [];
  const entries: StoredConversation[] = [];
  const bad: string[] = [];
  raw.forEach((entry, index) => {
    const decoded = StoredConversation.decode(entry);
    if (decoded._tag === 'Right') entries.push(decoded.right);
    else bad.push(`conversations[${index}]`);
  });
  if (record.version !== STATE_VERSION) return { entries, intact: false, problem: `is of version ${JSON.stringify(record.version)}, not ${STATE_VERSION}` };
  if (!Array.isArray(record.conversations)) return { entries, intact: false, problem: 'has no list of conversations' };
  if (bad.length > 0) return { entries, intact: false, problem: `has ${bad.length} unreadable entries of ${raw.length} (${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ', …' : ''})` };
  return { entries, intact: true };
}

/** The complete entries of a cut-off file: each `{…}` inside the conversations list that parses and decodes. */
function salvage(text: string): StoredConversation[] {
  const start = text.indexOf('[', text.indexOf('"conversations"'));
  if (start < 0) return [];
  const entries: StoredConversation[] = [];
  let depth = 0;
  let from = -1;
  let inString = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && depth++ === 0) from = i;
    else if (c === '}' && --depth === 0) {
      try {
        const decoded = StoredConversation.decode(JSON.parse(text.slice(from, i + 1)));
        if (decoded._tag === 'Right') entries.push(decoded.right);
      } catch {
        // Not an entry.
      }
    } else if (c === ']' && depth === 0) break;
  }
  return entries;
}
