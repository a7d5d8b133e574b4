/**
 * Row 11: the first answer after going back (issue 45). After Restore Checkpoint or an edited earlier request,
 * Copilot sends the chat up to an earlier answer, whose stateful marker is an older one of the conversation, then
 * the new words; the bridge opens the branch's session as a `session/fork` of the conversation's, cut after that
 * answer (Claude Code; the scripted agent with `--fork`), or a new session told the chat up to there (the scripted
 * agent without it). Measured: that request's first part against a follow-up's first part on the branch. Beside
 * it, over direct ACP, the agent's own `session/fork` at the same point and its first prompt in the fork (from the
 * fork asked to the first chunk) against a follow-up there: what the agent itself spends, which no bridge can take
 * away. Bar, as rows 9 and 10's: what the bridge adds beyond that.
 */
import { createHash } from 'node:crypto';
import type { McpServer } from '@agentclientprotocol/sdk';
import { createLogger } from '../../src/log/logger.js';
import { forkPointMeta } from '../../src/agents/acp/session/answer-ends.js';
import type { AgentDefinition, Message } from '../../src/protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { AnthropicMock, messagesOf } from '../../test/fixtures/anthropic-mock.js';
import { AGENT, Bridge, DirectAcp, SEARCH, againstFollowUp, beyondAgentsOwn, now, sleep, user, withMarker, type Row } from '../lib.js';
import { withClaude, type Program } from './new-chat.js';

const RUNS = 5;
const WARMUP = 1;
/** A follow-up waits past the bridge's late-update grace (50 ms), as row 1's turns do. */
const GAP_MS = 70;
/** What the first answer after going back may add beyond the agent's own fork and first prompt (issue 45). */
const BAR_MS = 100;

/** How an agent is reached and what it is expected to hold after going back. */
interface Side extends Program {
  /** The new words after going back. */
  readonly words: (run: number) => string;
  /** After the going-back answer `said`: throws unless the agent held the exchange before the point and nothing after. */
  readonly check: (said: string, words: string) => void;
}

export async function goingBack(): Promise<Row[]> {
  const tools = await BridgedToolsServer.start(async () => ({ content: [{ type: 'text', text: 'no match' }] }), createLogger('warn'));
  tools.setTools([SEARCH]);
  const mcpServers: McpServer[] = [{ type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: tools.url, headers: [{ name: 'Authorization', value: tools.authorization }] }];
  try {
    // The bridge forks (the agent reads the fork point) or tells the transcript. The scripted agent's `history` answers
    // the prompts its session held before: the first exchange alone when forked.
    const scripted = (route: 'fork' | 'told'): Side => ({
      label: `scripted agent, ${route === 'fork' ? 'forked (--fork)' : 'told the transcript (no fork)'}`,
      args: [AGENT, '--mcp-http', ...(route === 'fork' ? ['--fork'] : [])],
      env: {},
      reply: (said) => said,
      settleMs: 1_000,
      words: () => 'history',
      check: (said) => {
        const expected = route === 'fork' ? '["say one"]' : '[]';
        if (said !== expected) throw new Error(`row 11: after going back the scripted agent held ${said}, not ${expected}`);
      },
    });
    const [forked, told, directScripted] = await inTurn([bridged(scripted('fork')), bridged(scripted('told')), direct(scripted('fork'), mcpServers)]);
    const rows = [...judged(forked!, directScripted!), ...judged(told!, directScripted!).filter((row) => row !== directScripted)];
    await withClaude(async (claude, mock) => {
      const side: Side = { ...claude, words: (run) => `say back ${run}`, check: (_said, words) => claudeHolds(mock, words) };
      const [bridgedClaude, directClaude] = await inTurn([bridged(side), direct(side, mcpServers)]);
      rows.push(...judged(bridgedClaude!, directClaude!));
    });
    return rows;
  } finally {
    await tools.close();
  }
}

/**
 * Claude Code's model, after going back, must get the first exchange as its own messages (a fork: an assistant
 * message) and not the second request: checked on the mock's record of the going-back request.
 */
function claudeHolds(mock: AnthropicMock, said: string): void {
  const request = mock.conversation().filter((r) => JSON.stringify(r.body).includes(said)).at(-1);
  if (request === undefined) throw new Error(`row 11: Claude's model never got "${said}"`);
  const { messages } = messagesOf(request);
  const text = JSON.stringify(messages);
  if (text.includes('say two') || !text.includes('say one') || !messages.some((m) => m.role === 'assistant')) {
    throw new Error(`row 11: after going back Claude's model got ${text.slice(0, 2000)}`);
  }
}

function judged(bridgedRow: Row, directRow: Row): Row[] {
  return beyondAgentsOwn(bridgedRow, directRow, "what the first answer after going back adds beyond the agent's own fork and first prompt", BAR_MS);
}

