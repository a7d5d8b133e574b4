// Scenarios in VS Code's own Chat view (Copilot Chat 0.67) with the real Claude Code: claude-agent-acp (a
// devDependency) as `symposium.agents` entries, run by this Node against a scripted Anthropic API on 127.0.0.1
// (test/fixtures/anthropic-mock.ts, compiled into dist/), in a workbench of their own (run.mjs,
// runClaudeWorkbench). Each agent entry has a fresh HOME and Claude config dir of its own; "Claude Code" has the
// mock's dummy key in its environment, "Keyless Claude" none, as a person's first try before setting one.
// The mock answers each prompt by its words: `say …` with those words, `run touch FILE` with a Bash tool call,
// `create FILE` by loading Copilot's create_file (ToolSearch, as Claude Code loads MCP tools) and calling it, `run
// COMMAND` likewise with Copilot's run_in_terminal where Claude Code names it (agent mode: its Bash is off), else Bash.
// Each scenario leaves a screenshot in the artifacts dir.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChatView, Checks, checkRefusedInOneLine, sendCommand } from './chat-view.mjs';
import { rewindScenarios } from './claude-rewind-view.mjs';
import { continueScenarios } from './claude-continue-view.mjs';
import { terminalScenarios } from './claude-terminal-view.mjs';
import { steerScenarios } from './claude-steer-view.mjs';
import { reloadScenarios } from './claude-reload-view.mjs';
import { lastWindowScenario, windowsScenarios } from './claude-windows-view.mjs';
import { allowUntilRunning, commandResults, eventually, keepModelRequest, processesRunning, terminalNames } from './command-stops.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where claude-agent-acp and the Claude binary it runs are installed: the repository's devDependency, or the release test:agents-latest names. */
const CLAUDE_ROOT = process.env.SYMPOSIUM_CLAUDE_AGENT_ROOT || REPO;
const CLAUDE_AGENT_ACP = join(CLAUDE_ROOT, 'node_modules', '@agentclientprotocol', 'claude-agent-acp', 'dist', 'index.js');
const COMPILED_MOCK = join(REPO, 'dist', 'test', 'fixtures', 'anthropic-mock.js');
const COMPILED_MOCK_BASE = join(REPO, 'dist', 'test', 'fixtures', 'model-api-mock.js');
/** Copilot's create_file as Claude Code sees it: a tool of the bridge's MCP server. */
const BRIDGED_CREATE_FILE = /mcp__vscode-tools-[0-9a-f]+__create_file/;
/** The consumer's command tool likewise: Copilot's run_in_terminal, Cline's run_commands, Roo's execute_command. */
const BRIDGED_COMMAND_TOOL = /mcp__vscode-tools-[0-9a-f]+__(?:run_in_terminal|run_commands|execute_command)/;
/** What starts two subagents in parallel, and their descriptions; each subagent's prompt names it. */
const SURVEYS_ASKED = { 'survey the workspace with two subagents': ['Alpha survey', 'Beta survey'], 'survey slowly with two subagents': ['Slow alpha survey', 'Slow beta survey'] };
const SUBAGENT_PROMPT = /Do the (.+ survey) of this workspace\./;
/** A subagent that writes the file its prompt names through Copilot's create_file. */
const NOTES_WRITER = 'Notes writer';
const NOTES_PROMPT = /Write (\S+) as the notes writer\./;
/** The dummy key the mock's `claudeEnv` gives Claude Code; the mock records it (`x-api-key`) and checks none. */
const MOCK_API_KEY = 'dummy';

/**
 * The scripted Anthropic API for these scenarios, started on a free port of 127.0.0.1; `close()` it at the end.
 * `workspace` is where create_file writes.
 */
