// Scenarios in Roo Code 3.52, the real extension (built from its public source; ../shared/consumers/roo/), installed
// next to ours in the real VS Code host and driven as a person drives it: type a task into its webview, press Enter,
// read the answer and "Task Completed", reply, press New Task. Its provider "VS Code LM API" talks to our models
// through vscode.lm: its system prompt as a first Assistant message, its tools offered natively, and a task ends only
// when the model calls attempt_completion. Each scenario leaves a screenshot in the artifacts dir.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandResults, eventually, keepModelRequest, messageWhileRunningProblems, processesRunning } from './command-stops.mjs';
import { ANSWER_TIMEOUT_MS, WebviewChat, checkedVsix, runScenarios } from './webview-chat.mjs';
import { SUBAGENT_SURVEY, subagentSurveyProblems, writeSurveyReadme } from './claude-view.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The .vsix and its digest, as ../shared/consumers/roo/README.md gives them. */
export const ROO_VSIX = process.env.SYMPOSIUM_ROO_VSIX || join(REPO, '..', 'shared', 'consumers', 'roo', 'roo-cline-3.52.1.vsix');
const ROO_SHA256 = '187b954cdf225e616315391316e974a70917d72cb7a2163d993516ca2ab05967';
/** ClineProvider.latestAnnouncementId of 3.52: stored as shown, Roo opens on its chat rather than the announcement. */
const ROO_ANNOUNCEMENT = 'apr-2026-v3.52.0-poe-xai-minimax';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The Roo Code .vsix, checked; a run without it fails saying where it should be, rather than skipping Roo. */
export function rooVsix() {
  return checkedVsix(ROO_VSIX, ROO_SHA256, 'Roo Code 3.52.1', 'shared/consumers/roo/ beside the clone, or SYMPOSIUM_ROO_VSIX');
}

/**
 * Roo looks for ripgrep at `<appRoot>/node_modules/@vscode/ripgrep/bin/rg`, and stops every task before its first
 * request without it; code-server ships it as `@vscode/ripgrep-universal/bin/<platform>/rg`. A link where Roo looks.
 */
