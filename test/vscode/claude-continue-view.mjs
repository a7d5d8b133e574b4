// Continuing a session Claude Code's own CLI began (issue 52), in the Chat view of claude-view.mjs's workbench: the
// person ran `claude -p` in the workspace (the binary claude-agent-acp runs, in print mode, against the scripted
// Anthropic API, with the HOME of the "Claude Code" agent entry); *Symposium: Continue Agent Session…* lists that
// session, picking it opens a new chat showing its exchange with Claude Code picked, and the next message's model
// request holds the earlier exchange as Claude's own messages, in that very session.
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLAUDE_CLI = join(process.env.SYMPOSIUM_CLAUDE_AGENT_ROOT || REPO, 'node_modules', '@anthropic-ai', 'claude-agent-sdk-linux-x64', 'claude');

export function continueScenarios() {
  return [
    {
      name: "claude: continue — a session begun by Claude Code's CLI is listed, shown in a new chat with Claude Code picked, and goes on in that session",
      async run(ui, c, ctx) {
        const FIRST = 'say heliotrope is the word';
        const NEXT = 'say and the second word is marigold';
        const home = join(ctx.runDir, 'claude-home');
        const env = { ...process.env, ...Object.fromEntries(ctx.mock.claudeEnv({ home, configDir: join(home, '.claude') }).map(({ name, value }) => [name, value])) };
        const printed = await promisify(execFile)(CLAUDE_CLI, ['-p', FIRST], { cwd: ctx.workspace, env, timeout: 120_000 });
        c.equal(c.note('printed', printed.stdout.trim()), 'heliotrope is the word', "Claude Code's CLI answer");
        const begun = ctx.mock.sessionIdOf(ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r) === FIRST).at(-1));
        c.note('CLI session', begun);

        await ui.command('Symposium: Continue Agent Session');
        const row = ui.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'heliotrope' }).first();
        await row.waitFor({ timeout: 60_000 });
        c.includes(c.note('row', await row.innerText()), 'Claude Code', 'the quick pick row (its agent)');
        await ui.screenshot('claude-continue-listed');
        await row.click();

        const shown = ui.page.locator('.interactive-item-container.interactive-request', { hasText: FIRST }).first();
        await shown.waitFor({ timeout: 30_000 });
        await ui.page.locator('.interactive-item-container.interactive-response', { hasText: 'heliotrope is the word' }).first().waitFor({ timeout: 10_000 });
        const picked = await ui.page.locator('.model-picker-item [aria-label^="Models, Claude Code"]').count();
        c.ok(picked > 0, 'Claude Code is not the model picked in the new chat');
        const input = await ui.page.locator('.interactive-input-editor').first().innerText();
        c.equal(input.trim(), '', 'the input of the new chat');
        await ui.screenshot('claude-continue-shown');

        await ui.markResponses();
        await ui.send(NEXT);
        await ui.response((t) => t.includes('marigold') && t.includes('Claude Code'), "Claude's answer in the continued chat");
        await ui.idle();
        await ui.screenshot('claude-continue-answered');
        const requests = ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r) === NEXT);
        c.ok(requests.length === 1, `Claude's model was asked ${requests.length} times for the next message`);
        const request = requests.at(-1);
        c.equal(c.note('model session', ctx.mock.sessionIdOf(request)), begun, "the Claude session of the next message (the CLI's)");
        c.equal(JSON.stringify(c.note('model user words', ctx.mock.userTextsOf(request))), JSON.stringify([FIRST, NEXT]), "the person's words in Claude's model request");
        const messages = request.body.messages;
        c.ok(messages.some((m) => m.role === 'assistant' && JSON.stringify(m.content).includes('heliotrope is the word')), "Claude's model request does not hold its earlier answer as its own message");
        c.excludes(JSON.stringify(messages), 'This conversation began before this session', "Claude's model request (no transcript told)");
      },
    },
  ];
}
