import * as acp from '@agentclientprotocol/sdk';
import * as t from 'io-ts';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../log/logger.js';
import type { AgentSessionInfo, ListAgentSessionsResult } from '../../protocol/agent-sessions.js';
import type { AgentSessions, ContinuedSession } from '../agent-sessions.js';
import type { AgentProcess } from './process/agent-process.js';
import type { SessionFolders } from './workspace-folders.js';
import { checkResumedSession } from './answers/agent-answers.js';
import { AnswerEnds } from './session/answer-ends.js';
import { ReplayedExchanges } from './replayed-exchanges.js';

/** What the agent's own sessions need of the agent they run on. */
export interface PastSessionsHost {
  readonly name: string;
  readonly log: Logger;
  /** Which agent it is in the index of conversations. */
  readonly indexKey: string;
  /** The workspace's folders, the first the sessions' `cwd`. */
  readonly folders: readonly string[];
  /** How long one request to the agent may take: a listing is cut there. */
  readonly timeoutMs: number;
  start(): { readonly process: AgentProcess; readonly initialized: Promise<acp.InitializeResponse> };
  /** Sends a request as startup steps are sent: failing clearly when the agent exits or does not answer. */
  step<T>(process: AgentProcess, step: string, request: Promise<T>): Promise<T>;
  sessionParams(init: acp.InitializeResponse): SessionFolders & { readonly _meta?: Record<string, unknown> };
  /** A conversation of this bridge holds the session now. */
  isHeld(sessionId: string): boolean;
  close(sessionId: string, process: AgentProcess, init: acp.InitializeResponse): Promise<void>;
}

/** What an agent's `session/list` page holds, as far as the bridge reads it: entries that cannot be read are skipped. */
const ListedPage = t.partial({ sessions: t.array(t.unknown), nextCursor: t.union([t.string, t.null]) });
const ListedSession = t.intersection([
  t.type({ sessionId: t.string, cwd: t.string }),
  t.partial({ title: t.union([t.string, t.null]), updatedAt: t.union([t.string, t.null]) }),
]);
/** Pages read per folder at most: an agent whose cursor never ends must not keep the listing going. */
const MAX_PAGES = 100;

/**
 * An ACP agent's own sessions: `session/list` for the workspace's folders (page by page, cut at the agent's
 * timeout), `session/delete`, and `session/load` of one to continue it in a new chat: its replay gives the
 * exchanges the chat shows, then the session is closed (where the agent can), to be resumed by the chat's next
 * message like any conversation's. Nothing of a session is logged beyond its id.
 */
export class PastSessions implements AgentSessions {
  /** Sessions being loaded: their replayed updates, which reach no conversation. */
  private readonly replaying = new Map<string, (update: acp.SessionUpdate) => void>();

  constructor(private readonly host: PastSessionsHost) {}

  /** An update for a session no conversation holds: part of a replay, if one is loading. */
  heard(sessionId: string, update: acp.SessionUpdate): boolean {
    const listener = this.replaying.get(sessionId);
    listener?.(update);
    return listener !== undefined;
  }

  /** A session being loaded, whose replay this hears. */
  replays(sessionId: string): boolean {
    return this.replaying.has(sessionId);
  }

