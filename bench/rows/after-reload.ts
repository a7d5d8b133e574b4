/**
 * Row 10: the first answer after a window reload. A reload restarts the extension host and the bridge with it: the
 * first message of a restored chat waited for the agent to start and resume its session. The extension now tells the
 * restarted bridge at once (`symposium/resumeRecent`), and the latest conversations resume ahead while the person
 * reads. Measured: a bridge restarted on the same `--state-dir` answers the last conversation's next message, sent
 * 3 s after the restart, against a follow-up's first part in the same chat; and, reported beside it, the same
 * message in a conversation the warm start does not cover (the bridge told nothing). As row 9 does, the bar is
 * judged beyond what the agent itself spends on the first prompt of a resumed session (over direct ACP, the session
 * resumed 3 s before), which no bridge can take away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { createLogger } from '../../src/log/logger.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { AGENT, Bridge, DirectAcp, SEARCH, againstFollowUp, beyondAgentsOwn, median, percentile, replied, sleep, user, type Row } from '../lib.js';
import { withClaude, type Program } from './new-chat.js';

const RUNS = 5;
const WARMUP = 1;
/** A person reading the restored chat before typing. */
const READING_MS = 3_000;
/** A follow-up waits past the bridge's late-update grace (50 ms), as row 1's turns do. */
const GAP_MS = 70;
/** What the first answer after a reload may add over a follow-up (issue 40). */
const BAR_MS = 100;

export async function afterReload(): Promise<Row[]> {
  const agentState = mkdtempSync(path.join(tmpdir(), 'bench-reload-agent-'));
  const tools = await BridgedToolsServer.start(async () => ({ content: [{ type: 'text', text: 'no match' }] }), createLogger('warn'));
  tools.setTools([SEARCH]);
  const mcpServers: McpServer[] = [{ type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: tools.url, headers: [{ name: 'Authorization', value: tools.authorization }] }];
  try {
    const scripted: Program = {
      label: 'scripted agent (session/load takes 500 ms)',
      args: [AGENT, '--mcp-http', '--load-session', '--state-dir', agentState, '--load-delay', '500'],
      env: {},
      reply: (said) => said,
      settleMs: 0,
    };
    const rows = [...judged(await measured(scripted, true), await direct(scripted, mcpServers)), await measured(scripted, false)];
    await withClaude(async (claude) => {
      rows.push(...judged(await measured(claude, true), await direct(claude, mcpServers)), await measured(claude, false));
    });
    return rows;
  } finally {
    await tools.close();
    rmSync(agentState, { recursive: true, force: true });
  }
}

function judged(bridgedRow: Row, directRow: Row): Row[] {
  return beyondAgentsOwn(bridgedRow, directRow, "what the first answer adds beyond the agent's own first prompt of a resumed session", BAR_MS);
}

/** The same over direct ACP: a session of two exchanges, the agent restarted, the session resumed, its next prompt `READING_MS` later. */
async function direct(program: Program, mcpServers: McpServer[]): Promise<Row> {
  const firsts: number[] = [];
  const followed: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const before = new DirectAcp([], false, program);
    let sessionId: string;
    try {
      sessionId = await before.newSession(mcpServers);
      for (const words of [`say chat ${i}`, 'say more']) await before.prompt(sessionId, words, program.reply(words.slice(4)).length);
    } finally {
      await before.close();
    }
    const after = new DirectAcp([], false, program);
    try {
      await after.resume(sessionId, mcpServers);
      await sleep(READING_MS);
      const first = await after.prompt(sessionId, 'say after the reload', program.reply('after the reload').length);
      await sleep(GAP_MS);
      const next = await after.prompt(sessionId, 'say again', program.reply('again').length);
      if (i < WARMUP) continue;
      firsts.push(first.firstAt - first.startAt);
      followed.push(next.firstAt - next.startAt);
    } finally {
      await after.close();
    }
  }
  return againstFollowUp('10', `first prompt of a session resumed ahead, ${program.label}, direct ACP: the agent's own (ms); baseline a follow-up's first part`, firsts, followed, `${RUNS} restarts (+${WARMUP} warm-up), each after a session of two exchanges; the prompt ${READING_MS} ms after the resume`);
}

/**
 * `RUNS` reloads (+`WARMUP`): a chat of two exchanges in one bridge, the bridge ended, a new one on the same state
 * dir (told the window started when `warm`), then the chat's next message `READING_MS` later and a follow-up.
 */
async function measured(program: Program, warm: boolean): Promise<Row> {
  const agent: AgentDefinition = { mcp_server: { name: 'agent', command: process.execPath, args: [...program.args], env: Object.entries(program.env).map(([name, value]) => ({ name, value })) } };
  const stateDir = mkdtempSync(path.join(tmpdir(), 'bench-reload-state-'));
  const firsts: number[] = [];
  const followed: number[] = [];
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const chat: Message[] = [];
      const before = new Bridge(['--state-dir', stateDir]);
      try {
        for (const words of [`say chat ${i}`, 'say more']) {
          chat.push(user(words));
          chat.push(replied((await before.turn(chat, agent, [SEARCH])).parts));
        }
      } finally {
        await before.close();
      }
      const after = new Bridge(['--state-dir', stateDir]);
      try {
        if (warm) after.client.resumeRecent({ agents: [agent], sessions: 3, withinHours: 1 });
        await sleep(READING_MS);
        chat.push(user('say after the reload'));
        const first = await after.turn(chat, agent, [SEARCH]);
        chat.push(replied(first.parts), user('say again'));
        await sleep(GAP_MS);
        const next = await after.turn(chat, agent, [SEARCH]);
        if (i < WARMUP) continue;
        firsts.push(first.firstAt - first.startAt);
        followed.push(next.firstAt - next.startAt);
      } finally {
        await after.close();
      }
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
  const added = median(firsts) - median(followed);
  return {
    row: '10',
    metric: `first answer after a reload, ${program.label}, ${warm ? 'resumed ahead' : 'not covered by the warm start'} (ms); baseline a follow-up's first part`,
    median: median(firsts),
    p99: percentile(firsts, 99),
    baseline: median(followed),
    unit: 'ms',
    bar: `— (added ${added.toFixed(2)})`,
    counts: `${RUNS} reloads (+${WARMUP} warm-up) per agent and case, each after a chat of two exchanges; the message ${READING_MS} ms after the restart, the follow-up ${GAP_MS} ms after its answer`,
  };
}