export async function startAnthropicMock(workspace) {
  if (!existsSync(COMPILED_MOCK)) throw new Error(`no ${COMPILED_MOCK}: run \`npm run build\` first`);
  const m = await import(COMPILED_MOCK);
  const { textReply } = await import(COMPILED_MOCK_BASE);
  const respond = (_view, recorded) => {
    const request = m.messagesOf(recorded);
    const results = m.lastToolResults(request);
    // A subagent's own conversation begins with its prompt: it reads the README, then reports (a slow one streams its
    // report for far longer than the scenario waits).
    const survey = SUBAGENT_PROMPT.exec(m.userTexts(request)[0] ?? '')?.[1];
    if (survey?.startsWith('Slow')) return { content: [{ type: 'text', text: Array.from({ length: 400 }, (_, i) => `${i} `) }], delayMs: 50 };
    if (survey !== undefined && results.length === 0) return m.toolUseReply('Read', { file_path: join(workspace, 'README.md') });
    if (survey !== undefined) return { ...textReply(`${survey} found `, 'a demo README. ', 'It has ', 'one heading.'), delayMs: 400 };
    // A subagent that writes a file through Copilot's create_file: ToolSearch for it, the call, then its report.
    const notes = NOTES_PROMPT.exec(m.userTexts(request)[0] ?? '')?.[1];
    if (notes !== undefined) {
      const createFile = BRIDGED_CREATE_FILE.exec(JSON.stringify(request.messages))?.[0];
      const used = m.toolUses(request).map((u) => u.name);
      if (createFile === undefined) return textReply('I have no create_file tool.');
      if (used.includes(createFile)) return textReply(`${NOTES_WRITER} wrote ${notes}.`);
      if (used.includes('ToolSearch')) return m.toolUseReply(createFile, { filePath: join(workspace, notes), content: `written by a subagent into ${notes}\n` });
      return m.toolUseReply('ToolSearch', { query: `select:${createFile}`, max_results: 1 });
    }
    // After a stopped turn Claude Code sends the stopped call's result with the person's next words, in one message:
    // those words are what the model answers.
    const lastText = m.blocksOf(m.lastUserMessage(request) ?? { content: [] }).filter(m.isTextBlock).at(-1)?.text.trim() ?? '';
    const typedAnew = /^(say|run|create|which mode)\b/.test(lastText);
    if (results.length > 0 && !typedAnew) {
      const used = m.toolUses(request).at(-1);
      if (used.name === 'Agent') return used.input.description === NOTES_WRITER ? textReply('The subagent ', 'wrote it.') : textReply('Both surveys agree: ', 'a demo workspace.');
      if (used.name === 'Bash') return results[0].is_error ? textReply('I left ', 'the file alone, ', 'as you asked.') : textReply('Done: ', `${used.input.command} ran.`);
      if (used.name === 'ToolSearch' && BRIDGED_COMMAND_TOOL.test(used.input.query)) return m.toolUseReply(used.input.query.replace(/^select:/, ''), pendingCommand(request));
      if (used.name === 'ToolSearch') return m.toolUseReply(BRIDGED_CREATE_FILE.exec(JSON.stringify(request.messages))[0], pendingCreate(request));
      if (BRIDGED_COMMAND_TOOL.test(used.name)) {
        const output = m.toolResultText(results[0]);
        // A refusal (Copilot's Skip, Cline's and Roo's Reject / Deny) is answered as one, whatever else it says.
        return /skip|denied|reject/i.test(output) ? textReply('I left ', 'it alone, ', 'as you asked.') : textReply('Terminal said: ', output.trim());
      }
      return textReply('Created it: ', m.toolResultText(results[0]));
    }
    const said = typedAnew ? lastText : m.lastUserText(request).trim();
    const toWrite = /^have a subagent create (\S+)$/.exec(said)?.[1];
    if (toWrite !== undefined) return m.toolUseReply('Agent', { description: NOTES_WRITER, prompt: `Write ${toWrite} as the notes writer.`, subagent_type: 'general-purpose', run_in_background: false });
    const surveys = SURVEYS_ASKED[said];
    if (surveys !== undefined) {
      // Two subagents at once, in the foreground (this Claude Code runs them in the background unless told not to).
      const agent = (name) => m.toolUseReply('Agent', { description: name, prompt: `Do the ${name} of this workspace.`, subagent_type: 'Explore', run_in_background: false }).content;
      return { content: surveys.flatMap(agent) };
    }
    const command = /^run (.+)$/.exec(said);
    if (command) {
      const terminal = BRIDGED_COMMAND_TOOL.exec(JSON.stringify(request.messages))?.[0];
      if (terminal !== undefined) return m.toolUseReply('ToolSearch', { query: `select:${terminal}`, max_results: 1 });
      return m.toolUseReply('Bash', { command: command[1], description: `Run ${command[1]}` });
    }
    if (/^create \S+$/.test(said)) {
      // Claude Code names MCP tools in a message and loads them with ToolSearch before calling them.
      const name = BRIDGED_CREATE_FILE.exec(JSON.stringify(request.messages))?.[0];
      if (name === undefined) return textReply('I have no create_file tool.');
      return m.toolUseReply('ToolSearch', { query: `select:${name}`, max_results: 1 });
    }
    if (/^which mode\b/.test(said)) {
      // Claude Code tells its model of its plan mode in a reminder among the turn's user messages.
      const turn = request.messages.slice(request.messages.map((message) => message.role).lastIndexOf('assistant') + 1);
      return textReply(JSON.stringify(turn).includes('Plan mode is active') ? 'Claude is planning only.' : 'Claude may act.');
    }
    // A long answer, streamed slowly enough for the person to reload the window while it runs.
    const count = /^count (\d+)$/.exec(said);
    if (count !== null) return { content: [{ type: 'text', text: Array.from({ length: Number(count[1]) }, (_, i) => `c${i + 1} `) }], delayMs: 100 };
    const words = /^say (.+)$/s.exec(said);
    return textReply(...(words ? words[1] : `Claude heard: ${said}`).split(/(?<= )/));
  };
  /** The create_file input for the last `create FILE` the person typed. */
  const pendingCreate = (request) => {
    const file = m.userTexts(request).map((t) => /^create (\S+)$/.exec(t.trim())?.[1]).filter(Boolean).at(-1);
    return { filePath: join(workspace, file), content: `written by Claude into ${file}\n` };
  };
  /**
   * The command tool's input for the last `run COMMAND` the person typed, by the schema the consumer gave the tool (it
   * changes with VS Code's version and the person's shell): the command (a list of one for Cline's `commands`), and
   * each other required field filled.
   */
  const pendingCommand = (request) => {
    const command = m.userTexts(request).map((t) => /^run (.+)$/.exec(t.trim())?.[1]).filter(Boolean).at(-1);
    const schema = (request.tools ?? []).find((t) => BRIDGED_COMMAND_TOOL.test(t.name))?.input_schema ?? {};
    const input = schema.properties?.command === undefined && schema.properties !== undefined ? {} : { command };
    for (const field of schema.required ?? []) {
      const property = schema.properties?.[field] ?? {};
      if (field === 'command') continue;
      // A field that may be null (Roo's cwd and timeout, which it offers as `anyOf` a type and null) is left to the
      // tool's default.
      if ([property.type, ...(property.anyOf ?? []).map((alternative) => alternative.type)].flat().includes('null')) input[field] = null;
      else if (property.type === 'array') input[field] = [command];
      else if (Array.isArray(property.enum)) input[field] = property.enum.includes('sync') ? 'sync' : property.enum[0];
      else if (property.type === 'boolean') input[field] = false;
      else if (property.type === 'number' || property.type === 'integer') input[field] = 30_000;
      else input[field] = `Run ${command}`;
    }
    return input;
  };
  const mock = await m.AnthropicMock.start({ respond });
  return Object.assign(mock, {
    lastUserTextOf: (recorded) => m.lastUserText(m.messagesOf(recorded)).trim(),
    sessionIdOf: m.sessionIdOf,
    /** The texts of the tool results the model was given last in a request. */
    toolResultsOf: (recorded) => m.lastToolResults(m.messagesOf(recorded)).map(m.toolResultText),
    /** The results of the consumer's command tool the model was given last in a request: their text and is_error. */
    commandResultsOf: (recorded) => {
      const request = m.messagesOf(recorded);
      const commandCalls = new Set(m.toolUses(request).filter((u) => BRIDGED_COMMAND_TOOL.test(u.name)).map((u) => u.id));
      return m.lastToolResults(request).filter((r) => commandCalls.has(r.tool_use_id)).map((r) => ({ text: m.toolResultText(r), isError: r.is_error === true }));
    },
    userTextsOf: (recorded) => m.userTexts(m.messagesOf(recorded)).map((t) => t.trim()),
  });
}

