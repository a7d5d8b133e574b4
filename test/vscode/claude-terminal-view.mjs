// *Symposium: Continue Chat in Terminal* with the real Claude Code (issue 52): a chat in the Chat view, then the
// command opens Claude Code's own CLI (the binary claude-agent-acp runs, named to both by CLAUDE_CODE_EXECUTABLE) in
// VS Code's terminal on a fork of the chat's session: its first screen shows the chat's exchange; what is typed there
// goes to a new Claude session that holds that exchange; the chat's next message stays in the chat's own session,
// which holds nothing of the terminal's. Claude's TUI asks nothing first: the agent's HOME has Claude's onboarding
// done, the workspace trusted and the mock's key approved (claude-view.mjs, claudeAgents).
import { eventually, processesRunning, terminalNames } from './command-stops.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The text VS Code's terminal shows (its DOM rows: the Claude workbench runs the terminal without GPU rendering). */
async function terminalText(page) {
  return page.locator('.part.panel .xterm-rows').first().innerText().catch(() => '');
}

export function terminalScenarios(newClaudeChat) {
  return [
    {
      name: "claude: Continue Chat in Terminal opens Claude Code's CLI on a fork of the chat's session: the terminal shows the chat, the chat stays its own",
      async run(ui, c, ctx) {
        const { mock } = ctx;
        await newClaudeChat(ui);
        await ui.send('say Words to take to the terminal');
        await ui.response((t) => t.includes('Words to take to the terminal') && t.includes('Claude Code'), "Claude's answer");
        await ui.idle();
        const asked = mock.conversation().filter((r) => mock.lastUserTextOf(r) === 'say Words to take to the terminal');
        c.ok(asked.length === 1, `the model was asked ${asked.length} times`);
        const chatSession = c.note('chat session', mock.sessionIdOf(asked[0]));

        await ui.command('Symposium: Continue Chat in Terminal');
        // The set-up's chat is there too: a pick, the chat used last first.
        const rows = ui.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Claude Code ·' });
        await rows.nth(1).waitFor({ timeout: 20_000 });
        const listed = c.note('pick', await rows.allInnerTexts());
        c.ok(listed[0]?.includes('say Words to take to the terminal') && listed[0]?.includes('Claude Code'), `the chat used last is not first in the pick: ${JSON.stringify(listed)}`);
        await ui.screenshot('claude-continue-in-terminal-pick');
        await ui.page.keyboard.press('Enter');

        const forked = `--resume ${chatSession} --fork-session`;
        c.ok(await eventually(() => processesRunning(forked).length > 0, 20_000), `no Claude CLI runs \`${forked}\``);
        c.note('terminals', await terminalNames(ui.page));
        // Claude's first screen: its name, the folder, and the chat so far (the fork's history).
        const shown = await eventually(async () => /Claude Code/.test(await terminalText(ui.page)) && (await terminalText(ui.page)).includes('Words to take to the terminal'), 30_000);
        const screen = c.note('terminal', await terminalText(ui.page));
        await ui.screenshot('claude-continue-in-terminal');
        c.ok(shown, `the terminal does not show Claude Code with the chat's exchange: ${JSON.stringify(screen)}`);

        // What is typed there goes on in a fork: a new session, holding the chat's exchange.
        await ui.page.locator('.part.panel .xterm').first().click();
        await sleep(500);
        await ui.page.keyboard.type('say Typed in the terminal', { delay: 20 });
        await ui.page.keyboard.press('Enter');
        const inTerminal = () => mock.conversation().filter((r) => mock.lastUserTextOf(r).endsWith('say Typed in the terminal'));
        c.ok(await eventually(() => inTerminal().length > 0, 30_000), "the terminal's message never reached Claude's model");
        const terminalSession = c.note('terminal session', mock.sessionIdOf(inTerminal()[0]));
        c.ok(terminalSession !== undefined && terminalSession !== chatSession, `the terminal's message went to the chat's own session ${chatSession}`);
        c.includes(JSON.stringify(inTerminal()[0].body.messages), 'Words to take to the terminal', "the terminal's request (the chat's exchange)");
        // Claude's answer (the mock says the words back) shows under the typed message.
        const answered = await eventually(async () => (await terminalText(ui.page)).split('Typed in the terminal').length > 2, 30_000);
        c.note('terminal after', await terminalText(ui.page));
        c.ok(answered, "Claude's answer in the terminal never showed");
        await ui.screenshot('claude-continue-in-terminal-answered');

        // The chat goes on in its own session, which holds nothing of the terminal's.
        await ui.send('say After the terminal');
        await ui.response((t) => t.includes('After the terminal'), 'the answer in the chat');
        await ui.idle();
        const after = mock.conversation().filter((r) => mock.lastUserTextOf(r) === 'say After the terminal');
        c.ok(after.length === 1, `the chat's next message was asked ${after.length} times`);
        c.equal(mock.sessionIdOf(after[0]), chatSession, "the chat's next message's session");
        c.excludes(JSON.stringify(after[0].body.messages), 'Typed in the terminal', "the chat's next request");

        // Closed as it was opened: the terminal killed, its CLI ends.
        await ui.page.locator('.part.panel .xterm').first().click();
        await ui.command('Terminal: Kill the Active Terminal Instance');
        c.ok(await eventually(() => processesRunning(forked).length === 0, 15_000), `Claude's CLI outlived its terminal: ${JSON.stringify(processesRunning(forked))}`);
      },
    },
  ];
}
