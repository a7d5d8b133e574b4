import { TurnRendering } from '../../src/agents/acp/updates/update-parts.js';
import { noticeLine, withoutNoticeLines } from '../../src/agents/notices.js';
import { transcriptOf } from '../../src/agents/transcript.js';
import { textOfParts } from '../../src/client/lm-client.js';

/** Claude Code's warning (claude-agent-acp 0.101, Claude Code 2.1.318) as a `notice` update, as it sends it to a client that declares `session.notices`. */
const BILLING = {
  sessionUpdate: 'notice' as const,
  severity: 'warning',
  title: "We're changing auto mode to no longer charge for classifier requests in Claude Code.",
  description: "However, this session isn't eligible because your requests go through 127.0.0.1:4000, which isn't compatible with this update.",
};

test("an agent's notice is a line of its own after its words, once per conversation however often it is sent", () => {
  const rendering = new TurnRendering();
  const parts = [
    ...rendering.partsOf({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'The answer is 42.' } }),
    ...rendering.partsOf(BILLING),
    ...rendering.partsOf(BILLING),
  ];
  expect(textOfParts(parts)).toBe(`The answer is 42.\n\n> ⚠️ **We're changing auto mode to no longer charge for classifier requests in Claude Code.**: However, this session isn't eligible because your requests go through 127.0.0.1:4000, which isn't compatible with this update.\n\n`);
  expect(rendering.partsOf(BILLING)).toEqual([]);
  expect(textOfParts(rendering.partsOf({ sessionUpdate: 'notice', severity: 'info', title: 'Compacted *twice*\nnow' }))).toBe('\n\n> ℹ️ **Compacted \\*twice\\* now**\n\n');
});

test("the bridge's own notice begins the next response, once", () => {
  const rendering = new TurnRendering();
  const notice = { severity: 'warning', title: 'Claude Code acts without asking you in this chat', description: 'its mode is Auto.' };
  rendering.notice(notice);
  rendering.notice(notice);
  expect(textOfParts(rendering.startOfResponse())).toBe('> ⚠️ **Claude Code acts without asking you in this chat**: its mode is Auto.\n\n');
  rendering.notice(notice);
  expect(rendering.startOfResponse()).toEqual([]);
});

test('a transcript tells what the agent said, without the notices shown in its replies', () => {
  const reply = `The answer is 42.${noticeLine(BILLING)}`;
  expect(withoutNoticeLines(reply)).toBe('The answer is 42.');
  expect(withoutNoticeLines(`${noticeLine(BILLING)}First.\n\n> 🔧 \`Read\`\n\nThen.${noticeLine({ severity: 'info', title: 'x' })}`)).toBe('First.\n\n> 🔧 `Read`\n\nThen.');
  expect(withoutNoticeLines('> a quote of the agent\'s own\n\nwords')).toBe("> a quote of the agent's own\n\nwords");
  const told = transcriptOf([
    { role: 'user', content: [{ type: 'text', value: 'What is it?' }] },
    { role: 'assistant', content: [{ type: 'text', value: reply }] },
    { role: 'user', content: [{ type: 'text', value: 'And then?' }] },
  ]);
  expect(told).toContain('Assistant: The answer is 42.\n');
  expect(told).not.toContain('classifier');
});

describe("a turn of the agent's own, between prompts (claude-agent-acp 0.101's idle compaction)", () => {
  const started = { sessionUpdate: 'tool_call' as const, toolCallId: 'compact-1', title: 'Compact conversation', kind: 'think' as const, status: 'in_progress' as const };
  const finished = { sessionUpdate: 'tool_call_update' as const, toolCallId: 'compact-1', status: 'completed' as const, rawOutput: { trigger: 'idle', preTokens: 250000 } };

  test('still running when the next prompt goes: the next answer ends it in one line, titled', () => {
    const rendering = new TurnRendering();
    rendering.ownTurn(started);
    expect(rendering.startOfResponse()).toEqual([]);
    expect(textOfParts(rendering.partsOf(finished))).toBe('\n\n> ✓ `Compact conversation`\n\n');
  });

  test('ended before it: the next answer begins with its line, once', () => {
    const rendering = new TurnRendering();
    rendering.ownTurn(started);
    rendering.ownTurn(finished);
    rendering.ownTurn(finished);
    expect(textOfParts(rendering.startOfResponse())).toBe('> ✓ `Compact conversation`\n\n');
    expect(rendering.startOfResponse()).toEqual([]);
    expect(rendering.partsOf(finished)).toEqual([]);
  });

  test('a late update of a call the last prompt announced is no turn of its own', () => {
    const rendering = new TurnRendering();
    rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'Read a.ts', status: 'in_progress' });
    rendering.ownTurn({ sessionUpdate: 'tool_call_update', toolCallId: 'read-1', status: 'completed' });
    expect(rendering.startOfResponse()).toEqual([]);
  });
});