/** Claude Code's binary as claude-agent-acp finds it here (a platform package of the Claude Agent SDK). */
const CLAUDE_BINARY = join(CLAUDE_ROOT, 'node_modules', '@anthropic-ai', `claude-agent-sdk-linux-${process.arch}`, 'claude');

/**
 * The `symposium.agents` entries: "Claude Code" with the mock's key, "Keyless Claude" without one (id `claude-code`: a full entry in place of the built-in, which signs in as it does); each with its
 * own HOME and CLAUDE_CONFIG_DIR under `runDir`. With `terminal` ({workspace, cli}: the catalogue's CLI route of
 * Claude Code), "Claude Code" also names its CLI, the binary claude-agent-acp runs (CLAUDE_CODE_EXECUTABLE, which
 * both read), and its HOME lets Claude's TUI start without asking: onboarding done, the workspace trusted, the mock's
 * key approved (Claude's global config, `.claude.json` in CLAUDE_CONFIG_DIR).
 */
export function claudeAgents(runDir, mock, terminal) {
  const entry = (id, name, withKey) => {
    const home = join(runDir, `${id}-home`);
    mkdirSync(join(home, '.claude'), { recursive: true });
    const env = Object.fromEntries(mock.claudeEnv({ home, configDir: join(home, '.claude') }).map(({ name: n, value }) => [n, value]));
    if (!withKey) delete env.ANTHROPIC_API_KEY;
    if (terminal === undefined || !withKey) return { id, name, command: process.execPath, args: [CLAUDE_AGENT_ACP], env };
    writeFileSync(
      join(home, '.claude', '.claude.json'),
      JSON.stringify({ hasCompletedOnboarding: true, theme: 'dark', customApiKeyResponses: { approved: [env.ANTHROPIC_API_KEY.slice(-20)], rejected: [] }, projects: { [terminal.workspace]: { hasTrustDialogAccepted: true } } }),
    );
    return { id, name, command: process.execPath, args: [CLAUDE_AGENT_ACP], env: { ...env, CLAUDE_CODE_EXECUTABLE: CLAUDE_BINARY }, cli: terminal.cli };
  };
  return [entry('claude', 'Claude Code', true), entry('claude-code', 'Keyless Claude', false)];
}

/** Settings of the Chat view that these scenarios need besides the consumer workbench's (as run.mjs's own). */
export const CHAT_VIEW_SETTINGS = {
  'chat.allowAnonymousAccess': true,
  'chat.byokUtilityModelDefault': 'mainAgent',
  // The person's own rule for Copilot's terminal tool: `echo` runs unasked.
  'chat.tools.terminal.autoApprove': { echo: true },
};

/** Text without its white space: a command as a confirmation shows it, wrapped and highlighted. */
const unwrapped = (text) => text.replace(/\s+/g, '');

/** The conversation requests the mock got whose last user words are `said`. */
const requestsFor = (ctx, said) => ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r) === said);

/**
 * Claude Code's entry in the picker once its first session has said which models it offers: one entry per model,
 * named by the agent and the model (the agent's default first).
 */
const CLAUDE_MODEL = 'Claude Code · Default (recommended)';

/** A new chat on Claude Code's default model, picked unless it is already. */
async function newClaudeChat(ui) {
  await ui.newChat();
  if ((await ui.page.locator(`.model-picker-item [aria-label="Models, ${CLAUDE_MODEL}"]`).count()) === 0) await ui.pickListedModel(CLAUDE_MODEL);
}

