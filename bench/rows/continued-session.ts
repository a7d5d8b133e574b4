/**
 * Row 13: the first answer in a continued session (issue 52). A session of two exchanges begun elsewhere (here: in a
 * first bridge, which then ends), listed and continued by a second bridge (`symposium/continueAgentSession`: the
 * agent loads it for its exchanges and closes it again); the chat's next message, sent 3 s after the chat opened (a
 * person reading it), against a follow-up's first part in the same chat. As rows 9–11, the bar is judged beyond what
 * the agent itself spends: over direct ACP, the session resumed when the message is sent and its first prompt, from
 * the resume asked to the first chunk, against a follow-up in it. The list of 200 sessions and a session of 2,000
 * exchanges: agent-sessions-at-scale.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { createLogger } from '../../src/log/logger.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { AGENT, Bridge, DirectAcp, SEARCH, againstFollowUp, beyondAgentsOwn, now, replied, sleep, user, type Row } from '../lib.js';
import { withClaude, type Program } from './new-chat.js';
import { agentSessionsAtScale } from './agent-sessions-at-scale.js';

const RUNS = 5;
const WARMUP = 1;
/** A person reading the continued chat before typing. */
const READING_MS = 3_000;
/** A follow-up waits past the bridge's late-update grace (50 ms), as row 1's turns do. */
const GAP_MS = 70;
/** What the first answer in a continued session may add beyond the agent's own resume and first prompt (issue 52). */
const BAR_MS = 100;

export async function continuedSession(): Promise<Row[]> {
  const agentState = mkdtempSync(path.join(tmpdir(), 'bench-continue-agent-'));
  const tools = await BridgedToolsServer.start(async () => ({ content: [{ type: 'text', text: 'no match' }] }), createLogger('warn'));
  tools.setTools([SEARCH]);
  const mcpServers: McpServer[] = [{ type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: tools.url, headers: [{ name: 'Authorization', value: tools.authorization }] }];
  try {
    const scripted: Program = {
      label: 'scripted agent (session/load and /resume take 500 ms)',
      args: [AGENT, '--mcp-http', '--load-session', '--resume-session', '--close-session', '--list-sessions', '--state-dir', agentState, '--load-delay', '500'],
      env: {},
      reply: (said) => said,
      settleMs: 0,
    };
    const rows = judged(await measured(scripted), await direct(scripted, mcpServers));
    await withClaude(async (claude) => {
      rows.push(...judged(await measured(claude), await direct(claude, mcpServers)));
    });
    rows.push(...(await agentSessionsAtScale()));
    return rows;
  } finally {
    await tools.close();
    rmSync(agentState, { recursive: true, force: true });
  }
}

function judged(bridgedRow: Row, directRow: Row): Row[] {
  return beyondAgentsOwn(bridgedRow, directRow, "what the first answer adds beyond the agent's own resume and first prompt", BAR_MS);
}

/** Over direct ACP: a session of two exchanges, the agent restarted, then (the reading pause first) the session resumed and prompted at once. */
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
      await sleep(READING_MS);
      const askedAt = now();
      await after.resume(sessionId, mcpServers);
      const first = await after.prompt(sessionId, 'say after continuing', program.reply('after continuing').length);
      await sleep(GAP_MS);
      const next = await after.prompt(sessionId, 'say again', program.reply('again').length);
      if (i < WARMUP) continue;
      firsts.push(first.firstAt - askedAt);
      followed.push(next.firstAt - next.startAt);
    } finally {
      await after.close();
    }
  }
  return againstFollowUp('13', `resume and first prompt of a session, ${program.label}, direct ACP: the agent's own (ms); baseline a follow-up's first part`, firsts, followed, `${RUNS} sessions (+${WARMUP} warm-up), each of two exchanges in an agent process that then ended`);
}

/**
 * `RUNS` continued sessions (+`WARMUP`): a chat of two exchanges in one bridge, which ends; a second bridge lists the
 * agent's sessions and continues the newest; the chat that shows its exchanges sends its next message `READING_MS`
 * later, then a follow-up.
 */
async function measured(program: Program): Promise<Row> {
  const agent: AgentDefinition = { mcp_server: { name: 'agent', command: process.execPath, args: [...program.args], env: Object.entries(program.env).map(([name, value]) => ({ name, value })) } };
  const firsts: number[] = [];
  const followed: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const before = new Bridge();
    try {
      const chat: Message[] = [];
      for (const words of [`say chat ${i}`, 'say more']) {
        chat.push(user(words));
        chat.push(replied((await before.turn(chat, agent, [SEARCH])).parts));
      }
    } finally {
      await before.close();
    }
    const after = new Bridge();
    try {
      const { sessions } = await after.client.listAgentSessions({ agent });
      const newest = sessions[0];
      if (newest === undefined) throw new Error(`the agent listed no session (${program.label})`);
      const { exchanges } = await after.client.continueAgentSession({ agent, sessionId: newest.sessionId });
      const chat: Message[] = exchanges.flatMap(({ request, response }): Message[] => [user(`<userRequest>\n${request}\n</userRequest>\n`), { role: 'assistant', content: [{ type: 'text', value: response }] }]);
      await sleep(READING_MS);
      chat.push(user('say after continuing'));
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
  return againstFollowUp('13', `first answer in a continued session, ${program.label} (ms); baseline a follow-up's first part`, firsts, followed, `${RUNS} sessions (+${WARMUP} warm-up) per agent, each of two exchanges begun in a bridge that then ended, continued in a new one; the message ${READING_MS} ms after the chat opened, the follow-up ${GAP_MS} ms after its answer`);
}
