/**
 * Row 13's two measurements at scale (issue 52), with the scripted agent: the list of an agent holding 200 sessions of
 * the workspace (`symposium/listAgentSessions`, every page, against the agent's own `session/list` paged through the
 * same pages over direct ACP), and a session of 2,000 exchanges continued (`symposium/continueAgentSession`, from the
 * request to its answer, against the agent's own `session/load` of it over direct ACP). The sessions are written into
 * the agent's state directory in the form its prompts leave there (test/fixtures/scripted-agent.ts, `--state-dir`),
 * instead of prompting 200 sessions and 2,000 exchanges through it: the agent reads them back as its own. The quick
 * pick that shows the list is VS Code's own rendering: no row times it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentDefinition } from '../../src/protocol/messages.js';
import { AGENT, Bridge, DirectAcp, ROOT, median, now, percentile, type Row } from '../lib.js';

const RUNS = 5;
const WARMUP = 1;
const LISTED_SESSIONS = 200;
/** Listings per side: a listing is ~0.3 s of the agent's own, which moves by tens of ms under load; five left the median to chance. */
const LIST_RUNS = 15;
/** What the list may add beyond the agent's own listing (issue 52). */
const LIST_BAR_MS = 50;
const HUGE_EXCHANGES = 2_000;
/** A huge session opens in under a second (issue 52), the bridge showing only its last exchanges. */
const HUGE_BAR_MS = 1_000;
/** A sentence of an answer, repeated: answers of ~400 characters, a session file of ~1 MB. */
const ANSWER = 'This answer stands for what an agent says in a long session, a few lines of text. ';

export async function agentSessionsAtScale(): Promise<Row[]> {
  return [await listOfManySessions(), await hugeSessionInFreshProcesses(), await hugeSession()];
}

/** `count` sessions of `exchanges` exchanges each in the workspace (`ROOT`), as the scripted agent stores them. */
function storedSessions(dir: string, count: number, exchanges: number): string[] {
  const ids: string[] = [];
  for (let s = 0; s < count; s++) {
    const transcript: acp.SessionUpdate[] = [];
    const seen: string[] = [];
    for (let e = 0; e < exchanges; e++) {
      const request = `say exchange ${e} of session ${s}`;
      seen.push(request);
      transcript.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: request } });
      transcript.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Exchange ${e}. ${ANSWER.repeat(5)}` } });
    }
    const sessionId = `bench-session-${s}`;
    writeFileSync(path.join(dir, `${sessionId}.json`), JSON.stringify({ cwd: ROOT, transcript, seen }));
    ids.push(sessionId);
  }
  return ids;
}

function scripted(stateDir: string): string[] {
  return ['--load-session', '--resume-session', '--close-session', '--list-sessions', '--state-dir', stateDir];
}

function agentOf(flags: readonly string[]): AgentDefinition {
  return { mcp_server: { name: 'agent', command: process.execPath, args: [AGENT, ...flags], env: [] } };
}

/**
 * The list: one bridge and one direct client, each with its own agent process on the same 200 sessions, asked in
 * turn (the first asking of each a warm-up, which also starts the bridge's agent); every page of both.
 */
async function listOfManySessions(): Promise<Row> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'bench-list-agent-'));
  storedSessions(stateDir, LISTED_SESSIONS, 2);
  const flags = scripted(stateDir);
  const agent = agentOf(flags);
  const bridge = new Bridge(['--cwd', ROOT]);
  const direct = new DirectAcp(flags);
  const bridged: number[] = [];
  const own: number[] = [];
  let pages = 0;
  try {
    for (let i = 0; i < WARMUP + LIST_RUNS; i++) {
      const directAt = now();
      const listed = await direct.listSessions(ROOT);
      const directMs = now() - directAt;
      const bridgedAt = now();
      const { sessions } = await bridge.client.listAgentSessions({ agent });
      const bridgedMs = now() - bridgedAt;
      if (sessions.length !== LISTED_SESSIONS || listed.sessions !== LISTED_SESSIONS) throw new Error(`listed ${sessions.length} through the bridge, ${listed.sessions} directly, of ${LISTED_SESSIONS}`);
      pages = listed.pages;
      if (i < WARMUP) continue;
      bridged.push(bridgedMs);
      own.push(directMs);
    }
  } finally {
    await bridge.close();
    await direct.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const added = median(bridged) - median(own);
  return {
    row: '13',
    metric: `the list of ${LISTED_SESSIONS} sessions of the workspace (symposium/listAgentSessions, every page), scripted agent (ms); baseline the agent's own session/list over direct ACP, the same ${pages} pages`,
    median: median(bridged),
    p99: percentile(bridged, 99),
    baseline: median(own),
    unit: 'ms',
    bar: `≤ +${LIST_BAR_MS} ms (added ${added.toFixed(2)})`,
    met: added <= LIST_BAR_MS,
    counts: `${LIST_RUNS} listings (+${WARMUP} warm-up) per side, in turn, the agent started before the first timed one; ${pages} pages of two sessions each`,
  };
}