export const CLAUDE_SCENARIOS = [
  {
    name: 'claude: Claude Code answers in the Chat view, and a follow-up goes on in the same Claude session',
    async run(ui, c, ctx) {
      await newClaudeChat(ui);
      await ui.send('say Hello from Claude');
      c.includes(c.note('answer', await ui.response((t) => t.includes('Hello from Claude') && t.includes('Claude Code'), "Claude's answer, named")), 'Hello from Claude', "Claude's answer");
      await ui.idle();
      await ui.send('say And a follow-up');
      c.note('follow-up', await ui.response((t) => t.includes('And a follow-up'), 'the follow-up'));
      await ui.idle();
      const first = requestsFor(ctx, 'say Hello from Claude');
      const next = requestsFor(ctx, 'say And a follow-up');
      c.ok(first.length === 1 && next.length === 1, `the model was asked ${first.length} and ${next.length} times, not once each`);
      const sessions = c.note('sessions', [ctx.mock.sessionIdOf(first[0]), ctx.mock.sessionIdOf(next[0])]);
      c.ok(sessions[0] !== undefined && sessions[0] === sessions[1], `the follow-up went to another Claude session: ${JSON.stringify(sessions)}`);
      // The follow-up's request holds the first exchange: Claude's own session went on.
      c.includes(JSON.stringify(next[0].body.messages), 'Hello from Claude', "the follow-up's request (the first exchange)");
      c.equal(next[0].headers['x-api-key'], MOCK_API_KEY, "the follow-up's API key");
    },
  },
  {
    name: 'claude: the picker reads "Claude Code" and its model, not its mode',
    async run(ui, c) {
      await newClaudeChat(ui);
      await ui.send('say a word for the picker');
      await ui.response((t) => t.includes('a word for the picker'), 'the answer');
      await ui.idle();
      const picker = ui.page.locator('.model-picker-item').first();
      c.equal(c.note('pickerLabel', await picker.locator('.chat-input-picker-label').first().innerText()), CLAUDE_MODEL, "the picker's label");
      c.ok((await picker.locator('.model-picker-config:visible').count()) === 0, "a button of the model's options beside the picker");
      // The list names each of Claude Code's models after the agent, and says it is ready.
      const rows = c.note('pickerRows', await ui.pickerRows('Claude Code'));
      c.ok(rows.some((r) => r.includes(CLAUDE_MODEL) && r.includes('ready')), `no ready "${CLAUDE_MODEL}" in the picker: ${JSON.stringify(rows)}`);
      await ui.screenshot('claude-picker-names-the-agent');
      await ui.page.keyboard.press('Escape');
    },
  },
  {
    // claude-agent-acp 0.101 begins sessions in Auto; the bridge sets Manual unless the person picks another mode.
    name: "claude: Auto picked among Claude Code's options is set and said once, in a line of its own; Claude's own warning is a line of its own, not glued to the answer",
    async run(ui, c) {
      await ui.setModelOption(CLAUDE_MODEL, 'Mode', 'Auto');
      try {
        await newClaudeChat(ui);
        await ui.send('say Picked in Auto.');
        const answer = c.note('answer', await ui.response((t) => t.includes('Picked in Auto.') && t.includes('acts without asking'), 'the answer, with the line that Claude Code acts unasked'));
        await ui.idle();
        c.includes(answer, 'Claude Code acts without asking you in this chat', 'the line that Claude Code acts unasked');
        c.ok(!/Picked in Auto\.\S/.test(answer), `a notice glued to the answer: ${JSON.stringify(answer)}`);
        await ui.screenshot('claude-auto-picked');
        await ui.send('say Still in Auto.');
        const next = c.note('next answer', await ui.response((t) => t.includes('Still in Auto.'), 'the next answer'));
        await ui.idle();
        c.excludes(next, 'acts without asking', 'the next answer (said once)');
      } finally {
        await ui.setModelOption(CLAUDE_MODEL, 'Mode', 'Manual');
      }
    },
  },
  {
    name: "claude: a command runs through Copilot's run_in_terminal: Copilot's own confirmation, once; it runs in VS Code's terminal, and its output reaches Claude",
    async run(ui, c, ctx) {
      await newClaudeChat(ui);
      const file = join(ctx.workspace, 'claude-terminal.txt');
      const said = 'run touch claude-terminal.txt && echo made-it';
      await ui.send(said);
      const confirmation = c.note('confirmation', await ui.confirmation());
      // The command is shown highlighted, wrapped where the view is narrow.
      c.includes(unwrapped(confirmation), 'touchclaude-terminal.txt&&echomade-it', "Copilot's confirmation names the command");
      c.excludes(confirmation, 'Allow agent action', "the confirmation (Symposium's, not Copilot's)");
      await ui.screenshot('claude-terminal-confirmation');
      c.ok(!existsSync(file), 'the command ran before the person allowed it');
      await ui.click('Allow');
      const answer = c.note('answer', await ui.response((t) => /Terminal said:[^]*made-it/.test(t), "Claude's answer with the command's output"));
      await ui.idle();
      c.ok(/Terminal said:[^]*made-it/.test(answer), "Claude's answer does not hold the command's output");
      c.ok(c.note('results', ctx.mock.conversation().flatMap((r) => ctx.mock.toolResultsOf(r))).some((t) => t.includes('made-it')), "the command's output did not reach Claude's model");
      c.ok(existsSync(file), 'the command did not run after Allow');
      // One confirmation: the answer came after one Allow, and nothing is left to confirm.
      c.equal(c.note('pending', await ui.page.locator('.chat-confirmation-widget-container:visible').count()), 0, 'confirmations still pending');
      // Claude Code's model had no Bash: the command went through the offered tool.
      const asked = requestsFor(ctx, said);
      c.ok(asked.length > 0 && asked.every((r) => !(r.body.tools ?? []).some((t) => t.name === 'Bash')), "Claude's model was given its Bash");
      await ui.screenshot('claude-terminal-ran');
    },
  },
  {
    name: "claude: a command the person's chat.tools.terminal.autoApprove rules allow runs without a confirmation, and its output reaches Claude",
    async run(ui, c) {
      await newClaudeChat(ui);
      // Copilot applies the rules once the person accepted its warning, the first time (a choice of Allow's menu).
      await ui.send('run echo approved-by-rule');
      c.note('opt-in', await ui.confirmation());
      // Copilot first assesses the command's risk ("Assessing risk…") and redraws the confirmation when it is done: a
      // menu opened before that can be redrawn away under the click, and no dialog comes. Wait it out, and open the
      // menu once more if the dialog still does not come.
      const confirmationWidget = ui.page.locator('.chat-confirmation-widget-container:visible').last();
      await confirmationWidget.getByText('Assessing risk', { exact: false }).waitFor({ state: 'detached', timeout: 30_000 }).catch(() => {});
      // A click on the menu's item has been seen to leave the menu open and no dialog (1 run in 4, the whole suite):
      // the item, focused when the menu opens, is taken with Enter too before the menu is opened once more.
      const enable = ui.page.locator('.monaco-dialog-box').getByRole('button', { name: 'Enable', exact: true });
      const item = ui.page.getByRole('menuitem', { name: 'Enable Auto Approve...' });
      const dialogShown = () => enable.waitFor({ timeout: 5_000 }).then(() => true, () => false);
      const tries = [];
      for (let attempt = 1; attempt <= 3 && !(await enable.isVisible()); attempt++) {
        await ui.page.locator('.chat-confirmation-widget-buttons .monaco-dropdown-button').last().click();
        await item.waitFor({ timeout: 10_000 });
        await item.click();
        if (await dialogShown()) { tries.push(`click ${attempt}`); break; }
        if (await item.isVisible()) {
          await item.focus();
          await ui.page.keyboard.press('Enter');
          if (await dialogShown()) { tries.push(`Enter ${attempt}`); break; }
        }
        tries.push(`none ${attempt}`);
        await ui.page.keyboard.press('Escape');
      }
      c.note('auto-approve dialog after', tries.join(', '));
      await enable.click();
      c.note('first', await ui.response((t) => /Terminal said:[^]*approved-by-rule/.test(t), "Claude's answer with the first command's output"));
      await ui.idle();
      // From then on a command the rules allow runs unasked.
      await ui.send('run echo again-by-rule');
      c.note('answer', await ui.response((t) => /Terminal said:[^]*again-by-rule/.test(t), "Claude's answer with the second command's output"));
      await ui.idle();
      // Nobody clicked: the answer came with no confirmation, and none is pending.
      c.equal(c.note('pending', await ui.page.locator('.chat-confirmation-widget-container:visible').count()), 0, 'confirmations pending for the command the rules allow');
      await ui.screenshot('claude-terminal-auto-approved');
    },
  },
  {
    name: "claude: a command the person skips in Copilot's confirmation does not run; Claude reads the refusal and answers once",
    async run(ui, c, ctx) {
      await newClaudeChat(ui);
      const file = join(ctx.workspace, 'claude-skipped.txt');
      await ui.send('run touch claude-skipped.txt');
      c.includes(unwrapped(c.note('confirmation', await ui.confirmation())), 'touchclaude-skipped.txt', "Copilot's confirmation names the command");
      await ui.click('Skip');
      const text = c.note('answer', await ui.response((t) => t.includes('as you asked.'), 'the answer after Skip'));
      await ui.idle();
      await ui.screenshot('claude-terminal-skipped');
      c.ok(text.split('as you asked.').length === 2, "Claude's words after the refusal show more than once");
      c.ok(!existsSync(file), 'the command ran although the person skipped it');
    },
  },
  {
    name: "claude: a file Claude creates goes through Copilot's create_file, listed with Keep / Undo; Undo removes it",
    async run(ui, c, ctx) {
      await newClaudeChat(ui);
      const file = join(ctx.workspace, 'claude-notes.txt');
      await ui.send('create claude-notes.txt');
      c.note('answer', await ui.response((t) => t.includes('Created it:'), "Claude's answer after create_file"));
      await ui.idle();
      c.includes(c.note('changed files', await ui.changedFiles()), '1 file changed', 'the list of changed files above the input');
      // Copilot creates the file empty, then edits and saves it: once on a loaded machine the list showed before the save.
      const written = 'written by Claude into claude-notes.txt\n';
      await eventually(() => existsSync(file) && readFileSync(file, 'utf8') === written, 5000);
      c.equal(readFileSync(file, 'utf8'), written, 'the created file');
      await ui.screenshot('claude-create-file-keep-undo');
      c.note('undo asked', await ui.review('Undo'));
      c.ok(!existsSync(file) || readFileSync(file, 'utf8') === '', 'Undo left the created file');
    },
  },
  {
    name: 'claude: no key — the first message ends within 10 s saying Claude Code is not signed in and how; Set API Key in the notification, and the message sent again is answered without a reload',
    async run(ui, c, ctx) {
      await ui.newChat();
      await ui.pickListedModel('Keyless Claude');
      const sentAt = Date.now();
      await ui.send('say answered once the key was set');
      // The request ends by itself (issue 60): it does not wait for the notification, whose toast VS Code hides.
      const said = c.note('said', await ui.response((t) => t.includes('is not signed in'), 'the words that Keyless Claude is not signed in', 30_000));
      c.note('saidMs', Date.now() - sentAt);
      await ui.idle(30_000);
      const endedMs = c.note('endedMs', Date.now() - sentAt);
      c.ok(endedMs <= 10_000, `the first message had not ended after ${endedMs} ms`);
      c.includes(said, 'Keyless Claude is not signed in', 'the answer');
      c.includes(said, 'Set ANTHROPIC_API_KEY with "Symposium: Set Agent API Key"', 'the answer (the key its catalogue entry names)');
      // Copilot renders the error's markdown: the commands show as code.
      c.includes(said, 'run claude in a terminal, then /login', "the answer (Claude Code's own sign-in)");
      await ui.screenshot('chat-missing-key-says-what-to-do');
      const toast = await ui.notification('Keyless Claude needs you to sign in.');
      c.note('notification', await toast.innerText());
      await ui.screenshot('claude-missing-key-offered');
      c.ok(requestsFor(ctx, 'say answered once the key was set').length === 0, 'the model was asked before the key was set');
      // Its toast goes to the notification centre after 12 s of a focused window: the person acts on it first.
      await toast.locator('.monaco-button', { hasText: /^Set API Key$/ }).first().click();
      await ui.quickInput('API key for Keyless Claude', 'ANTHROPIC_API_KEY', { row: 'ANTHROPIC_API_KEY' });
      await ui.page.locator('.quick-input-widget input[type="password"]').first().waitFor({ timeout: 10_000 });
      await ui.quickInput('API key', MOCK_API_KEY);
      await ui.notification('Keyless Claude is signed in: send your message again.');
      // Until the agent answers, the picker says what the agent last said: it needs a sign-in.
      const rows = c.note('pickerRowsSignedOut', await ui.pickerRows('Keyless Claude'));
      c.ok(rows.some((r) => r.includes('sign-in needed')), `the picker does not say the agent needs a sign-in: ${JSON.stringify(rows)}`);
      await ui.page.keyboard.press('Escape');
      await ui.send('say answered once the key was set');
      const text = c.note('answer', await ui.response((t) => t.includes('answered once the key was set') && t.includes('Keyless Claude'), "Claude's answer once the key was set"));
      c.excludes(text, 'is not signed in', 'the answer (the request went through once the key was set)');
      await ui.idle();
      await ui.screenshot('claude-missing-key-answered');
      // Copilot keeps the refused message in the chat and sends it with the new one: the model gets both, once.
      const asked = ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r).endsWith('say answered once the key was set'));
      c.note('askedWith', asked.map((r) => ctx.mock.lastUserTextOf(r)));
      c.ok(asked.length === 1 && asked[0].headers['x-api-key'] === MOCK_API_KEY, `the model was not asked once with the key set: ${JSON.stringify(asked.map((r) => r.headers['x-api-key']))}`);
      const ready = c.note('pickerRows', await ui.pickerRows('Keyless Claude'));
      c.ok(ready.some((r) => r.includes('ready')) && !ready.some((r) => r.includes('sign-in needed')), `the picker does not say the agent is ready: ${JSON.stringify(ready)}`);
      await ui.page.keyboard.press('Escape');
    },
  },
];