const COUNTS = `${RUNS} conversations (+${WARMUP} warm-up) per agent and route, each of three exchanges, then back to after the first answer (a pause of a spare's opening later), then a follow-up ${GAP_MS} ms after its answer; direct ACP likewise; the sides' runs in turn`;

/** One side of the row: a run of it (`WARMUP` runs first, not timed), what closes it, and its row once all ran. */
interface Runs {
  readonly run: (i: number) => Promise<void>;
  readonly close: () => Promise<void>;
  readonly row: () => Row;
}

/**
 * The sides' runs in turn (run i of each, the side that goes first changing with i), so that the load of this shared
 * machine weighs on each alike; then their rows.
 */
async function inTurn(sides: readonly Runs[]): Promise<Row[]> {
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const order = sides.map((_, k) => (k + i) % sides.length);
      for (const k of order) await sides[k]!.run(i);
    }
  } finally {
    for (const side of sides) await side.close();
  }
  return sides.map((side) => side.row());
}

/**
 * Per run: a chat of three exchanges, each answer with its stateful marker; a pause (the person restores the
 * checkpoint and types; the pool's spare opens meanwhile); the chat back to after the first answer with new words
 * (`history` for the scripted agent, which says what its session held); a follow-up on the branch.
 */
function bridged(side: Side): Runs {
  const agent: AgentDefinition = { mcp_server: { name: 'agent', command: process.execPath, args: [...side.args], env: Object.entries(side.env).map(([name, value]) => ({ name, value })) } };
  const bridge = new Bridge();
  const back: number[] = [];
  const followed: number[] = [];
  const run = async (i: number): Promise<void> => {
    if (i === 0) await bridge.turn([user('say warm')], agent, [SEARCH]);
    const chat: Message[] = [];
    const kept: Message[] = [];
    for (const [k, words] of ['say one', 'say two', 'say three'].entries()) {
      chat.push(user(words));
      chat.push(withMarker((await bridge.turn([...chat], agent, [SEARCH], undefined, `c${i}m${k + 1}`)).parts, `c${i}m${k + 1}`));
      if (k === 0) kept.push(...chat);
    }
    await sleep(side.settleMs);
    const words = side.words(i);
    const branch = [...kept, user(words)];
    const first = await bridge.turn(branch, agent, [SEARCH], undefined, `c${i}m4`);
    side.check(first.parts.map((p) => (p.type === 'text' ? p.value : '')).join(''), words);
    branch.push(withMarker(first.parts, `c${i}m4`), user('say again'));
    await sleep(GAP_MS);
    const next = await bridge.turn(branch, agent, [SEARCH], undefined, `c${i}m5`);
    if (i < WARMUP) return;
    back.push(first.firstAt - first.startAt);
    followed.push(next.firstAt - next.startAt);
  };
  const row = (): Row => againstFollowUp('11', `first answer after going back, ${side.label} (ms); baseline a follow-up's first part on the branch`, back, followed, COUNTS);
  return { run, close: () => bridge.close(), row };
}

/** The same over direct ACP: the agent's own `session/fork` after the first answer, timed with the fork's first prompt. */
function direct(side: Side, mcpServers: McpServer[]): Runs {
  const client = new DirectAcp([], false, side);
  const back: number[] = [];
  const followed: number[] = [];
  const run = async (i: number): Promise<void> => {
    if (i === 0) await client.prompt(await client.newSession(mcpServers), 'say warm', side.reply('warm').length);
    const session = await client.newSession(mcpServers);
    const one = await client.prompt(session, 'say one', side.reply('one').length);
    for (const words of ['say two', 'say three']) await client.prompt(session, words, side.reply(words.slice(4)).length);
    if (one.messageId === undefined) throw new Error(`row 11: ${side.label} names no messages: no fork point`);
    const fingerprint = `sha256:${createHash('sha256').update(one.said).digest('hex')}`;
    const meta = forkPointMeta({ turn: '', session, message: one.messageId, fingerprint, occurrence: 1 });
    await sleep(side.settleMs);
    const askedAt = now();
    const fork = await client.fork(session, meta, mcpServers);
    const first = await client.prompt(fork, `say back ${i}`, side.reply(`back ${i}`).length);
    await sleep(GAP_MS);
    const next = await client.prompt(fork, 'say again', side.reply('again').length);
    await client.closeSession(session);
    await client.closeSession(fork);
    if (i < WARMUP) return;
    back.push(first.firstAt - askedAt);
    followed.push(next.firstAt - next.startAt);
  };
  const row = (): Row =>
    againstFollowUp('11', `session/fork and its first prompt, ${side.label}, direct ACP: the agent's own (ms); baseline a follow-up's first part in the fork`, back, followed, COUNTS);
  return { run, close: () => client.close(), row };
}
