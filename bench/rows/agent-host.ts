/**
 * Row 15: the agent host shared by a person's windows (issue 58), scripted agent. (a) A second window's first answer
 * against a follow-up in it, its window on a folder of its own, its agent already running in the host for the other
 * windows (the window started, `resumeRecent`, as the extension tells it: the agent used last opens a spare session
 * there), beyond the agent's own first prompt in a session opened ahead (direct ACP, as row 9). (b) The host's and its agents' RSS with three windows
 * each holding one chat against one window, per extra window. (c) After a window's reload (its connection closed,
 * the window joins again) the chat's next answer against a follow-up: the session is still open, nothing to resume.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { connectToHost, type HostConnection } from '../../src/host/connect-host.js';
import { createLogger } from '../../src/log/logger.js';
import type { AgentDefinition, Message, ResponsePart } from '../../src/protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { AGENT, CLI, SEARCH, againstFollowUp, beyondAgentsOwn, now, replied, sleep, user, type Row } from '../lib.js';
import { direct, type Program } from './new-chat.js';

const WINDOWS = 6;
const WARMUP = 1;
const GAP_MS = 70;
const BAR_MS = 50;
const RSS_BAR_MB = 30;

const SCRIPTED: Program = { label: 'scripted agent (session/new takes 2 s)', args: [AGENT, '--mcp-http', '--new-session-delay', '2000'], env: {}, reply: (said) => said, settleMs: 3_000 };
const agent: AgentDefinition = { mcp_server: { name: 'agent', command: process.execPath, args: [...SCRIPTED.args], env: [] } };

export async function agentHost(): Promise<Row[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-host-'));
  const workspace = mkdtempSync(path.join(tmpdir(), 'bench-host-ws-'));
  const windows: HostConnection[] = [];
  const join = async (cwd = workspace) => {
    const window = await connectToHost({ bridgePath: CLI, build: 'bench', dir, args: ['--log-level', 'warn', '--idle-ms', '1000'] }, { cwd });
    windows.push(window);
    return window;
  };
  const tools = await BridgedToolsServer.start(async () => ({ content: [{ type: 'text', text: 'no match' }] }), createLogger('warn'));
  tools.setTools([SEARCH]);
  const mcpServers: McpServer[] = [{ type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: tools.url, headers: [{ name: 'Authorization', value: tools.authorization }] }];
  try {
    const first = await join();
    await turn(first, [user('say warm')]);
    const rssOne = treeRss(first.pid);

    // (a) Each new window, on a folder of its own, starts, and once its spare opened asks once, then follows up.
    const opened: number[] = [];
    const followed: number[] = [];
    let rssThree = rssOne;
    for (let i = 0; i < WARMUP + WINDOWS; i++) {
      const window = await join(mkdtempSync(path.join(workspace, 'folder-')));
      window.client.resumeRecent({ agents: [agent], sessions: 3, withinHours: 72 });
      await sleep(SCRIPTED.settleMs);
      const asked = [user(`say window ${i}`)];
      const fresh = await turn(window, asked);
      await sleep(GAP_MS);
      const next = await turn(window, [...asked, replied(fresh.parts), user('say again')]);
      // (b) below: three windows, each holding a chat.
      if (windows.length === 3) rssThree = treeRss(first.pid);
      if (i < WARMUP) continue;
      opened.push(fresh.firstAt - fresh.startAt);
      followed.push(next.firstAt - next.startAt);
    }
    const secondWindow = againstFollowUp('15', "a second window's first answer, its agent running in the host, scripted agent (ms); baseline a follow-up's first part", opened, followed, `${WINDOWS} windows (+${WARMUP} warm-up), each on a folder of its own, starting and asking a spare's opening later, then following up ${GAP_MS} ms later`);
    const rows = beyondAgentsOwn(secondWindow, await direct(SCRIPTED, mcpServers), "what a second window adds beyond the agent's own first prompt", BAR_MS);

    // (b) One window holding a chat against three (measured above, as the third window's chat was answered).
    const perWindow = (rssThree.host + rssThree.agents - rssOne.host - rssOne.agents) / 2 / 2 ** 20;
    rows.push({
      row: '15',
      metric: 'RSS of the host and its agents, three windows each holding a chat against one, per extra window (MB)',
      median: perWindow,
      baseline: (rssOne.host + rssOne.agents) / 2 ** 20,
      unit: 'MB',
      bar: `≤ +${RSS_BAR_MB} MB`,
      met: perWindow <= RSS_BAR_MB,
      counts: `host ${fmt(rssOne.host)} → ${fmt(rssThree.host)} MB, its agents ${fmt(rssOne.agents)} → ${fmt(rssThree.agents)} MB (${rssThree.count} agent process(es))`,
    });

    // (c) A window reloads: its connection closes after an answer, it joins again and goes on.
    const reloaded: number[] = [];
    const after: number[] = [];
    for (let i = 0; i < WARMUP + WINDOWS; i++) {
      const before = await join();
      const asked = [user(`say reload ${i}`)];
      const answer = await turn(before, asked);
      before.socket.destroy();
      // A reload takes seconds; at least the bridge's late-update grace (50 ms) passes, as before any follow-up.
      await sleep(GAP_MS);
      const window = await join();
      const history: Message[] = [...asked, replied(answer.parts), user('say on')];
      const next = await turn(window, history);
      await sleep(GAP_MS);
      const again = await turn(window, [...history, replied(next.parts), user('say more')]);
      window.socket.destroy();
      if (i < WARMUP) continue;
      reloaded.push(next.firstAt - next.startAt);
      after.push(again.firstAt - again.startAt);
    }
    const afterReload = againstFollowUp('15', "after a window's reload, the chat's next answer, scripted agent (ms); baseline a follow-up's first part", reloaded, after, `${WINDOWS} reloads (+${WARMUP} warm-up): an answer, the connection closed, the window joined again, then the next message and a follow-up ${GAP_MS} ms later`);
    const added = afterReload.median - afterReload.baseline!;
    rows.push({ ...afterReload, bar: `≤ +${BAR_MS} ms (added ${added.toFixed(2)})`, met: added <= BAR_MS });
    return rows;
  } finally {
    for (const window of windows) window.socket.destroy();
    await tools.close();
    // The host ends by itself a second after its last window (--idle-ms 1000).
    for (let i = 0; i < 100 && readdirSync(dir).some((f) => f.endsWith('.sock')); i++) await sleep(100);
    rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function turn(window: HostConnection, messages: Message[]): Promise<{ parts: ResponsePart[]; startAt: number; firstAt: number }> {
  const parts: ResponsePart[] = [];
  let firstAt = NaN;
  const startAt = now();
  await window.client.provideChatResponse({ modelId: 'bench', messages, agent, options: { tools: [SEARCH] } }, (part) => {
    if (parts.length === 0) firstAt = now();
    parts.push(part);
  });
  return { parts, startAt, firstAt };
}

/** VmRSS of the host, and of its descendants (its agents), in bytes. */
function treeRss(host: number): { host: number; agents: number; count: number } {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(/^\d+ \(.*\) \S (\d+)/.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'))![1]));
    } catch {
      // Gone.
    }
  }
  const descendants = [...parents.keys()].filter((pid) => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === host) return true;
    return false;
  });
  return { host: rssOf(host), agents: descendants.reduce((sum, pid) => sum + rssOf(pid), 0), count: descendants.length };
}

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

const fmt = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