// The agent's slash commands (issue 38): a scenario block of its own. The workspace holds a command of the person's
// own, `.claude/commands/squawk.md` (written before Claude Code starts), which Claude Code lists and runs.
const SQUAWK = 'Squawk these words back to me:';

/** The workspace's Claude Code command `/squawk`, as a person writes one. */
function writeSquawkCommand(workspace) {
  mkdirSync(join(workspace, '.claude', 'commands'), { recursive: true });
  writeFileSync(join(workspace, '.claude', 'commands', 'squawk.md'), `---\ndescription: Squawk the words given\nargument-hint: what to squawk\n---\n${SQUAWK} $ARGUMENTS\n`);
}

CLAUDE_SCENARIOS.push({
  name: "claude: /squawk, the workspace's command, reaches Claude Code as its command; Symposium: Agent Commands… lists Claude Code's commands",
  async run(ui, c, ctx) {
    await newClaudeChat(ui);
    await sendCommand(ui, '/squawk loudly');
    c.note('answer', await ui.response((t) => t.includes('Claude heard:') && t.includes(`${SQUAWK} loudly`), "Claude's answer to its /squawk"));
    await ui.idle();
    // Claude Code ran it as its command: the model was given the command's text, with its name and arguments.
    const asked = c.note('asked', ctx.mock.conversation().map((r) => ctx.mock.lastUserTextOf(r)).filter((t) => t.includes(`${SQUAWK} loudly`)));
    c.ok(asked.length === 1, `the model was asked ${asked.length} times with the command's text`);
    c.includes(asked[0], '<command-name>/squawk</command-name>', "the model's prompt (the command Claude Code ran)");
    c.includes(asked[0], '<command-args>loudly</command-args>', "the model's prompt (the command's arguments)");
    await ui.command('Symposium: Agent Commands');
    const rows = ui.page.locator('.quick-input-widget .monaco-list-row');
    await rows.filter({ hasText: '/squawk' }).first().waitFor({ timeout: 15_000 });
    const listed = c.note('listed', await rows.allInnerTexts());
    await ui.screenshot('claude-agent-commands');
    c.ok(listed.some((t) => t.includes('/squawk') && t.includes('Squawk the words given') && t.includes('what to squawk')), `the quick pick shows not the workspace's /squawk: ${JSON.stringify(listed)}`);
    // Claude Code's own, found by typing (the list is long: only its rows in view are drawn).
    for (const name of ['compact', 'init']) {
      await ui.page.locator('.quick-input-widget input').first().fill(name);
      c.ok(await rows.filter({ hasText: `/${name}` }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false), `the quick pick lists not Claude Code's /${name}`);
    }
    await ui.page.keyboard.press('Escape');
  },
});