export function linkRipgrepForRoo(entry) {
  const modules = join(dirname(entry), '..', '..', 'lib', 'vscode', 'node_modules', '@vscode');
  const link = join(modules, 'ripgrep', 'bin', 'rg');
  if (existsSync(link)) return;
  const platform = `${process.platform}-${process.arch}`;
  const target = join(modules, 'ripgrep-universal', 'bin', platform, 'rg');
  if (!existsSync(target)) throw new Error(`no ripgrep for ${platform} in code-server (${target})`);
  mkdirSync(dirname(link), { recursive: true });
  try {
    symlinkSync(target, link);
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
}

/**
 * Roo's settings as its Settings › Export writes them, for `roo-cline.autoImportSettingsPath`: one profile per model
 * (`vsCodeLmModelSelector` {vendor, family}, how Roo finds a vscode.lm model), `current` in use, telemetry off, the
 * announcement seen, read-only tools (read_file) approved, no checkpoints.
 */
export function writeRooSettings(file, profiles, current) {
  const apiConfigs = Object.fromEntries(Object.entries(profiles).map(([name, family]) => [name, { id: name, apiProvider: 'vscode-lm', vsCodeLmModelSelector: { vendor: 'symposium', family } }]));
  const settings = {
    providerProfiles: { currentApiConfigName: current, apiConfigs },
    globalSettings: { telemetrySetting: 'disabled', lastShownAnnouncementId: ROO_ANNOUNCEMENT, autoApprovalEnabled: true, alwaysAllowReadOnly: true, enableCheckpoints: false },
  };
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** What a person does in Roo's view, through the page. */
class RooView extends WebviewChat {
  constructor(page, artifacts) {
    super(page, artifacts, { name: 'Roo Code', input: '[data-testid="chat-view"] textarea' });
  }

  /** The answer to the last message once Roo shows the task completed (or gives up on the model). */
  async completed(timeoutMs = ANSWER_TIMEOUT_MS) {
    const text = await this.answer((t) => t.includes('Task Completed') || t.includes('Roo is having trouble'), '"Task Completed"', timeoutMs);
    check(!text.includes('Roo is having trouble'), `Roo gave up on the model: ${JSON.stringify(text.slice(0, 1500))}`);
    return text;
  }

  /** Picks one of Roo's profiles (each a model of ours) in the selector under its input, as a person does. */
  async pickProfile(current, name) {
    const f = await this.frame();
    await f.locator('[data-testid="dropdown-trigger"]').filter({ hasText: new RegExp(`^\\s*${current}\\s*$`) }).first().click();
    await f.locator('div.cursor-pointer').filter({ has: f.locator('span', { hasText: new RegExp(`^${name}$`) }) }).first().click();
    await f.locator('[data-testid="dropdown-trigger"]').filter({ hasText: new RegExp(`^\\s*${name}\\s*$`) }).first().waitFor({ timeout: 10_000 });
  }

  async newTask() {
    await this.page.locator('a.action-label[aria-label="New Task"]').first().click();
    await sleep(1000);
    await this.frame();
  }

  /** Picks one of Roo's modes (Code, Architect, Ask, …) in the selector under its input, as a person does. */
  async pickMode(name) {
    const f = await this.frame();
    await f.locator('[data-testid="mode-selector-trigger"]').first().click();
    // Roo 3.52 lists them as `mode-option-<slug>` (with a search box) or `mode-selector-item`, by version.
    await f.locator(`[data-testid="mode-option-${name.toLowerCase()}"], [data-testid="mode-selector-item"]:has-text("${name}")`).first().click();
    await f.locator('[data-testid="mode-selector-trigger"]').filter({ hasText: name }).first().waitFor({ timeout: 10_000 });
  }

  /** Clicks Roo's Save once its diff view is ready (the button is enabled then). */
  async save() {
    const f = await this.frame();
    const save = f.getByRole('button', { name: 'Save', exact: true }).first();
    await save.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    for (const deadline = Date.now() + ANSWER_TIMEOUT_MS; !(await save.isEnabled()); ) {
      check(Date.now() < deadline, "Roo's Save button stayed disabled");
      await sleep(200);
    }
    return save;
  }
}



/** Each prompt a scripted agent received (its --prompt-log), as its content blocks. */
function promptBlocks(log) {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** Each prompt a scripted agent received, its text blocks joined. */
function prompts(log) {
  return promptBlocks(log).map((blocks) => blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'));
}

/** The tool calls and the text of the assistant messages in a request Roo sent (what our responses became). */
function assistantSaid(request) {
  const parts = request.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content);
  return { calls: parts.filter((p) => p.type === 'tool_call'), text: parts.filter((p) => p.type === 'text').map((p) => p.value).join('') };
}

/** The requests Roo sent our models so far (recorded by the extension, SYMPOSIUM_RECORD_REQUESTS). */
function requests(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** The JSON array an agent's `history` wrote, in the text that follows it. */
function jsonIn(text) {
  const start = text.indexOf('[');
  for (let end = text.indexOf(']', start); start >= 0 && end >= 0; end = text.indexOf(']', end + 1)) {
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // not the end of the array yet
    }
  }
  throw new Error(`no JSON array in ${JSON.stringify(text.slice(0, 500))}`);
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Sends `text`, waits for "Task Completed", and checks that no retry of Roo's came and that every request went to
 * `model` (Roo answers with a stub of its own when no model matches its profile): returns the answer as the view
 * shows it and the requests it took, whose number `note` records.
 */
async function completedTask(ui, note, ctx, text, model = 'symposium-agent-scripted') {
  const before = requests(ctx.requests).length;
  await ui.send(text);
  const answer = note('answer', await ui.completed());
  const sent = requests(ctx.requests).slice(before);
  note('requests', sent.length);
  check(!answer.includes('Model Response Incomplete'), `Roo marked the answer incomplete: ${JSON.stringify(answer.slice(0, 1500))}`);
  check(sent.length > 0 && sent.every((r) => r.modelId === model), `the requests went to ${JSON.stringify(sent.map((r) => r.modelId))}, not ${model}`);
  return { answer, sent };
}

/** The agent says its mode between brackets: `[plan] is my mode`. */
const MODE_ASKED = 'say [\nmode\nsay ] is my mode';

export const ROO_SCENARIOS = [
  {
    name: "roo: a task with the agent completes in one request, and the agent gets the person's words once",
    async run(ui, note, ctx) {
      const { answer, sent } = await completedTask(ui, note, ctx, 'say hello from roo');
      check(answer.includes('hello from roo'), `the agent's answer is not shown: ${JSON.stringify(answer.slice(0, 1500))}`);
      check(sent.length === 1, `the task took ${sent.length} requests`);
      const received = note('prompts', prompts(ctx.promptLog));
      check(JSON.stringify(received) === JSON.stringify(['say hello from roo']), `the agent was prompted otherwise: ${JSON.stringify(received)}`);
    },
  },
  {
    name: 'roo: a reply after "Task Completed" continues the agent session',
    async run(ui, note, ctx) {
      const { answer, sent } = await completedTask(ui, note, ctx, 'history');
      const seen = jsonIn(answer);
      check(JSON.stringify(seen) === JSON.stringify(['say hello from roo']), `the session had seen ${JSON.stringify(seen)}`);
      check(sent.length === 1, `the reply took ${sent.length} requests`);
      check(prompts(ctx.promptLog).length === 2, `the agent got ${prompts(ctx.promptLog).length} prompts, not 2`);
    },
  },
  {
    name: "roo: a tool round trip — the agent's call of Roo's read_file runs in Roo, its result reaches the agent",
    async run(ui, note, ctx) {
      const { answer, sent } = await completedTask(ui, note, ctx, 'mcp-call read_file {"path":"README.md"}\nsay the end');
      check(answer.includes('A workspace for the symposium-lm VS Code tests.'), `the result of read_file did not reach the agent: ${JSON.stringify(answer.slice(0, 1500))}`);
      check(answer.includes('the end'), 'the agent did not go on after the result');
      check(sent.length === 2, `the round trip took ${sent.length} requests, not 2 (the call, its result)`);
      check(prompts(ctx.promptLog).length === 3, `the agent got ${prompts(ctx.promptLog).length} prompts, not 3`);
    },
  },
  {
    name: 'roo: New Task is a new agent session',
    async run(ui, note, ctx) {
      await ui.newTask();
      const { answer } = await completedTask(ui, note, ctx, 'history');
      const seen = jsonIn(answer);
      check(seen.length === 0, `the new task's session had seen ${JSON.stringify(seen)}`);
    },
  },
  {
    name: "roo: an agent's question is asked with Roo's ask_followup_question; the suggestion clicked reaches the agent",
    async run(ui, note, ctx) {
      await ui.send('ask Which flavour? | Vanilla | Chocolate');
      const f = await ui.frame();
      const suggestion = f.getByRole('button', { name: 'Chocolate' }).first();
      await suggestion.waitFor({ timeout: ANSWER_TIMEOUT_MS });
      note('question', await ui.answer((t) => t.includes('Vanilla'), 'the question'));
      await ui.screenshot('roo-question-followup');
      await suggestion.click();
      const answer = note('answer', await ui.completed());
      check(answer.includes('answer: accept {"choice":"choice-2"}'), `the agent got another answer: ${JSON.stringify(answer.slice(0, 800))}`);
      check(!answer.includes('Model Response Incomplete'), 'Roo marked the answer incomplete');
      note('requests', requests(ctx.requests).length);
    },
  },
  {
    name: "roo: an agent's file write goes through Roo's write_to_file and its approval; Save writes it",
    async run(ui, note, ctx) {
      await ui.send('write notes.md "# Notes\\nwritten by the agent\\n"');
      const f = await ui.frame();
      const save = f.getByRole('button', { name: 'Save', exact: true }).first();
      await save.waitFor({ timeout: ANSWER_TIMEOUT_MS });
      // Save is enabled once Roo's diff view shows the whole text.
      for (const deadline = Date.now() + ANSWER_TIMEOUT_MS; !(await save.isEnabled()); ) {
        check(Date.now() < deadline, "Roo's Save button stayed disabled");
        await sleep(200);
      }
      note('approval', await ui.answer((t) => t.includes('notes.md'), 'the approval'));
      // Roo opens its diff on an empty file of that name: the text lands only on Save.
      check(!readFileSync(join(ctx.workspace, 'notes.md'), 'utf8').includes('written by the agent'), 'the text was written before Save');
      await ui.screenshot('roo-write-approval');
      await save.click();
      const answer = note('answer', await ui.completed());
      check(answer.includes('wrote notes.md'), `the agent did not hear the write landed: ${JSON.stringify(answer.slice(0, 800))}`);
      const written = readFileSync(join(ctx.workspace, 'notes.md'), 'utf8');
      check(written === '# Notes\nwritten by the agent\n', `notes.md reads ${JSON.stringify(written)}`);
    },
  },
  {
    name: "roo: Architect puts the agent in its plan mode before the prompt, Ask in its ask mode, Code back in its own; each switch mid-task followed",
    async run(ui, note, ctx) {
      await ui.newTask();
      await ui.pickMode('Architect');
      // The agent answers `mode` with the mode it is in when the prompt reaches it (its own word, not the bridge's log).
      const plan = await completedTask(ui, note, ctx, MODE_ASKED);
      note('architect', plan.answer);
      check(/\[\s*plan\s*\]/.test(plan.answer), `in Architect the agent was not in its plan mode: ${JSON.stringify(plan.answer.slice(0, 600))}`);
      await ui.screenshot('roo-architect-plan-mode');
      await ui.pickMode('Ask');
      const ask = await completedTask(ui, note, ctx, MODE_ASKED);
      check(/\[\s*ask\s*\]/.test(ask.answer), `in Ask the agent was not in its ask mode: ${JSON.stringify(ask.answer.slice(0, 600))}`);
      await ui.pickMode('Code');
      const code = await completedTask(ui, note, ctx, MODE_ASKED);
      check(/\[\s*code\s*\]/.test(code.answer), `in Code the agent was not back in its own mode: ${JSON.stringify(code.answer.slice(0, 600))}`);
      const sent = requests(ctx.requests).slice(-3).map((r) => /<slug>([^<]*)<\/slug>/.exec(JSON.stringify(r.messages.at(-1)))?.[1]);
      note('slugs', sent);
      check(JSON.stringify(sent) === JSON.stringify(['architect', 'ask', 'code']), `Roo named its modes otherwise: ${JSON.stringify(sent)}`);
    },
  },
  {
    name: "roo: the agent's plan shows in Roo's todo list, not as text in its answer",
    async run(ui, note, ctx) {
      await ui.newTask();
      const before = requests(ctx.requests).length;
      const { answer } = await completedTask(ui, note, ctx, 'todos Read the code:done|Write the fix:doing|Run the tests\nsay planned it');
      check(answer.includes('planned it'), `the agent's words after its plan are not shown: ${JSON.stringify(answer.slice(0, 800))}`);
      const f = await ui.frame();
      const list = note('todo list', await f.locator('[data-todo-changes], [data-testid*="todo"]').allInnerTexts().catch(() => []));
      const body = await f.locator('body').innerText();
      check(body.includes('Write the fix') && body.includes('Run the tests'), `Roo shows no todo list with the plan: ${JSON.stringify(body.slice(-1500))}`);
      await ui.screenshot('roo-todo-list');
      const sent = requests(ctx.requests).slice(before);
      const said = assistantSaid(sent.at(-1));
      const todoCalls = said.calls.filter((c) => c.toolName === 'update_todo_list');
      note('todo calls', todoCalls.map((c) => c.parameters));
      check(todoCalls.length === 1 && todoCalls[0].parameters.todos === '[x] Read the code\n[-] Write the fix\n[ ] Run the tests', `the plan was not one call of update_todo_list: ${JSON.stringify(said.calls)}`);
      check(!said.text.includes('Write the fix'), `the plan is in the answer's text: ${JSON.stringify(said.text)}`);
      check(list.length > 0 || body.includes('Todo'), 'no todo element in Roo');
    },
  },
  {
    name: "roo: an agent's change to an existing file goes through Roo's apply_diff: its diff, then Save",
    async run(ui, note, ctx) {
      await ui.newTask();
      await ui.pickMode('Code');
      const file = join(ctx.workspace, 'greeting.txt');
      writeFileSync(file, 'hello\nfrom the workspace\nbye\n');
      const before = requests(ctx.requests).length;
      await ui.send('write greeting.txt "hello\\nfrom the agent\\nbye\\n"');
      const save = await ui.save();
      note('approval', await ui.answer((t) => t.includes('greeting.txt'), 'the approval'));
      check(readFileSync(file, 'utf8') === 'hello\nfrom the workspace\nbye\n', 'the file changed before Save');
      await ui.screenshot('roo-apply-diff-approval');
      await save.click();
      const answer = note('answer', await ui.completed());
      check(answer.includes('wrote greeting.txt'), `the agent did not hear the change landed: ${JSON.stringify(answer.slice(0, 800))}`);
      check(readFileSync(file, 'utf8') === 'hello\nfrom the agent\nbye\n', `greeting.txt reads ${JSON.stringify(readFileSync(file, 'utf8'))}`);
      const calls = requests(ctx.requests).slice(before).flatMap((r) => assistantSaid(r).calls).filter((c) => c.toolName === 'apply_diff' || c.toolName === 'write_to_file');
      note('edit calls', calls.map((c) => [c.toolName, c.parameters]));
      check(calls.length > 0 && calls.every((c) => c.toolName === 'apply_diff'), `the change did not go through apply_diff alone: ${JSON.stringify(calls)}`);
    },
  },
  {
    name: 'roo: a file @-mentioned reaches the agent as a resource',
    async run(ui, note, ctx) {
      writeFileSync(join(ctx.workspace, 'roo-mentioned.txt'), 'the mentioned file says 42\n');
      await ui.newTask();
      await completedTask(ui, note, ctx, '@/roo-mentioned.txt what does it say?\nsay got the mention');
      const prompt = note('prompt', promptBlocks(ctx.promptLog).at(-1) ?? []);
      const resource = prompt.find((b) => b.type === 'resource' || b.type === 'resource_link');
      check(resource !== undefined && JSON.stringify(resource).includes('roo-mentioned.txt'), `no resource of the mentioned file reached the agent: ${JSON.stringify(prompt)}`);
      check(JSON.stringify(resource).includes('the mentioned file says 42'), `the resource does not carry the file's text: ${JSON.stringify(resource)}`);
      check(!JSON.stringify(prompt).includes('environment_details'), "Roo's environment details reached the agent");
    },
  },
  {
    name: 'roo: going back — an earlier reply edited (Edit message, Proceed): the agent holds nothing after it',
    async run(ui, note, ctx) {
      await ui.newTask();
      // Four answers in one task: with one completion text for all, Roo stopped at the fourth ("stuck in a loop").
      for (const words of ['one', 'two', 'three']) await completedTask(ui, note, ctx, `say ${words} from roo`);
      const f = await ui.frame();
      // Roo shows a reply after "Task Completed" as "You said", with its edit icon on hover.
      const row = f.locator('.group', { hasText: 'say two from roo' }).last();
      await row.hover();
      await row.locator('[aria-label="Edit message icon"]').first().click();
      // The reply becomes an input of its own, above the main one.
      const editor = f.locator('textarea:visible').first();
      await editor.waitFor({ timeout: 10_000 });
      await editor.fill('history');
      await ui.screenshot('roo-rewind-editing');
      ui.sent = 'history';
      ui.shownBefore = 0;
      await editor.press('Enter');
      // Roo asks first: "Editing this message will delete all subsequent messages in the conversation."
      await f.getByRole('button', { name: 'Proceed', exact: true }).click({ timeout: 10_000 });
      note('answer', await ui.completed());
      await ui.screenshot('roo-rewind-edited-answered');
      // Scripted does not fork here: a new session told the chat up to the edited reply, then the edited words.
      const told = note('prompt', prompts(ctx.promptLog).at(-1) ?? '');
      check(told.includes('say one from roo') && told.includes('history'), `the agent was not told the chat up to the edited reply: ${JSON.stringify(told)}`);
      check(!told.includes('say two from roo') && !told.includes('say three from roo'), `the agent was told what the edit took back: ${JSON.stringify(told)}`);
    },
  },
  {
    name: 'roo: a task with Eliza completes in one request, and a reply continues her conversation',
    async run(ui, note, ctx) {
      await ui.pickProfile('scripted', 'eliza');
      await ui.newTask();
      const first = await completedTask(ui, note, ctx, 'I am worried about my exams', 'symposium-eliza');
      check(first.sent.length === 1, `the task took ${first.sent.length} requests`);
      const { answer } = await completedTask(ui, note, ctx, 'list tools', 'symposium-eliza');
      check(/Tools offered: [^\n]*attempt_completion/.test(answer), `Eliza did not hear the reply as words: ${JSON.stringify(answer.slice(0, 800))}`);
    },
  },
];

// A command refused or stopped mid-run (issue 54), with the real Claude Code (its profile `claude`), whose Bash the
// bridge turns off where Roo offers execute_command: the person denies Roo's approval, or aborts the command while it
// runs. Claude's model must get the refusal or a stopped result (never the command's success), the task must end, and
// the next message must be answered in the same Claude session, with no process of the command left.
/** Picks the `claude` profile under Roo's input (whichever profile is picked now) and starts a new task in Code mode. */
async function newClaudeTask(ui) {
  const f = await ui.frame();
  if ((await f.locator('[data-testid="dropdown-trigger"]').filter({ hasText: /^\s*claude\s*$/ }).count()) === 0) {
    const current = (await f.locator('[data-testid="dropdown-trigger"]').filter({ hasText: /^\s*(scripted|eliza)\s*$/ }).first().innerText()).trim();
    await ui.pickProfile(current, 'claude');
  }
  await ui.newTask();
  await ui.pickMode('Code');
}

/** Roo's button named by `name` (a string, or a pattern of its names), the last one (above the input). */
async function rooButton(ui, name) {
  return (await ui.frame()).getByRole('button', { name, exact: typeof name === 'string' }).last();
}

/** Sends `said` after a completed task and checks that it completes with `words`, asked once of Claude's model, in `session`. */
async function completedNext(ui, note, ctx, said, words, session) {
  const since = ctx.mock.conversation().length;
  const { answer } = await completedTask(ui, note, ctx, said, 'symposium-agent-claude');
  check(answer.includes(words), `the next message was not answered: ${JSON.stringify(answer.slice(0, 800))}`);
  const asked = ctx.mock.conversation().slice(since).filter((r) => ctx.mock.lastUserTextOf(r).endsWith(said));
  note('next message requests', asked.length);
  check(asked.length === 1, `Claude's model was asked ${asked.length} times for the next message`);
  check(ctx.mock.sessionIdOf(asked[0]) === session, 'the next message went to another Claude session');
  return answer;
}

ROO_SCENARIOS.push({
  name: "roo: Deny at Roo's approval of a command: it does not run, Claude's model gets the refusal, the task ends, the next message is answered",
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    const file = join(ctx.workspace, 'roo-rejected.txt');
    const since = ctx.mock.conversation().length;
    await ui.send('run touch roo-rejected.txt && echo rejected-ran');
    const deny = await rooButton(ui, /^(Deny|Reject)$/);
    await deny.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    note('approval', await ui.answer((t) => t.includes('touch roo-rejected.txt'), "Roo's approval of the command", 10_000));
    await ui.screenshot('roo-command-deny-approval');
    await deny.click();
    const answer = note('answer', await ui.completed());
    await ui.screenshot('roo-command-denied');
    check(!existsSync(file), 'the command ran although the person denied it');
    const results = commandResults(ctx.mock, since);
    note('model got', results.map(({ text, isError }) => ({ text, isError })));
    check(results.length === 1, `Claude's model got ${results.length} results of the command`);
    keepModelRequest(ctx, 'roo-denied', results[0].request);
    check(!results[0].text.includes('rejected-ran'), `Claude's model got the command's output: ${JSON.stringify(results[0].text)}`);
    check(answer.includes('as you asked.') && !answer.includes('Terminal said:'), `Claude did not read a refusal: ${JSON.stringify(answer.slice(0, 600))}`);
    await completedNext(ui, note, ctx, 'say answered after the deny', 'answered after the deny', ctx.mock.sessionIdOf(results[0].request));
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

ROO_SCENARIOS.push({
  name: 'roo: the running command aborted (its button beside the PID): the command ends, Claude gets no success, the task ends, the next message is answered',
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    // An odd duration, so that the process list names this command alone; its last output ("slept-42") is not in its
    // words, which Roo's view shows.
    const sleeping = 'sleep 47.3';
    const said = `run echo started-sleeping; ${sleeping}; echo slept-$((6*7))`;
    const since = ctx.mock.conversation().length;
    await ui.send(said);
    const run = await rooButton(ui, /^(Run|Run Command)$/);
    await run.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await run.click();
    check(await eventually(() => processesRunning(sleeping).length > 0, ANSWER_TIMEOUT_MS), `the command did not start (no "${sleeping}" process)`);
    // Roo shows the running command with its PID and an abort button beside it (its tooltip: "Abort command").
    const f = await ui.frame();
    const abort = f.locator('div.font-mono', { hasText: /\(PID: \d+\)/ }).last().locator('button').first();
    await abort.waitFor({ timeout: 20_000 });
    await ui.screenshot('roo-command-running');
    await abort.click();
    check(await eventually(() => processesRunning(sleeping).length === 0, 10_000), `the command still runs after its abort: ${JSON.stringify(processesRunning(sleeping))}`);
    const answer = note('answer', await ui.answer((t) => t.includes('Task Completed') || t.includes('Roo is having trouble') || /\bResume Task\b|Start New Task/.test(t), 'the task ending after the abort'));
    await ui.screenshot('roo-command-aborted');
    const session = ctx.mock.sessionIdOf(ctx.mock.conversation().slice(since).find((r) => ctx.mock.lastUserTextOf(r).endsWith(said)));
    const results = commandResults(ctx.mock, since);
    note('model got', results.map(({ text, isError }) => ({ text, isError })));
    for (const [i, result] of results.entries()) keepModelRequest(ctx, `roo-aborted-${i + 1}`, result.request);
    check(results.every((r) => !r.text.includes('slept-42')), `Claude's model got the command's success: ${JSON.stringify(results.map((r) => r.text))}`);
    check(!answer.includes('slept-42'), `the aborted command's output shows as done: ${JSON.stringify(answer.slice(0, 800))}`);
    await completedNext(ui, note, ctx, 'say answered after the abort', 'answered after the abort', session);
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

// A message sent while the command runs (issue 59): Roo queues it (its "queued messages") or hands it to the running
// command's ask. Claude's model must never read a refusal, and must get the words once, in the task's session.
ROO_SCENARIOS.push({
  name: 'roo: a message sent while an approved command runs: Claude gets no refusal and the words once, the task ends, nothing hangs',
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    const sleeping = 'sleep 11.7';
    const since = ctx.mock.conversation().length;
    await ui.send(`run ${sleeping}; echo roo-steered-$((6*7))`);
    const run = await rooButton(ui, /^(Run|Run Command)$/);
    await run.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await run.click();
    check(await eventually(() => processesRunning(sleeping).length > 0, ANSWER_TIMEOUT_MS), `the command did not start (no "${sleeping}" process)`);
    const words = 'say words sent while Roo ran';
    await ui.send(words);
    check(processesRunning(sleeping).length > 0, 'the command had ended before the words were sent');
    await ui.screenshot('roo-message-while-running');
    const text = note('answer', await ui.answer((t) => t.includes('words sent while Roo ran') && (t.includes('Task Completed') || /\bStart New Task\b/.test(t)), 'the answer to the words'));
    await ui.screenshot('roo-message-while-running-answered');
    const results = commandResults(ctx.mock, since);
    note('model got', results.map(({ text: t, isError }) => ({ text: t, isError })));
    for (const [i, result] of results.entries()) keepModelRequest(ctx, `roo-message-while-running-${i + 1}`, result.request);
    check(results.length > 0 && results.every((r) => !r.isError), `Claude's model got the command as an error: ${JSON.stringify(results)}`);
    for (const problem of messageWhileRunningProblems(ctx.mock, since, words)) check(false, problem);
    note('view', text.slice(0, 1500));
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

/** Runs the Roo scenarios on `page`; each result is {name, passed, ms, error, details}. */
export async function runRoo(page, ctx, log) {
  const ui = new RooView(page, ctx.artifacts);
  await ui.open();
  return runScenarios('roo', ROO_SCENARIOS, ui, ctx, log);
}

// Subagents (issue 51): Claude Code's two subagents at once, as text in Roo's view: each named by its task, its Read
// under its name, one end line each, no markup, the main answer once; the task completes.
ROO_SCENARIOS.push({
  name: "roo: Claude Code's two subagents at once show as text: each named, its Read under its name, one end line each, no markup, the main answer once",
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    writeSurveyReadme(ctx.workspace);
    const { answer } = await completedTask(ui, note, ctx, SUBAGENT_SURVEY, 'symposium-agent-claude');
    await ui.screenshot('roo-subagents');
    const problems = subagentSurveyProblems(answer);
    check(problems.length === 0, problems.join('; '));
  },
});

