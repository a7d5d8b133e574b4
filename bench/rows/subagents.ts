/**
 * Row 14: a turn with two parallel subagents (issue 51), Claude Code's mock. The person's message makes Claude's
 * model start two subagents at once (`Agent`, in the foreground); each reads the README with its `Read`, then reports;
 * then the main model answers. Timed: the message sent → the main answer's first part. Against the same turn over
 * direct ACP: what the bridge adds to it (the subagents' start, tool and end lines, its file reads through the client),
 * judged per subagent. Each conversation's first turn opens it and is not timed; then a pause of a spare's opening.
 */
import path from 'node:path';
import type { AgentDefinition, Message, ResponsePart } from '../../src/protocol/messages.js';
import { lastToolResults, lastUserText, messagesOf, toolUseReply, toolUses, userTexts } from '../../test/fixtures/anthropic-mock.js';
import { textReply, type Reply, type Script } from '../../test/fixtures/model-api-mock.js';
import { Bridge, DirectAcp, ROOT, median, percentile, replied, runTurnPlans, sleep, user, type Row, type TurnPlan } from '../lib.js';
import { withClaude, type Program } from './new-chat.js';

const TURNS: TurnPlan = { turns: 12, warmup: 2, perConversation: 4, gapMs: 70 };
const SUBAGENTS = ['Alpha', 'Beta'];
/** What the bridge may add per subagent of a turn. */
const BAR_MS_PER_SUBAGENT = 5;
const ANSWER = 'Both surveys agree.';
const SUBAGENT_PROMPT = /Do the (\w+ survey \d+) of this workspace\./;

/**
 * Claude's model: asked `survey N`, it starts the two subagents; each subagent reads the README, then reports; given
 * their reports, it answers.
 */
const claudeSurveys: Script = (_view, recorded): Reply => {
  const request = messagesOf(recorded);
  const survey = SUBAGENT_PROMPT.exec(userTexts(request)[0] ?? '')?.[1];
  if (survey !== undefined) return toolUses(request).some((u) => u.name === 'Read') ? textReply(`${survey} found the README.`) : toolUseReply('Read', { file_path: path.join(ROOT, 'README.md') });
  const results = new Set(lastToolResults(request).map((r) => r.tool_use_id));
  if (toolUses(request).some((u) => u.name === 'Agent' && results.has(u.id))) return textReply(ANSWER);
  const n = /survey (\d+)/.exec(lastUserText(request))?.[1] ?? '0';
  const agent = (name: string) => toolUseReply('Agent', { description: `${name} survey ${n}`, prompt: `Do the ${name} survey ${n} of this workspace.`, subagent_type: 'Explore', run_in_background: false }).content;
  return { content: SUBAGENTS.flatMap(agent) };
};

export async function subagents(): Promise<Row[]> {
  const rows: Row[] = [];
  await withClaude(
    async (claude) => {
      rows.push(...(await measured(claude)));
    },
    claudeSurveys,
    () => ANSWER,
  );
  return rows;
}

/** One side of the row: its turn, for `runTurnPlans`, and what closes it. */
interface Side {
  readonly turn: (opening: boolean, index: number) => Promise<() => void>;
  readonly close: () => Promise<void>;
}

async function measured(program: Program): Promise<Row[]> {
  const bridged: number[] = [];
  const direct: number[] = [];
  const sides = [throughTheBridge(program, bridged), overDirectAcp(program, direct)];
  try {
    await runTurnPlans(TURNS, sides.map((side) => side.turn));
  } finally {
    for (const side of sides) await side.close();
  }
  const counts = `${TURNS.turns} turns (+${TURNS.warmup} warm-up) per side, ${TURNS.perConversation - 1} timed per conversation (its first, which opens it, not; then a pause of a spare's opening), ${TURNS.gapMs} ms apart, the sides' conversations in turn`;
  const added = median(bridged) - median(direct);
  const bar = BAR_MS_PER_SUBAGENT * SUBAGENTS.length;
  return [
    {
      row: '14',
      metric: `a turn with ${SUBAGENTS.length} parallel subagents (each a Read and a report), ${program.label}: message → the main answer's first part, against direct ACP (ms)`,
      median: median(bridged),
      p99: percentile(bridged, 99),
      baseline: median(direct),
      unit: 'ms',
      bar: `≤ +${BAR_MS_PER_SUBAGENT} ms per subagent, +${bar} (added ${added.toFixed(1)}; ${(added / SUBAGENTS.length).toFixed(1)} per subagent)`,
      met: added <= bar,
      counts,
    },
  ];
}

function throughTheBridge(program: Program, out: number[]): Side {
  const agent: AgentDefinition = { mcp_server: { name: 'agent', command: process.execPath, args: [...program.args], env: Object.entries(program.env).map(([name, value]) => ({ name, value })) } };
  const bridge = new Bridge();
  let history: Message[] = [];
  const turn = async (opening: boolean, i: number): Promise<() => void> => {
    if (opening) history = [];
    history.push(user(`survey ${i}`));
    let answeredAt = NaN;
    const answered = await bridge.turn([...history], agent, [], (part: ResponsePart, at: number) => {
      if (Number.isNaN(answeredAt) && part.type === 'text' && part.value.includes(ANSWER)) answeredAt = at;
    });
    const text = answered.parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
    const subagentEnds = text.split('(Explore): done').length - 1;
    if (Number.isNaN(answeredAt) || subagentEnds !== SUBAGENTS.length) throw new Error(`row 14: the bridged turn did not end its subagents and answer: ${JSON.stringify(answered.parts)}`);
    history.push(replied(answered.parts));
    if (opening) await sleep(program.settleMs);
    return () => out.push(answeredAt - answered.startAt);
  };
  return { turn, close: () => bridge.close() };
}

function overDirectAcp(program: Program, out: number[]): Side {
  const client = new DirectAcp([], false, program);
  let session = '';
  const turn = async (opening: boolean, i: number): Promise<() => void> => {
    if (opening && session !== '') await client.closeSession(session);
    if (opening) session = await client.newSession();
    const t = await client.prompt(session, `survey ${i}`, ANSWER.length);
    if (t.said !== ANSWER) throw new Error(`row 14: Claude Code (direct) said ${JSON.stringify(t.said)}, not ${JSON.stringify(ANSWER)}`);
    if (opening) await sleep(program.settleMs);
    return () => out.push(t.firstAt - t.startAt);
  };
  return { turn, close: () => client.close() };
}