// The Chat view's Plan mode as Claude Code's own (issue 38): the mock answers `which mode…` by whether Claude Code
// told its model that plan mode is active.
CLAUDE_SCENARIOS.push({
  name: "claude: picking Plan mode puts Claude Code in its plan mode before the prompt; Agent mode takes it out",
  async run(ui, c) {
    await newClaudeChat(ui);
    await ui.pickMode('Plan');
    try {
      await ui.send('which mode are you in?');
      c.note('plan', await ui.response((t) => t.includes('Claude is planning only.'), "Claude's answer in its plan mode"));
      await ui.idle();
      await ui.screenshot('claude-plan-mode');
    } finally {
      await ui.pickMode('Agent');
    }
    await ui.send('which mode now?');
    c.note('agent', await ui.response((t) => t.includes('Claude may act.'), "Claude's answer out of its plan mode"));
    await ui.idle();
  },
});

// A message sent while a command runs, steered (VS Code's default) or queued (issue 59).
CLAUDE_SCENARIOS.push(...steerScenarios(newClaudeChat));
CLAUDE_SCENARIOS.push(...reloadScenarios(newClaudeChat));
CLAUDE_SCENARIOS.push(...windowsScenarios(newClaudeChat, CLAUDE_MODEL));

// Stop while a command runs (issue 46): the person stops the turn while Copilot's run_in_terminal runs a long command
// for Claude; the turn ends at once, the command ends with it, and Claude's session takes the next message.
CLAUDE_SCENARIOS.push({
  name: "claude: stop while a command runs through run_in_terminal: the turn ends at once, the command ends, and the next message is answered in the same Claude session",
  async run(ui, c, ctx) {
    await newClaudeChat(ui);
    // An odd duration, so that the process list names this command alone.
    const sleeping = 'sleep 47.3';
    await ui.send(`run ${sleeping}; echo slept-through`);
    // Copilot asks, unless the person's rules allow the command (`sleep` is among its defaults, `echo` theirs, once
    // an earlier scenario accepted its auto-approve warning).
    await allowUntilRunning(ui, c, sleeping);
    await ui.screenshot('claude-terminal-running');
    const stoppedAt = Date.now();
    await ui.stop();
    await ui.idle(10_000);
    c.note('turn ended after ms', Date.now() - stoppedAt);
    c.equal(await ui.page.locator('.chat-execute-toolbar a.action-label.codicon-stop-circle').count(), 0, 'stop buttons shown 10 s after the stop');
    c.ok(await eventually(() => processesRunning(sleeping).length === 0, 10_000), `the command still runs after the stop: ${JSON.stringify(processesRunning(sleeping))}`);
    await ui.screenshot('claude-terminal-stopped');
    await ui.send('say answered after the stop');
    const text = c.note('answer', await ui.response((t) => t.includes('answered after the stop'), 'the answer to the next message'));
    await ui.idle();
    // The stopped turn shows nothing more: not the command's output, nor Claude's reply to the cancelled call.
    c.excludes(text, 'slept-through', 'the answer to the next message');
    c.excludes(text, 'Terminal said', 'the answer to the next message');
    const before = requestsFor(ctx, `run ${sleeping}; echo slept-through`);
    // Claude Code sends the words after its note of the interrupt ("[Request interrupted by user for tool use]").
    const after = ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r).endsWith('say answered after the stop'));
    c.ok(after.length === 1, `the model was asked ${after.length} times for the next message`);
    c.ok(before.length > 0 && ctx.mock.sessionIdOf(after[0]) === ctx.mock.sessionIdOf(before[0]), 'the next message went to another Claude session');
  },
});

