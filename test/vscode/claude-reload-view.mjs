// A window reloaded while Claude answers (issue 58's reproduction): a 200-chunk answer (20 s), the window reloaded
// a few seconds in, once VS Code has saved the chat. The agent host keeps the turn running; the chat's next message goes on in the same Claude session,
// its model request holds the whole answer, and the answer the person reads begins with what they missed, once.
import { execFileSync } from 'node:child_process';

/** The claude-agent-acp processes running. */
const claudeAgents = () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n').filter((line) => line.includes('claude-agent-acp/dist/index.js')).length;
/** The chunks `c1 ` … `cN ` of the mock's `count N` answer. */
const chunks = (n) => Array.from({ length: n }, (_, i) => `c${i + 1}`);

export function reloadScenarios(newClaudeChat) {
  return [
    {
      name: 'claude: a window reloaded while Claude answers: the turn runs on in the agent host, the next message goes on in the same session and begins with what was missed, once',
      async run(ui, c, ctx) {
        await newClaudeChat(ui);
        const since = ctx.mock.conversation().length;
        const agentsBefore = c.note('claude-agent-acp before', claudeAgents());
        await ui.send('count 200');
        await ui.response((t) => /\bc5\b/.test(t), 'the first chunks');
        // VS Code saves the chat on a timer: a window reloaded before loses the chat itself, whatever the bridge does.
        await new Promise((resolve) => setTimeout(resolve, 5000));
        c.ok(!/\bc200\b/.test(await ui.response(() => true, 'the answer so far')), 'the answer had ended before the reload');
        await ui.page.reload();
        await ui.page.locator('.interactive-input-editor').first().waitFor({ timeout: 60_000 });
        await ui.page.locator('.interactive-request', { hasText: 'count 200' }).first().waitFor({ timeout: 30_000 });
        // What the reloaded window shows of the answer: what VS Code saved of it.
        ui.responsesBefore = -1;
        const restored = c.note('restored', await ui.response((t) => /\bc5\b/.test(t), 'the answer as the reloaded window shows it'));
        await ui.screenshot('claude-reloaded-mid-answer');
        await ui.send('say after the reload');
        const text = c.note('answer', await ui.response((t) => t.includes('after the reload') && /\bc200\b/.test(t), 'the answer after the reload, with what was missed'));
        await ui.idle();
        await ui.screenshot('claude-reloaded-answered');
        c.includes(text, 'While the window was away, the agent went on:', 'the answer after the reload');
        // Every chunk, once: what the reloaded window shows of the answer, then what the next answer says it missed.
        const shown = `${restored}\n${text}`;
        const times = (chunk) => (shown.match(new RegExp(`\\b${chunk}\\b`, 'g')) ?? []).length;
        const missing = chunks(200).filter((chunk) => times(chunk) === 0);
        c.ok(missing.length === 0, `chunks the person never sees: ${missing.slice(0, 20).join(' ')}`);
        const twice = chunks(200).filter((chunk) => times(chunk) > 1);
        c.ok(twice.length === 0, `chunks shown twice: ${twice.slice(0, 20).join(' ')}`);
        const requests = ctx.mock.conversation().slice(since);
        c.note('model asked', requests.map((r) => ctx.mock.lastUserTextOf(r).slice(0, 200)));
        const next = requests.filter((r) => ctx.mock.lastUserTextOf(r) === 'say after the reload');
        const counted = requests.filter((r) => ctx.mock.lastUserTextOf(r) === 'count 200');
        c.ok(counted.length === 1 && next.length === 1, `Claude's model was asked ${counted.length} times for the count and ${next.length} for the next message`);
        c.ok(next.length === 1 && ctx.mock.sessionIdOf(next[0]) === ctx.mock.sessionIdOf(counted[0]), 'the next message went to another Claude session');
        c.ok(next.length === 1 && JSON.stringify(next[0].body.messages).includes('c200'), "the next message's model request lacks the whole answer");
        // The message after that goes on in the same session too, told nothing (no transcript of the answers as another model's).
        await ui.send('say once more');
        await ui.response((t) => t.includes('once more'), 'the answer after that');
        await ui.idle();
        const after = ctx.mock.conversation().slice(since).filter((r) => ctx.mock.lastUserTextOf(r) === 'say once more');
        c.ok(after.length === 1 && ctx.mock.sessionIdOf(after[0]) === ctx.mock.sessionIdOf(counted[0]), `the message after went ${after.length} times, or to another Claude session`);
        // One agent host: no second claude-agent-acp for the reloaded window.
        c.ok(c.note('claude-agent-acp after', claudeAgents()) <= Math.max(agentsBefore, 1), 'a second claude-agent-acp started for the reloaded window');
      },
    },
  ];
}
