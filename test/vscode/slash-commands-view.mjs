// The agent's slash commands in the Chat view (issue 38), driven as a person does: a /command Copilot does not know
// typed reaches the agent as typed; //command reaches it as its /command (the way past Copilot's own of the same
// name); the agent's commands show in the Chat view's / menu as /mcp.agent.<name> (an MCP server's prompts) and in
// *Symposium: Agent Commands…*, and picking one there gives the agent its command. The Scripted agent lists
// `squawk`, `compact` and `review` (its --commands) when a session of it opens.
import { newScriptedChat, promptBlocks, sendCommand } from './chat-view.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The words of each prompt the scripted agent received: its text blocks joined. What rides along as a link (the
 * active editor an earlier scenario left open) is not the command.
 */
function prompts(ctx) {
  return promptBlocks(ctx.promptLog).map((blocks) => blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n'));
}

/** The chat input's text. */
async function inputText(ui) {
  return ui.page.locator('.interactive-input-editor .view-lines').first().innerText();
}

/** Waits until the chat input reads what `ok` accepts; its text. */
async function inputOnce(ui, ok, what) {
  let text = '';
  for (let waited = 0; waited < 15_000; waited += 250) {
    text = (await inputText(ui)).replace(/\u00a0/g, ' ');
    if (ok(text)) return text;
    await sleep(250);
  }
  throw new Error(`the chat input never read ${what}; it reads ${JSON.stringify(text)}`);
}

export const SLASH_COMMAND_SCENARIOS = [
  {
    name: 'chat: commands — /squawk typed reaches the agent as typed; //compact reaches it as its /compact, not Copilot\'s',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      const before = prompts(ctx).length;
      await sendCommand(ui, '/squawk loudly');
      c.note('squawk', await ui.response((t) => t.includes('You said: /squawk loudly'), "the agent's echo of /squawk"));
      await ui.idle();
      await sendCommand(ui, '//compact keep the tests');
      c.note('compact', await ui.response((t) => t.includes('You said: /compact keep the tests'), "the agent's echo of its /compact"));
      await ui.idle();
      await ui.screenshot('chat-commands-typed');
      const received = c.note('prompts', prompts(ctx).slice(before));
      c.ok(received[0] === '/squawk loudly', `the agent was not given /squawk as typed: ${JSON.stringify(received)}`);
      c.ok(received[1] === '/compact keep the tests', `the agent was not given its /compact: ${JSON.stringify(received)}`);
    },
  },
  {
    name: 'chat: commands — the / menu lists the agent\'s commands as /mcp.agent.<name>; one picked gives the agent its command',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      // A session of the agent opens (a message, or the spare opened ahead): it lists its commands.
      await ui.send('say ready');
      await ui.response((t) => t.includes('ready'), 'the reply');
      await ui.idle();
      const before = prompts(ctx).length;
      await ui.page.locator('.interactive-input-editor').first().click();
      await ui.page.keyboard.type('/mcp.agent.');
      const rows = ui.page.locator('.suggest-widget .monaco-list-row');
      let listed = [];
      for (let attempt = 0; attempt < 20; attempt++) {
        listed = await rows.allInnerTexts().catch(() => []);
        if (listed.some((t) => t.includes('mcp.agent.squawk'))) break;
        // The menu opens on typing; typed again when it did not (or before the server's prompts were in).
        await ui.page.keyboard.press('Control+A');
        await ui.page.keyboard.press('Backspace');
        await sleep(1000);
        await ui.page.keyboard.type('/mcp.agent.');
      }
      c.note('listed', listed);
      await ui.screenshot('chat-commands-menu');
      for (const name of ['squawk', 'compact', 'review']) c.ok(listed.some((t) => t.includes(`mcp.agent.${name}`)), `the / menu lists no /mcp.agent.${name}: ${JSON.stringify(listed)}`);
      c.ok(listed.some((t) => t.includes('Scripted squawk')), `the / menu shows not the command's description: ${JSON.stringify(listed)}`);
      await ui.page.keyboard.type('squawk');
      await ui.page.keyboard.press('Enter');
      // The command takes input (its hint): VS Code asks for it.
      await ui.quickInput('Value for: input', 'loudly');
      const input = c.note('input', await inputOnce(ui, (t) => t.includes('//squawk'), 'the command'));
      c.equal(input.trim(), '//squawk loudly', 'the chat input after the prompt was picked');
      await ui.page.keyboard.press('Enter');
      c.note('response', await ui.response((t) => t.includes('You said: /squawk loudly'), "the agent's echo of its /squawk"));
      await ui.idle();
      c.equal(prompts(ctx).slice(before)[0], '/squawk loudly', 'what the agent was given');
    },
  },
  {
    name: 'chat: commands — Symposium: Agent Commands… lists the agent\'s commands; the one picked goes into the input for the agent',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.send('say ready');
      await ui.response((t) => t.includes('ready'), 'the reply');
      await ui.idle();
      const before = prompts(ctx).length;
      await ui.command('Symposium: Agent Commands');
      const rows = ui.page.locator('.quick-input-widget .monaco-list-row');
      await rows.filter({ hasText: '/review' }).first().waitFor({ timeout: 15_000 });
      const listed = c.note('listed', await rows.allInnerTexts());
      await ui.screenshot('chat-agent-commands');
      for (const name of ['squawk', 'compact', 'review']) c.ok(listed.some((t) => t.includes(`/${name}`)), `the quick pick lists no /${name}: ${JSON.stringify(listed)}`);
      c.ok(listed.some((t) => t.includes('Scripted review') && t.includes('what to review')), `the quick pick shows not what /review does: ${JSON.stringify(listed)}`);
      c.ok(listed.join('\n').includes('Scripted'), 'the quick pick names not the agent');
      await ui.page.keyboard.type('review');
      await ui.page.keyboard.press('Enter');
      const input = c.note('input', await inputOnce(ui, (t) => t.includes('//review'), 'the command'));
      c.equal(input.trim(), '//review', 'the chat input after the command was picked');
      await ui.page.keyboard.press('End');
      await ui.page.keyboard.type('the diff');
      await ui.page.keyboard.press('Enter');
      c.note('response', await ui.response((t) => t.includes('You said: /review the diff'), "the agent's echo of its /review"));
      await ui.idle();
      c.equal(prompts(ctx).slice(before)[0], '/review the diff', 'what the agent was given');
    },
  },
];