// The terminal closed mid-run (issue 54): while Copilot's run_in_terminal runs a long command for Claude, the person
// kills VS Code's terminal that runs it. The call ends with a result that says so (recorded: what Copilot answers),
// Claude goes on or ends its turn, nothing hangs, and the next message is answered in the same Claude session.
CLAUDE_SCENARIOS.push({
  name: "claude: the terminal killed while a command runs through run_in_terminal: the call ends saying so, the turn ends or goes on, nothing hangs, the next message is answered",
  async run(ui, c, ctx) {
    await newClaudeChat(ui);
    // An odd duration, other than the stop scenario's, so that the process list names this command alone; its output
    // ("outlived-42") is not in its words, which the answer shows ("Ran sleep 48.1; …").
    const sleeping = 'sleep 48.1';
    const said = `run ${sleeping}; echo outlived-$((6*7))`;
    const since = ctx.mock.conversation().length;
    await ui.send(said);
    await allowUntilRunning(ui, c, sleeping);
    // Copilot's terminal is hidden ("1 Hidden Terminal" in the panel): the person shows it with the running command's
    // "Show and Focus Terminal" in the chat, then kills it with the panel's Kill Terminal (its trash icon).
    c.note('terminals before', await terminalNames(ui.page));
    await ui.page.locator('.interactive-response').last().locator('a.action-label[title="Show and Focus Terminal"], a.action-label[aria-label="Show and Focus Terminal"]').first().click({ timeout: 10_000 });
    const kill = ui.page.locator('.part.panel a.action-label[aria-label^="Kill Terminal"]').first();
    await kill.waitFor({ timeout: 10_000 });
    c.note('terminals', await terminalNames(ui.page));
    await ui.screenshot('claude-terminal-to-kill');
    await kill.click();
    c.ok(await eventually(() => processesRunning(sleeping).length === 0, 10_000), `the command still runs after its terminal was killed: ${JSON.stringify(processesRunning(sleeping))}`);
    c.note('terminals after the kill', await terminalNames(ui.page));
    // The turn ends (Claude answered whatever the call's result said) or goes on: nothing hangs.
    await ui.idle(30_000);
    c.equal(await ui.page.locator('.chat-execute-toolbar a.action-label.codicon-stop-circle').count(), 0, 'stop buttons shown 30 s after the terminal was killed');
    const text = c.note('answer', await ui.response(() => true, 'the answer'));
    await ui.screenshot('claude-terminal-killed');
    const results = commandResults(ctx.mock, since);
    c.note('model got', results.map(({ text: t, isError }) => ({ text: t, isError })));
    for (const [i, result] of results.entries()) keepModelRequest(ctx, `copilot-terminal-killed-${i + 1}`, result.request);
    c.ok(results.length === 1, `Claude's model got ${results.length} results of the command, not one`);
    c.ok(!results[0].text.includes('outlived-42'), `Claude's model got the command's success: ${JSON.stringify(results[0].text)}`);
    c.excludes(text, 'outlived-42', 'the answer');
    const session = ctx.mock.sessionIdOf(results[0].request);
    await ui.send('say answered after the terminal closed');
    c.note('next answer', await ui.response((t) => t.includes('answered after the terminal closed'), 'the answer to the next message'));
    await ui.idle();
    const after = ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r).endsWith('say answered after the terminal closed'));
    c.ok(after.length === 1, `the model was asked ${after.length} times for the next message`);
    c.ok(ctx.mock.sessionIdOf(after[0]) === session, 'the next message went to another Claude session');
  },
});

// Subagents (issue 51): Claude starts two subagents at once, each of which reads the workspace's README with its Read.
/** What starts the two subagents that survey the workspace, and the README they read (written into `workspace`). */
export const SUBAGENT_SURVEY = 'survey the workspace with two subagents';
export function writeSurveyReadme(workspace) {
  writeFileSync(join(workspace, 'README.md'), '# Survey demo\n\nA workspace for subagents to read.\n');
}

/**
 * What is wrong with the answer to SUBAGENT_SURVEY as a consumer shows it (none: []): each subagent named by its task,
 * each Read under its subagent's name, one end line each with its outcome and its report's first sentence, none of
 * Claude Code's markup, the main answer once.
 */
export function subagentSurveyProblems(text) {
  const problems = [];
  for (const s of SURVEYS_ASKED[SUBAGENT_SURVEY]) {
    if (!text.includes(`🤖 ${s}`)) problems.push(`${s} is not named by its task`);
    if (!text.includes(`${s} › Read README.md`)) problems.push(`${s}'s Read is not under its name`);
    const ends = text.split('\n').filter((line) => line.includes(`${s} (Explore):`));
    if (ends.length !== 1 || !/: done · 1 tool use · [\d.]+k? tokens · \d+ s — .+ found a demo README\.$/.test(ends[0].trim())) problems.push(`${s}'s end lines: ${JSON.stringify(ends)}`);
  }
  const reads = text.split('Read README.md').length - 1;
  const underSubagents = SURVEYS_ASKED[SUBAGENT_SURVEY].map((s) => text.split(`${s} › Read README.md`).length - 1).reduce((a, b) => a + b);
  if (reads !== underSubagents) problems.push(`${reads - underSubagents} reads shown without their subagent`);
  for (const markup of ['tools-used-before-summary', 'Subagent hand-back', '🔧 Task', '🤖 Task']) if (text.includes(markup)) problems.push(`the answer shows ${JSON.stringify(markup)}`);
  const tag = /<\/?[A-Za-z][\w-]*>/.exec(text);
  if (tag !== null) problems.push(`the answer shows the tag ${tag[0]}`);
  const main = text.split('Both surveys agree: a demo workspace.').length - 1;
  if (main !== 1) problems.push(`the main answer shows ${main} times`);
  return problems;
}

/** The conversation requests of the subagents named `names` (each one's first user words are its prompt). */
export const subagentRequests = (ctx, names) => ctx.mock.conversation().filter((r) => names.some((n) => ctx.mock.userTextsOf(r)[0]?.includes(`Do the ${n} of this workspace.`)));

CLAUDE_SCENARIOS.push({
  name: "claude: two subagents at once: each named by its task while it runs, each Read under its subagent's name, one end line each with its outcome and no markup, the main answer once",
  async run(ui, c, ctx) {
    await newClaudeChat(ui);
    writeSurveyReadme(ctx.workspace);
    const surveys = SURVEYS_ASKED[SUBAGENT_SURVEY];
    await ui.send(SUBAGENT_SURVEY);
    // While they run (their reports still streaming): named, each with its read, no end line yet.
    const running = c.note('running', await ui.response((t) => surveys.every((s) => t.includes(`${s} › Read README.md`)), 'both subagents named, with their reads'));
    await ui.screenshot('claude-subagents-running');
    for (const s of surveys) c.includes(running, `🤖 ${s}`, 'the answer while the subagents run (each named by its task)');
    c.ok(!running.includes('Both surveys agree') && surveys.some((s) => !running.includes(`${s} (Explore): done`)), 'no subagent was seen running: both had ended when first read');
    const text = c.note('answer', await ui.response((t) => t.includes('Both surveys agree: a demo workspace.'), "Claude's answer after its subagents"));
    await ui.idle();
    await ui.screenshot('claude-subagents-done');
    const problems = subagentSurveyProblems(text);
    c.ok(problems.length === 0, problems.join('; '));
    c.equal(c.note('subagent requests', subagentRequests(ctx, surveys).length), 4, 'model requests of the two subagents (a Read and a report each)');
  },
});