/**
 * A session of `HUGE_EXCHANGES` exchanges continued as just after VS Code started: per run a new bridge, whose agent
 * the listing started (the quick pick), and a new direct client, initialized and listing first; each timed from its
 * request to its answer. Both processes' code is then cold: none of them read a replay before.
 */
async function hugeSessionInFreshProcesses(): Promise<Row> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'bench-huge-agent-'));
  const [sessionId] = storedSessions(stateDir, 1, HUGE_EXCHANGES);
  const flags = scripted(stateDir);
  const agent = agentOf(flags);
  const bridged: number[] = [];
  const own: number[] = [];
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const direct = new DirectAcp(flags);
      let directMs: number;
      try {
        await direct.listSessions(ROOT);
        const loadAt = now();
        await direct.connection.agent.request(acp.methods.agent.session.load, { sessionId: sessionId!, cwd: ROOT, mcpServers: [] });
        directMs = now() - loadAt;
      } finally {
        await direct.close();
      }
      const bridge = new Bridge(['--cwd', ROOT]);
      let bridgedMs: number;
      try {
        await bridge.client.listAgentSessions({ agent });
        const askedAt = now();
        await bridge.client.continueAgentSession({ agent, sessionId: sessionId! });
        bridgedMs = now() - askedAt;
      } finally {
        await bridge.close();
      }
      if (i < WARMUP) continue;
      bridged.push(bridgedMs);
      own.push(directMs);
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
  return hugeRow('in a bridge and an agent just started', bridged, own, `${RUNS} continuations (+${WARMUP} warm-up) per side, each in a new bridge or client whose agent the listing had started`);
}

/**
 * A session of `HUGE_EXCHANGES` exchanges continued: one bridge and one direct client, each with its own agent process
 * (started before the first timed request) and its own copies of the session, one copy a run (a session continued in
 * the bridge is held by its chat from then on); each timed from its request to its answer.
 */
async function hugeSession(): Promise<Row> {
  const bridgedDir = mkdtempSync(path.join(tmpdir(), 'bench-huge-agent-'));
  const directDir = mkdtempSync(path.join(tmpdir(), 'bench-huge-agent-'));
  const sessionIds = storedSessions(bridgedDir, WARMUP + RUNS, HUGE_EXCHANGES);
  storedSessions(directDir, WARMUP + RUNS, HUGE_EXCHANGES);
  const agent = agentOf(scripted(bridgedDir));
  const bridge = new Bridge(['--cwd', ROOT]);
  const direct = new DirectAcp(scripted(directDir));
  const bridged: number[] = [];
  const own: number[] = [];
  let shown = 0;
  try {
    await bridge.client.listAgentSessions({ agent });
    await direct.listSessions(ROOT);
    for (const [i, sessionId] of sessionIds.entries()) {
      const loadAt = now();
      await direct.connection.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ROOT, mcpServers: [] });
      const directMs = now() - loadAt;
      const askedAt = now();
      const { exchanges } = await bridge.client.continueAgentSession({ agent, sessionId });
      const bridgedMs = now() - askedAt;
      shown = exchanges.length;
      if (i < WARMUP) continue;
      bridged.push(bridgedMs);
      own.push(directMs);
    }
  } finally {
    await bridge.close();
    await direct.close();
    rmSync(bridgedDir, { recursive: true, force: true });
    rmSync(directDir, { recursive: true, force: true });
  }
  return hugeRow('in a bridge and an agent that had run one before', bridged, own, `${RUNS} continuations (+${WARMUP} warm-up) per side, in turn, each of its own copy of the session, in one bridge and one client whose agents had started; ${shown} exchanges shown (the last ones and a line for the earlier)`);
}

function hugeRow(where: string, bridged: readonly number[], own: readonly number[], counts: string): Row {
  const added = median(bridged) - median(own);
  return {
    row: '13',
    metric: `a session of ${HUGE_EXCHANGES.toLocaleString('en')} exchanges continued ${where} (symposium/continueAgentSession, request to answer), scripted agent (ms); baseline the agent's own session/load of it over direct ACP`,
    median: median(bridged),
    p99: percentile(bridged, 99),
    baseline: median(own),
    unit: 'ms',
    bar: `< ${HUGE_BAR_MS} ms whole (the bridge's share ${added.toFixed(2)})`,
    met: median(bridged) < HUGE_BAR_MS,
    counts,
  };
}
