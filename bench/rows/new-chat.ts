/**
 * Row 9: what a person waits for at a new chat. A new conversation's first part against a follow-up's first
 * part on the same agent, once the agent has been in use for a few seconds: without a spare session the new
 * chat pays the agent's `session/new` (2 s for the scripted agent here, ~4 s for Claude Code under load). Beside
 * each, the same over direct ACP with the session opened ahead: what the agent itself spends on the first prompt
 * of a session, which no bridge can take away.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { AnthropicMock } from '../../test/fixtures/anthropic-mock.js';
import { textReply, type Script } from '../../test/fixtures/model-api-mock.js';
import { createLogger } from '../../src/log/logger.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';
import { AGENT, Bridge, DirectAcp, ROOT, SEARCH, againstFollowUp, beyondAgentsOwn, replied, sleep, user, type Row } from '../lib.js';

/** The sessions a run leaves open (the first chat's and the new chats') stay within the pool's 8, spares included. */
const NEW_CHATS = 6;
const WARMUP = 1;
/** A follow-up waits past the bridge's late-update grace (50 ms), as row 1's turns do. */
const GAP_MS = 70;
/** What a new chat may add over a follow-up (issue 30). */
const BAR_MS = 50;

/** An agent run by this Node: its script and arguments, and its environment. */
export interface Program {
  readonly label: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** What it answers `say …` with. */
  readonly reply: (said: string) => string;
  /** How long a new session may take to open, so that a spare is ready before the next new chat. */
  readonly settleMs: number;
}

export async function newChat(): Promise<Row[]> {
  const tools = await BridgedToolsServer.start(async () => ({ content: [{ type: 'text', text: 'no match' }] }), createLogger('warn'));
  tools.setTools([SEARCH]);
  const mcpServers: McpServer[] = [{ type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: tools.url, headers: [{ name: 'Authorization', value: tools.authorization }] }];
  try {
    const scripted: Program = { label: 'scripted agent (session/new takes 2 s)', args: [AGENT, '--mcp-http', '--new-session-delay', '2000'], env: {}, reply: (said) => said, settleMs: 3_000 };
    const rows = judged(await bridged(scripted), await direct(scripted, mcpServers));
    await withClaude(async (claude) => {
      rows.push(...judged(await bridged(claude), await direct(claude, mcpServers)));
    });
    return rows;
  } finally {
    await tools.close();
  }
}

function judged(bridgedRow: Row, directRow: Row): Row[] {
  return beyondAgentsOwn(bridgedRow, directRow, "what a new chat adds beyond the agent's own first prompt", BAR_MS);
}

/**
 * New chats on an agent in use: each `settleMs` after the last (a person does not open chats back to back; the
 * next spare opens meanwhile), each followed by one follow-up in the same chat.
 */
async function bridged(program: Program): Promise<Row> {
  const agent: AgentDefinition = { mcp_server: { name: 'agent', command: process.execPath, args: [...program.args], env: Object.entries(program.env).map(([name, value]) => ({ name, value })) } };
  const bridge = new Bridge();
  const opened: number[] = [];
  const followed: number[] = [];
  try {
    // In use: a first chat starts the agent and opens its session.
    await bridge.turn([user('say warm')], agent, [SEARCH]);
    for (let i = 0; i < WARMUP + NEW_CHATS; i++) {
      await sleep(program.settleMs);
      const first = [user(`say new chat ${i}`)];
      const fresh = await bridge.turn(first, agent, [SEARCH]);
      await sleep(GAP_MS);
      const next = await bridge.turn([...first, replied(fresh.parts), user('say again')], agent, [SEARCH]);
      if (i < WARMUP) continue;
      opened.push(fresh.firstAt - fresh.startAt);
      followed.push(next.firstAt - next.startAt);
    }
  } finally {
    await bridge.close();
  }
  return againstFollowUp('9', `new chat: first part, ${program.label} (ms); baseline a follow-up's first part`, opened, followed, `${NEW_CHATS} new chats (+${WARMUP} warm-up) per agent, a spare's opening apart, each followed by one follow-up ${GAP_MS} ms later; direct ACP likewise`);
}

/** The same over direct ACP, each new session opened `settleMs` before its first prompt. */
export async function direct(program: Program, mcpServers: McpServer[]): Promise<Row> {
  const client = new DirectAcp([], false, program);
  const firsts: number[] = [];
  const followed: number[] = [];
  try {
    await client.prompt(await client.newSession(mcpServers), 'say warm', program.reply('warm').length);
    for (let i = 0; i < WARMUP + NEW_CHATS; i++) {
      const session = await client.newSession(mcpServers);
      await sleep(program.settleMs);
      const fresh = await client.prompt(session, `say new chat ${i}`, program.reply(`new chat ${i}`).length);
      await sleep(GAP_MS);
      const next = await client.prompt(session, 'say again', program.reply('again').length);
      if (i < WARMUP) continue;
      firsts.push(fresh.firstAt - fresh.startAt);
      followed.push(next.firstAt - next.startAt);
    }
  } finally {
    await client.close();
  }
  return againstFollowUp('9', `first prompt of a session opened ahead, ${program.label}, direct ACP: the agent's own (ms); baseline a follow-up's first part`, firsts, followed, `${NEW_CHATS} new chats (+${WARMUP} warm-up) per agent, a spare's opening apart, each followed by one follow-up ${GAP_MS} ms later; direct ACP likewise`);
}

/**
 * claude-agent-acp (a devDependency) offline against a mock of the Anthropic API, in a fresh HOME; its model says
 * `hello` unless `respond` scripts it otherwise (then `reply` says what it answers `say …` with).
 */
export async function withClaude(
  run: (claude: Program, mock: AnthropicMock) => Promise<void>,
  respond: Script = () => textReply('hello'),
  reply: (said: string) => string = () => 'hello',
): Promise<void> {
  const home = mkdtempSync(path.join(tmpdir(), 'bench-claude-'));
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  const mock = await AnthropicMock.start({ respond });
  try {
    const env = Object.fromEntries(mock.claudeEnv({ home, configDir: path.join(home, '.claude') }).map(({ name, value }) => [name, value]));
    await run({ label: 'claude-agent-acp against a mock of its API', args: [path.join(ROOT, 'node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js')], env, reply, settleMs: 8_000 }, mock);
  } finally {
    await mock.close();
    removeHome(home);
  }
}

/**
 * Claude Code's processes end with the bridge's, but one may still flush its state into HOME while it goes:
 * removing the folder is retried, and a folder that still fills up is left in tmp rather than losing the run.
 */
function removeHome(home: string): void {
  try {
    rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    process.stderr.write(`bench: left ${home} behind (${error instanceof Error ? error.message : String(error)})\n`);
  }
}