CLAUDE_SCENARIOS.push({
  name: 'claude: Stop during two running subagents: no model request of either follows, and the next answer says each was stopped, then answers',
  async run(ui, c, ctx) {
    await newClaudeChat(ui);
    const surveys = SURVEYS_ASKED['survey slowly with two subagents'];
    await ui.send('survey slowly with two subagents');
    await ui.response((t) => surveys.every((s) => t.includes(`🤖 ${s}`)), 'both subagents named');
    c.ok(await eventually(() => subagentRequests(ctx, surveys).length === 2, 30_000), 'the two subagents did not both ask the model');
    await ui.screenshot('claude-subagents-before-stop');
    await ui.stop();
    await ui.idle(10_000);
    c.ok(await eventually(() => subagentRequests(ctx, surveys).every((r) => r.endedAt !== undefined), 10_000), "a subagent's model request still streams after the stop");
    c.equal(c.note('subagent requests', subagentRequests(ctx, surveys).length), 2, 'model requests of the subagents (none after the stop)');
    await ui.screenshot('claude-subagents-stopped');
    await ui.send('say answered after the subagents stopped');
    const text = c.note('answer', await ui.response((t) => t.includes('answered after the subagents stopped'), 'the answer to the next message'));
    await ui.idle();
    await ui.screenshot('claude-subagents-stopped-next-answer');
    for (const s of surveys) c.ok(new RegExp(`⏹ ${s} \\(Explore\\): stopped · 0 tool uses · \\d+ s`).test(text), `the next answer says not that ${s} was stopped`);
    c.ok(text.indexOf('⏹') < text.indexOf('answered after the subagents stopped'), 'the stopped lines come after the answer, not before it');
    // Asked the next message after the stop, not a subagent's again.
    c.equal(subagentRequests(ctx, surveys).length, 2, 'model requests of the subagents after the next message');
    c.equal(ctx.mock.conversation().filter((r) => ctx.mock.lastUserTextOf(r).endsWith('say answered after the subagents stopped')).length, 1, 'model requests for the next message');
  },
});

CLAUDE_SCENARIOS.push({
  name: "claude: a subagent's edit through Copilot's create_file: the line right before Copilot's edit names the subagent that asks; the edit is listed with Keep / Undo",
  async run(ui, c, ctx) {
    await newClaudeChat(ui);
    const file = join(ctx.workspace, 'subagent-notes.txt');
    await ui.send('have a subagent create subagent-notes.txt');
    await ui.response((t) => t.includes('The subagent wrote it.'), "Claude's answer after its subagent's edit");
    await ui.idle();
    // The Chat view folds the rounds before the last into "Completed n steps": the person opens them.
    await ui.page.locator('.interactive-response').last().getByText(/^Completed \d+ steps?/).first().click({ timeout: 10_000 });
    const text = c.note('answer', await ui.response((t) => t.includes(`${NOTES_WRITER} asks`), 'the steps opened'));
    await ui.screenshot('claude-subagent-edit');
    const asks = text.indexOf(`🤖 ${NOTES_WRITER} asks: create_file`);
    c.ok(asks >= 0, `no line names the subagent that asks for create_file: ${JSON.stringify(text)}`);
    c.ok(text.indexOf(`${NOTES_WRITER} (general-purpose): done`) > asks, "the subagent's end line does not come after its ask");
    c.equal(readFileSync(file, 'utf8'), 'written by a subagent into subagent-notes.txt\n', 'the file the subagent created');
    c.includes(c.note('changed files', await ui.changedFiles()), '1 file changed', 'the list of changed files above the input');
    c.note('undo asked', await ui.review('Undo'));
  },
});

// Going back in a chat (issue 45): Restore Checkpoint, an edited earlier request, Retry.
CLAUDE_SCENARIOS.push(...rewindScenarios(newClaudeChat));

// Continuing a session Claude Code's CLI began (issue 52).
CLAUDE_SCENARIOS.push(...continueScenarios());

// Continue Chat in Terminal (issue 52).
CLAUDE_SCENARIOS.push(...terminalScenarios(newClaudeChat));

// Closes the workbench: last.
CLAUDE_SCENARIOS.push(lastWindowScenario());

/**
 * Opens the Chat view and sends a first message, answered by the first model listed (Claude Code): a fresh profile
 * lists other extensions' models in the picker only after its first request (Copilot's set-up).
 */
async function setUpChat(ui) {
  await ui.openOnceStarted();
  // Not "hello", which the rewind scenarios' chats begin with: each of them must fail or pass on its own.
  await ui.send('say ready');
  // The model's name shows under the answer once it is complete. The first answer waits for Copilot's set-up and
  // Claude Code's cold start, which on a loaded machine took 58 s of the usual minute: it has two.
  await ui.response((t) => /Claude Code|Eliza \(built-in\)/.test(t), 'an answer to the first message, named', 120_000);
  await ui.idle();
}

/** Runs the scenarios on `page`; each result is {name, passed, ms, error, details}. */
export async function runClaude(page, ctx, log) {
  const ui = new ChatView(page, ctx.artifacts);
  const only = (process.env.SYMPOSIUM_VSCODE_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  const results = [];
  writeSquawkCommand(ctx.workspace);
  try {
    await setUpChat(ui);
  } catch (error) {
    await ui.screenshot('claude-set-up').catch(() => {});
    return [{ name: 'claude: the Chat view is set up (a first message answered)', passed: false, ms: 0, error: error.message, details: {} }];
  }
  for (const scenario of CLAUDE_SCENARIOS) {
    if (only.length > 0 && !only.some((name) => scenario.name.startsWith(name))) continue;
    const c = new Checks();
    const start = Date.now();
    log(`claude: ${scenario.name}`);
    try {
      await scenario.run(ui, c, ctx);
      results.push({ name: scenario.name, passed: true, ms: Date.now() - start, details: c.details });
    } catch (error) {
      results.push({ name: scenario.name, passed: false, ms: Date.now() - start, error: error.message, details: c.details });
    }
    await ui.screenshot(scenario.name).catch(() => {});
  }
  const errors = ctx.mock.errors.splice(0);
  if (errors.length > 0) results.push({ name: 'claude: the scripted Anthropic API answered every request', passed: false, ms: 0, error: errors.join('; '), details: {} });
  return results;
}