  async list(): Promise<ListAgentSessionsResult> {
    const { host } = this;
    const { process, initialized } = host.start();
    const init = await initialized;
    const capabilities = init.agentCapabilities?.sessionCapabilities;
    const deletes = capabilities?.delete != null;
    if (capabilities?.list == null) return { listed: false, deletes, sessions: [], why: `${host.name} cannot list its sessions (it declares no session/list).` };
    const deadline = Date.now() + host.timeoutMs;
    const found = new Map<string, AgentSessionInfo>();
    let cut: string | undefined;
    for (const folder of host.folders) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && cut === undefined; page++) {
        const listed = await this.page(process, folder, cursor, deadline).catch((error: unknown) => {
          cut = error instanceof ListingCut ? error.message : `${host.name} failed to list its sessions: ${error instanceof Error ? error.message : String(error)}`;
          return undefined;
        });
        if (listed === undefined) break;
        for (const session of listed.sessions) if (inFolders(session.cwd, host.folders)) found.set(session.sessionId, session);
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      if (cursor !== undefined) cut ??= `${host.name} has more sessions than ${MAX_PAGES} pages of its list: the oldest are not shown.`;
    }
    if (cut !== undefined && found.size === 0) throw new Error(cut);
    const sessions = [...found.values()].sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
    host.log.info(`agent ${host.name} lists ${sessions.length} session(s) of the workspace${cut === undefined ? '' : ' (cut short)'}`);
    return { listed: true, deletes, sessions, ...(cut === undefined ? {} : { cut }) };
  }

  async delete(sessionId: string): Promise<void> {
    const { host } = this;
    const { process, initialized } = host.start();
    const init = await initialized;
    if (init.agentCapabilities?.sessionCapabilities?.delete == null) throw new Error(`${host.name} cannot delete its sessions.`);
    if (host.isHeld(sessionId)) throw new Error(`That session of ${host.name} is open in a chat: it is not deleted.`);
    await host.step(process, acp.methods.agent.session.delete, process.connection.agent.request(acp.methods.agent.session.delete, { sessionId }));
    host.log.info(`agent ${host.name}: session ${sessionId} deleted`);
  }

  async continue(sessionId: string): Promise<ContinuedSession> {
    const { host } = this;
    const { process, initialized } = host.start();
    const init = await initialized;
    if (init.agentCapabilities?.loadSession !== true) throw new Error(`${host.name} cannot replay its sessions (it declares no session/load), so a chat cannot show one.`);
    if (host.isHeld(sessionId) || this.replaying.has(sessionId)) throw new Error(`That session of ${host.name} is open in a chat already.`);
    const replay = new ReplayedExchanges();
    const ends = new AnswerEnds();
    this.replaying.set(sessionId, (update) => {
      replay.hear(update);
      ends.heard(update);
    });
    const method = acp.methods.agent.session.load;
    try {
      const request = process.connection.agent.request(method, { sessionId, ...host.sessionParams(init), mcpServers: [] });
      await host.step(process, method, request.then((raw: unknown) => checkResumedSession(host.name, method, sessionId, raw)));
    } catch (error) {
      throw new Error(noLongerThere(host.name, error));
    } finally {
      this.replaying.delete(sessionId);
    }
    // The chat's next message resumes it, as any conversation's session that was closed.
    await host.close(sessionId, process, init);
    const exchanges = replay.exchanges();
    host.log.info(`agent ${host.name}: session ${sessionId} loaded to continue in a new chat (${exchanges.length} exchange(s))`);
    return {
      exchanges,
      indexKey: host.indexKey,
      workspace: host.folders[0]!,
      forkPoint: (turnKey) => {
        ends.asked(turnKey);
        return ends.answered(sessionId);
      },
    };
  }

  /** One page of `session/list` in `folder`, by `deadline`. */
  private async page(process: AgentProcess, folder: string, cursor: string | undefined, deadline: number): Promise<{ sessions: AgentSessionInfo[]; nextCursor: string | undefined }> {
    const { host } = this;
    const left = deadline - Date.now();
    if (left <= 0) throw new ListingCut(host.name, host.timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ListingCut(host.name, host.timeoutMs)), left).unref()));
    const request = process.connection.agent.request(acp.methods.agent.session.list, { cwd: folder, ...(cursor === undefined ? {} : { cursor }) });
    const raw: unknown = await Promise.race([request, timeout, process.ended.then(() => Promise.reject(new Error(`${host.name} exited`)))]).finally(() => clearTimeout(timer));
    const decoded = ListedPage.decode(raw ?? {});
    if (decoded._tag === 'Left') throw new Error(`${host.name} answered session/list with something that is not a list of sessions`);
    const sessions: AgentSessionInfo[] = [];
    for (const entry of decoded.right.sessions ?? []) {
      const session = ListedSession.decode(entry);
      if (session._tag === 'Left') continue;
      const { sessionId, cwd, title, updatedAt } = session.right;
      sessions.push({ sessionId, cwd, ...(title == null ? {} : { title }), ...(updatedAt == null ? {} : { updatedAt }) });
    }
    return { sessions, nextCursor: decoded.right.nextCursor ?? undefined };
  }
}

/** A listing that did not finish within the agent's timeout. */
class ListingCut extends Error {
  constructor(name: string, timeoutMs: number) {
    super(`${name} did not finish listing its sessions within ${timeoutMs / 1000} s: the list may be incomplete.`);
  }
}

/** Whether `cwd` is one of the folders, as written or with its links resolved (Claude Code reports its folder resolved). */
function inFolders(cwd: string, folders: readonly string[]): boolean {
  const resolved = realPath(cwd);
  return folders.some((folder) => path.resolve(folder) === path.resolve(cwd) || realPath(folder) === resolved);
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The person's sentence for a session that could not be opened: the agent no longer has it, or said why not. */
function noLongerThere(name: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof acp.RequestError && (error.code === -32002 || /not found|no conversation|does not exist/i.test(message))) {
    return `${name} no longer has this session (it was deleted, or belongs to another folder): start a new chat instead.`;
  }
  return `${name} could not open this session: ${message}`;
}
