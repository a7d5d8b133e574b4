// Scenarios in Cline 4.1.13, the real extension (built unchanged from its public source; ../shared/consumers/cline/),
// installed next to ours in the real VS Code host and driven as a person drives it: type a task into its webview,
// press Enter, read the answer, press New Task, Cancel, pick another model in its settings. Its provider "VS Code LM
// API" talks to our models through vscode.lm: its system prompt as a first Assistant message, its own tools offered
// natively, a note appended after tool results. Each scenario leaves a screenshot in the artifacts dir.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promptBlocks, textOnceShown } from './chat-view.mjs';
import { commandResults, eventually, keepModelRequest, messageWhileRunningProblems, processesRunning, terminalNames } from './command-stops.mjs';
import { ANSWER_TIMEOUT_MS, WebviewChat, checkedVsix, runScenarios } from './webview-chat.mjs';
import { SUBAGENT_SURVEY, subagentSurveyProblems, writeSurveyReadme } from './claude-view.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The .vsix and its digest, as ../shared/consumers/cline/README.md gives them. */
export const CLINE_VSIX = process.env.SYMPOSIUM_CLINE_VSIX || join(REPO, '..', 'shared', 'consumers', 'cline', 'cline-4.1.13.vsix');
const CLINE_SHA256 = 'b65469802d70e31a50322f286f34b2852f26182349dd98b4f636efe6b7e5b99c';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The Cline .vsix, checked; a run without it fails saying where it should be, rather than skipping Cline. */
export function clineVsix() {
  return checkedVsix(CLINE_VSIX, CLINE_SHA256, 'Cline 4.1.13', 'shared/consumers/cline/ beside the clone, or SYMPOSIUM_CLINE_VSIX');
}

/**
 * Cline's state in the run's HOME, as a person leaves it after its onboarding: its provider "VS Code LM API" on
 * `model` (the vscode.lm selector Cline stores: vendor, family, version, id), telemetry off.
 */
export function writeClineState(home, model) {
  const dir = join(home, '.cline', 'data');
  mkdirSync(dir, { recursive: true });
  const state = {
    actModeApiProvider: 'vscode-lm',
    planModeApiProvider: 'vscode-lm',
    actModeVsCodeLmModelSelector: model,
    planModeVsCodeLmModelSelector: model,
    welcomeViewCompleted: true,
    telemetrySetting: 'disabled',
  };
  writeFileSync(join(dir, 'globalState.json'), JSON.stringify(state, null, 2));
}

/** What a person does in Cline's view, through the page. */
class ClineView extends WebviewChat {
  constructor(page, artifacts) {
    super(page, artifacts, { name: 'Cline', input: '[data-testid="chat-input"]' });
  }

  /** The whole text of the view. */
  async text() {
    return (await this.frame()).locator('body').innerText();
  }

  async newTask() {
    await this.page.locator('a.action-label[aria-label="New Task"]').first().click();
    await sleep(1000);
  }

  /** The Cancel button above the input (not the one under a message, which edits it). */
  async cancel() {
    await (await this.frame()).getByRole('button', { name: 'Cancel', exact: true }).last().click();
  }

  /** Opens Cline's settings (the gear in its view's title); returns the "Language Model" dropdown. */
  async settings() {
    await this.page.locator('a.action-label[aria-label="Settings"]').first().click();
    for (let i = 0; i < 60; i++) {
      for (const f of this.page.frames()) {
        const dropdown = f.locator('vscode-dropdown#vscode-lm-model');
        if ((await dropdown.count().catch(() => 0)) > 0) return { frame: f, dropdown };
      }
      await sleep(500);
    }
    throw new Error("Cline's settings show no Language Model dropdown");
  }

  /** The models Cline lists in its settings, as their labels. */
  async listedModels() {
    const { dropdown } = await this.settings();
    const labels = await dropdown.locator('vscode-option').evaluateAll((options) => options.map((o) => o.getAttribute('aria-label')));
    await this.done();
    return labels;
  }

  /** Picks a model in Cline's settings by its label, as a person does, and leaves them. */
  async pickModel(label) {
    const { frame, dropdown } = await this.settings();
    await dropdown.click();
    await frame.locator('vscode-option', { hasText: label }).first().click();
    await frame.locator(`vscode-dropdown#vscode-lm-model[current-value*="${label.split(' - ')[1]}"]`).waitFor({ timeout: 10_000 });
    await this.done();
  }

  /** Switches Cline to its Plan or Act mode with the switch under its input, as a person does. */
  async switchMode(name) {
    const f = await this.frame();
    const toggle = f.locator('[data-testid="mode-switch"]').first();
    const current = async () => (await toggle.locator('[aria-checked="true"]').allInnerTexts()).join(' ');
    if (!(await current()).includes(name)) await toggle.click();
    for (const deadline = Date.now() + 10_000; !(await current()).includes(name); await sleep(200)) {
      check(Date.now() < deadline, `Cline's mode switch does not show ${name}: ${await toggle.innerHTML()}`);
    }
  }

  async done() {
    for (const f of this.page.frames()) {
      const button = f.getByRole('button', { name: 'Done', exact: true });
      if ((await button.count().catch(() => 0)) > 0) {
        await button.first().click();
        await this.frame();
        return;
      }
    }
  }

}



/** The highest chunk number `cN` of the scripted agent's stream in `text` (0 for none). */
function lastChunk(text) {
  return Math.max(0, ...[...text.matchAll(/\bc(\d+) /g)].map((m) => Number(m[1])));
}

/** Each prompt a scripted agent received (its --prompt-log), its text blocks joined. */
function prompts(log) {
  return promptBlocks(log).map((blocks) => blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'));
}

/** The JSON array an agent's `history` or `echo` wrote, in the text that follows it. */
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

export const CLINE_SCENARIOS = [
  {
    name: 'cline: its model list names each agent',
    async run(ui, note) {
      await ui.open();
      const labels = note('models', await ui.listedModels());
      for (const label of ['symposium - acp-scripted', 'symposium - acp-parrot']) check(labels.includes(label), `Cline does not list ${label}: ${JSON.stringify(labels)}`);
      check(new Set(labels).size === labels.length, `two models share a label: ${JSON.stringify(labels)}`);
    },
  },
  {
    name: "cline: a task is answered by the agent, which gets the person's words only",
    async run(ui, note, ctx) {
      await ui.send('say hello from cline');
      note('answer', await ui.answer((t) => t.includes('hello from cline'), "the agent's answer"));
      const received = note('prompts', prompts(ctx.promptLog));
      check(received.at(-1) === 'say hello from cline', `the agent was not told exactly the typed words: ${JSON.stringify(received)}`);
      const footer = await ui.text();
      check(footer.includes('vscode-lm:symposium/acp-scripted'), "Cline's footer does not name the agent's model");
    },
  },
  {
    name: 'cline: a follow-up continues the agent session',
    async run(ui, note) {
      await ui.send('history');
      const text = note('answer', await ui.answer((t) => t.includes(']'), 'the session history'));
      const seen = jsonIn(text);
      check(JSON.stringify(seen) === JSON.stringify(['say hello from cline']), `the session had seen ${JSON.stringify(seen)}`);
      // The agent's models are known now: its default is still the model Cline stored, and the others are listed too.
      const labels = note('models', await ui.listedModels());
      for (const label of ['symposium - acp-scripted', 'symposium - acp-scripted-deep']) check(labels.includes(label), `Cline does not list ${label}: ${JSON.stringify(labels)}`);
    },
  },
  {
    name: "cline: a tool round trip — the agent's call runs in Cline, its result reaches the agent, one answer",
    async run(ui, note, ctx) {
      await ui.send(`mcp-call read_files {"files":[{"path":"${join(ctx.workspace, 'README.md')}"}]}\nsay the end`);
      const text = note('answer', await ui.answer((t) => t.includes('the end'), 'the answer after the tool result'));
      check(text.includes('result read_files: 1 | A workspace for the symposium-lm VS Code tests.'), 'the result of read_files did not reach the agent');
      check(!text.includes('Above is the result'), "Cline's note after the tool result reached the agent as a message");
      await ui.send('history');
      // Cline renders answers as markdown, which takes the backslashes out of the JSON: it is read as text.
      const seen = note('history', await ui.answer((t) => t.includes(']'), 'the session history'));
      check(/\["say hello from cline","history","mcp-call read_files \{[^\n]*say the end"\]/.test(seen), `the session was prompted otherwise: ${JSON.stringify(seen)}`);
    },
  },
  {
    name: "cline: an agent's question, which Cline cannot show, is asked in a VS Code quick pick; the answer reaches the agent",
    async run(ui, note) {
      await ui.send('ask Which flavour? | Vanilla | Chocolate');
      const widget = ui.page.locator('.quick-input-widget');
      note('quick pick', await widget.locator('.quick-input-title', { hasText: 'Scripted asks' }).first().innerText({ timeout: ANSWER_TIMEOUT_MS }));
      const row = widget.locator('.monaco-list-row', { hasText: 'Chocolate' }).first();
      await row.waitFor({ timeout: 10_000 });
      await ui.screenshot('cline-question-quick-pick');
      await row.click();
      const text = note('answer', await ui.answer((t) => /answer: (accept \{[^}]*\}|decline|cancel)/.test(t), "the agent's whole report of the answer"));
      check(text.includes('answer: accept {"choice":"choice-2"}'), `the agent got another answer: ${JSON.stringify(text.slice(0, 300))}`);
    },
  },
  {
    name: 'cline: a web page an agent asks to open comes as a VS Code dialog; Cancel declines it and opens nothing',
    async run(ui, note) {
      const pages = ui.page.context().pages().length;
      await ui.send('ask-url https://sign-in.example.com/authorize?state=xyz Sign in to Scripted to go on');
      const dialog = ui.page.locator('.monaco-dialog-box').first();
      const shown = note('dialog', await textOnceShown(dialog, ANSWER_TIMEOUT_MS));
      check(shown.includes('Scripted asks you to open a web page') && shown.includes('Sign in to Scripted to go on') && shown.includes('https://sign-in.example.com/authorize?state=xyz'), `the dialog reads otherwise: ${JSON.stringify(shown)}`);
      await ui.screenshot('cline-open-url-dialog');
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
      const text = note('answer', await ui.answer((t) => /url: (accept|decline|cancel)/.test(t), "the agent's report"));
      check(text.includes('url: decline'), `the agent heard otherwise: ${JSON.stringify(text.slice(0, 300))}`);
      check(ui.page.context().pages().length === pages, 'Cancel opened a page');
    },
  },
  {
    name: 'cline: New Task is a new agent session',
    async run(ui, note) {
      await ui.newTask();
      await ui.send('history');
      const seen = jsonIn(note('answer', await ui.answer((t) => t.includes(']'), 'the session history')));
      check(seen.length === 0, `the new task's session had seen ${JSON.stringify(seen)}`);
    },
  },
  {
    name: 'cline: picking another model in its settings hands the task to that agent, told what was said',
    async run(ui, note, ctx) {
      await ui.send('say before the switch');
      await ui.answer((t) => t.includes('before the switch'), 'the first answer');
      await ui.pickModel('symposium - acp-parrot');
      await ui.send('echo');
      const text = note('answer', await ui.answer((t) => t.includes('"echo"'), "Parrot's echo"));
      const told = jsonIn(text.slice(text.indexOf('[{')));
      check(told.at(-1)?.text === 'echo', `Parrot was not asked "echo": ${JSON.stringify(told)}`);
      check(/began before this session[\s\S]*User: say before the switch\nAssistant: before the switch/.test(told[0]?.text ?? ''), `Parrot was not told the task so far: ${JSON.stringify(told)}`);
      check(prompts(ctx.parrotPromptLog).length === 1, 'Parrot did not receive exactly one prompt');
      check((await ui.text()).includes('vscode-lm:symposium/acp-parrot'), "Cline's footer does not name Parrot");
    },
  },
  {
    name: 'cline: Cancel, then send again at once — the new message is answered',
    async run(ui, note) {
      await ui.send('ignore-cancel 1500\nstream 100 50');
      await ui.answer((t) => t.includes('c3 '), 'the stream');
      await ui.cancel();
      const shown = note('last chunk shown at the cancel', lastChunk(await ui.text()));
      // The agent keeps streaming for 1.5 s after the cancel: the message sent now waits for it, and none of it shows.
      await ui.send('say again');
      // Cline 4 takes no message until its own cancel is through: a person whose Enter it ignored presses it again
      // (seen once in three runs under load: the words left in its input, no request made).
      await sleep(2000);
      const input = (await ui.frame()).locator(ui.input).first();
      if ((await input.inputValue().catch(() => '')).includes('say again')) note('Enter pressed again', await input.press('Enter').then(() => true));
      const text = note('answer', await ui.answer((t) => /\bagain\b/.test(t) || /failed|error/i.test(t), 'the answer to the message sent again'));
      check(!/failed|error/i.test(text), `the message sent again failed: ${JSON.stringify(text)}`);
      await sleep(2000);
      const after = note('last chunk shown later', lastChunk(await ui.text()));
      check(after <= shown + 2, `the cancelled stream went on in the view: c${shown} at the cancel, c${after} later`);
    },
  },
  {
    name: 'cline: a file mentioned with @/ in a new task still reaches the agent; Cline\'s environment details do not',
    async run(ui, note, ctx) {
      writeFileSync(join(ctx.workspace, 'attach-mentioned.txt'), 'the mentioned file says 42\n');
      if (!(await ui.frame(3000).then(() => true, () => false))) await ui.open();
      // On Scripted, whose prompts ctx.promptLog holds (an earlier scenario hands the task to Parrot).
      await ui.pickModel('symposium - acp-scripted');
      await ui.newTask();
      await ui.send('@/attach-mentioned.txt what does it say?\nsay got the mention');
      note('answer', await ui.answer((t) => t.includes('got the mention'), "the agent's answer"));
      const prompt = promptBlocks(ctx.promptLog).at(-1) ?? [];
      note('prompt', prompt);
      const told = JSON.stringify(prompt);
      check(told.includes('the mentioned file says 42'), `the mentioned file's content did not reach the agent: ${told}`);
      check(!told.includes('environment_details'), `Cline's environment details reached the agent: ${told}`);
    },
  },
];

// Cline's Plan / Act switch as the agent's own mode (issue 47), on Scripted (whose modes are code, ask and plan).
CLINE_SCENARIOS.push({
  name: "cline: Plan mode puts the agent in its plan mode before the prompt; Act puts it back in its own",
  async run(ui, note, ctx) {
    if (!(await ui.frame(3000).then(() => true, () => false))) await ui.open();
    await ui.pickModel('symposium - acp-scripted');
    await ui.newTask();
    await ui.switchMode('Plan');
    // The agent says the mode it is in when the prompt reaches it: its own word, not the bridge's log.
    await ui.send('say [\nmode\nsay ] is my plan-mode answer');
    const plan = note('plan', await ui.answer((t) => /\[\s*\w+\s*\]/.test(t), "the agent's mode"));
    await ui.screenshot('cline-plan-mode');
    check(/\[\s*plan\s*\]/.test(plan), `in Plan mode the agent was not in its plan mode: ${JSON.stringify(plan.slice(0, 600))}`);
    await ui.switchMode('Act');
    await ui.send('say [\nmode\nsay ] is my act-mode answer');
    const act = note('act', await ui.answer((t) => /\[\s*\w+\s*\]/.test(t), "the agent's mode"));
    check(/\[\s*code\s*\]/.test(act), `in Act mode the agent was not back in its own mode: ${JSON.stringify(act.slice(0, 600))}`);
  },
});

// The agent's slash commands (issue 38): a scenario block of its own, on Scripted (whose prompts ctx.promptLog holds).
CLINE_SCENARIOS.push({
  name: "cline: /squawk typed reaches the agent as typed; //newtask reaches it as its /newtask, not Cline's",
  async run(ui, note, ctx) {
    if (!(await ui.frame(3000).then(() => true, () => false))) await ui.open();
    await ui.pickModel('symposium - acp-scripted');
    await ui.newTask();
    const before = prompts(ctx.promptLog).length;
    await ui.send('/squawk loudly');
    note('squawk', await ui.answer((t) => t.includes('You said: /squawk loudly'), "the agent's echo of /squawk"));
    await ui.screenshot('cline-command-typed');
    await ui.send('//newtask right away');
    note('newtask', await ui.answer((t) => t.includes('You said: /newtask right away'), "the agent's echo of its /newtask"));
    const received = note('prompts', prompts(ctx.promptLog).slice(before));
    check(received[0] === '/squawk loudly', `the agent was not given /squawk as typed: ${JSON.stringify(received)}`);
    check(received[1] === '/newtask right away', `the agent was not given its /newtask: ${JSON.stringify(received)}`);
  },
});

// Going back in a task (issue 45): Cline's "Edit and regenerate from here" on an earlier message, then "Reset Chat"
// (the conversation rewound, the code kept). Cline starts a session of its own from the messages before the edited
// one and sends the edited words: the agent must hold only those, here by a fork of its session.
CLINE_SCENARIOS.push({
  name: 'cline: rewind — an earlier message edited (Reset Chat): the agent holds nothing after it',
  async run(ui, note, ctx) {
    if (!(await ui.frame(3000).then(() => true, () => false))) await ui.open();
    await ui.pickModel('symposium - acp-scripted');
    await ui.newTask();
    for (const words of ['one', 'two', 'three']) {
      await ui.send(`say ${words} from cline`);
      await ui.answer((t) => t.includes(`${words} from cline`), `the answer "${words}"`);
    }
    const f = await ui.frame();
    await f.locator('[title="Edit and regenerate from here"]', { hasText: 'say two from cline' }).first().click();
    const editor = f.locator(`textarea:not(${ui.input})`).first();
    await editor.waitFor({ timeout: 10_000 });
    await editor.fill('history');
    await ui.screenshot('cline-rewind-editing');
    // The edited words show where the message was: the answer follows their first occurrence.
    ui.sent = 'history';
    ui.shownBefore = 0;
    await f.getByRole('button', { name: 'Reset Chat', exact: true }).click();
    const seen = jsonIn(note('answer', await ui.answer((t) => t.includes(']'), 'the session history')));
    await ui.screenshot('cline-rewind-edited-answered');
    const told = note('prompt', prompts(ctx.promptLog).at(-1) ?? '');
    // Scripted forks (--fork): its session forked after the first answer holds that exchange as its own, and the
    // prompt is the edited words alone.
    check(JSON.stringify(seen) === JSON.stringify(['say one from cline']), `the agent's session holds ${JSON.stringify(seen)}, not the first exchange alone`);
    check(told === 'history', `the agent was told more than the edited words: ${JSON.stringify(told)}`);
  },
});

// Commands through Cline's own tool (issue 46): the real Claude Code, whose Bash the bridge turns off where the request
// offers Cline's run_commands, runs a command through it; Cline asks the person with its own approval.
/** Picks Claude Code in Cline's settings and starts a new task in Act mode (where Cline runs commands). */
async function newClaudeTask(ui) {
  if (!(await ui.frame(3000).then(() => true, () => false))) await ui.open();
  await ui.pickModel('symposium - acp-claude');
  await ui.newTask();
  await ui.switchMode('Act');
}

CLINE_SCENARIOS.push({
  name: "cline: a command Claude Code runs goes through Cline's run_commands: Cline's approval, Run Command, VS Code's terminal runs it, and its output reaches Claude",
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    const file = join(ctx.workspace, 'cline-terminal.txt');
    const said = 'run touch cline-terminal.txt && echo made-in-cline';
    await ui.send(said);
    const f = await ui.frame();
    const runCommand = f.getByRole('button', { name: 'Run Command', exact: true });
    await runCommand.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    // Cline's own approval names the command; Symposium asked nothing of its own.
    const approval = note('approval', await ui.answer((t) => t.includes('touch cline-terminal.txt && echo made-in-cline'), "Cline's approval of the command", 10_000));
    check(!approval.includes('Allow agent action'), `Symposium asked for the command as well: ${JSON.stringify(approval.slice(0, 600))}`);
    check(await ui.page.locator('.monaco-dialog-box').count() === 0, 'a VS Code dialog asks as well');
    await ui.screenshot('cline-command-approval');
    check(!existsSync(file), 'the command ran before the person approved it');
    await runCommand.click();
    const answer = note('answer', await ui.answer((t) => /Terminal said:[^]*made-in-cline/.test(t), "Claude's answer with the command's output"));
    check(existsSync(file), 'the command did not run after Run Command');
    check(!/Run Command/.test(answer.slice(answer.indexOf('Terminal said:'))), 'Cline asks for a command again after the answer');
    // The output reached Claude's model as the tool's result, and its model had no Bash: the command went through Cline.
    const results = note('results', ctx.mock.conversation().flatMap((r) => ctx.mock.toolResultsOf(r)));
    check(results.some((t) => t.includes('made-in-cline')), `the command's output did not reach Claude's model: ${JSON.stringify(results)}`);
    const asked = ctx.mock.conversation().filter((r) => ctx.mock.userTextsOf(r).includes(said));
    check(asked.length > 0 && asked.every((r) => !(r.body.tools ?? []).some((t) => t.name === 'Bash')), "Claude's model was given its Bash");
    // It ran in VS Code's terminal, Cline's, where the person sees it (the terminal draws on a canvas: its text is in
    // the screenshot, not in the page).
    const terminals = note('terminals', await terminalNames(ui.page));
    check(terminals.some((name) => name.includes('Cline')), `VS Code's panel shows no terminal of Cline's: ${JSON.stringify(terminals)}`);
    await ui.screenshot('cline-command-ran');
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

// A command refused or stopped mid-run (issue 54): the person rejects Cline's approval, or cancels the task while the
// command runs. Claude's model must get a refusal or a stopped call (never the command's success), the turn must end,
// and the next message must be answered in the same Claude session, with no process of the command left.
/** Cline's button of that name in its view (the last one: the buttons above the input). */
async function clineButton(ui, name) {
  return (await ui.frame()).getByRole('button', { name, exact: true }).last();
}

/** Whether Cline shows a request in flight (its Cancel above the input) or a command running (Proceed While Running). */
async function clineBusy(ui) {
  const f = await ui.frame();
  return (await f.getByRole('button', { name: 'Proceed While Running', exact: true }).count()) > 0 || (await f.getByRole('button', { name: 'Cancel', exact: true }).count()) > 0;
}

/** Sends `said` and checks that the answer is `words`, that Claude's model was asked them once, in `session`. */
async function answeredNext(ui, note, ctx, said, words, session) {
  const since = ctx.mock.conversation().length;
  await ui.send(said);
  const text = note('next answer', await ui.answer((t) => t.includes(words), 'the answer to the next message'));
  const asked = ctx.mock.conversation().slice(since).filter((r) => ctx.mock.lastUserTextOf(r).endsWith(said));
  note('next message requests', asked.length);
  check(asked.length === 1, `Claude's model was asked ${asked.length} times for the next message`);
  check(ctx.mock.sessionIdOf(asked[0]) === session, 'the next message went to another Claude session');
  return { text, request: asked[0] };
}

CLINE_SCENARIOS.push({
  name: "cline: Reject at Cline's approval of a command: it does not run, Claude's model gets the refusal, the turn ends, the next message is answered",
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    const file = join(ctx.workspace, 'cline-rejected.txt');
    const since = ctx.mock.conversation().length;
    await ui.send('run touch cline-rejected.txt && echo rejected-ran');
    const reject = await clineButton(ui, 'Reject');
    await (await clineButton(ui, 'Run Command')).waitFor({ timeout: ANSWER_TIMEOUT_MS });
    note('approval', await ui.answer((t) => t.includes('touch cline-rejected.txt'), "Cline's approval of the command", 10_000));
    await ui.screenshot('cline-command-reject-approval');
    await reject.click();
    const answer = note('answer', await ui.answer((t) => /as you asked\.|Terminal said:/.test(t), "Claude's answer after the refusal"));
    await ui.screenshot('cline-command-rejected');
    check(!existsSync(file), 'the command ran although the person rejected it');
    // What Claude's model was given for the call: the refusal, not output.
    const results = commandResults(ctx.mock, since);
    note('model got', results.map(({ text, isError }) => ({ text, isError })));
    check(results.length === 1, `Claude's model got ${results.length} results of the command`);
    keepModelRequest(ctx, 'cline-rejected', results[0].request);
    check(!results[0].text.includes('rejected-ran'), `Claude's model got the command's output: ${JSON.stringify(results[0].text)}`);
    check(answer.includes('as you asked.') && !answer.includes('Terminal said:'), `Claude did not read a refusal: ${JSON.stringify(answer.slice(0, 600))}`);
    check(await eventually(async () => !(await clineBusy(ui)), 10_000), 'Cline still shows the turn running after the answer');
    const { text } = await answeredNext(ui, note, ctx, 'say answered after the reject', 'answered after the reject', ctx.mock.sessionIdOf(results[0].request));
    check(!text.includes('Run Command'), 'Cline asks for a command again after the next message');
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

CLINE_SCENARIOS.push({
  name: 'cline: Cancel while an approved command runs: the command ends, Claude gets no success, the turn ends, the next message is answered',
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    // An odd duration, so that the process list names this command alone.
    const sleeping = 'sleep 47.3';
    const since = ctx.mock.conversation().length;
    await ui.send(`run ${sleeping}; echo slept-through`);
    const runCommand = await clineButton(ui, 'Run Command');
    await runCommand.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await runCommand.click();
    check(await eventually(() => processesRunning(sleeping).length > 0, ANSWER_TIMEOUT_MS), `the command did not start (no "${sleeping}" process)`);
    const cancel = await clineButton(ui, 'Cancel');
    await cancel.waitFor({ timeout: 10_000 });
    await ui.screenshot('cline-command-running');
    await cancel.click();
    check(await eventually(() => processesRunning(sleeping).length === 0, 10_000), `the command still runs after Cancel: ${JSON.stringify(processesRunning(sleeping))}`);
    check(await eventually(async () => !(await clineBusy(ui)), 10_000), 'Cline still shows the turn running 10 s after Cancel');
    await ui.screenshot('cline-command-cancelled');
    note('view after cancel', (await ui.answer(() => true, 'the view')).slice(0, 1500));
    const session = ctx.mock.sessionIdOf(ctx.mock.conversation().slice(since).find((r) => ctx.mock.lastUserTextOf(r).endsWith(`run ${sleeping}; echo slept-through`)));
    const { text } = await answeredNext(ui, note, ctx, 'say answered after the cancel', 'answered after the cancel', session);
    await ui.screenshot('cline-command-cancelled-next');
    // The stopped call's result, if Claude's model got one, is no success: not the command's output.
    const results = commandResults(ctx.mock, since);
    note('model got', results.map(({ text: t, isError }) => ({ text: t, isError })));
    for (const [i, result] of results.entries()) keepModelRequest(ctx, `cline-cancelled-${i + 1}`, result.request);
    check(results.every((r) => !r.text.includes('slept-through')), `Claude's model got the command's output: ${JSON.stringify(results.map((r) => r.text))}`);
    // The stopped turn is over: the answer to the next message is that message's alone, not Claude's reply to the
    // stopped call before it.
    check(!text.includes('Terminal said'), `the stopped turn went on in the answer to the next message: ${JSON.stringify(text.slice(0, 600))}`);
    check(!text.includes('slept-through'), 'the stopped command\'s output shows after the next message');
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

// A message sent while the command runs (issue 59): Cline 4 keeps it as a pending prompt, steered into its loop's
// next model request (after the call's result) or queued behind the task. Claude's model must get the command's
// real result (never a refusal) and the words once, in the task's session.
CLINE_SCENARIOS.push({
  name: 'cline: a message sent while an approved command runs: Claude gets the command\'s real result and the words once, no refusal',
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    const sleeping = 'sleep 11.3';
    const since = ctx.mock.conversation().length;
    await ui.send(`run ${sleeping}; echo cline-steered-$((6*7))`);
    const runCommand = await clineButton(ui, 'Run Command');
    await runCommand.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await runCommand.click();
    check(await eventually(() => processesRunning(sleeping).length > 0, ANSWER_TIMEOUT_MS), `the command did not start (no "${sleeping}" process)`);
    const words = 'say words sent while Cline ran';
    await ui.send(words);
    check(processesRunning(sleeping).length > 0, 'the command had ended before the words were sent');
    await ui.screenshot('cline-message-while-running');
    // Claude's answer, not the words as Cline shows them queued or sent.
    const text = note('answer', await ui.answer((t) => /completed\s+words sent while Cline ran/i.test(t), 'the answer to the words'));
    await ui.screenshot('cline-message-while-running-answered');
    const results = commandResults(ctx.mock, since);
    note('model got', results.map(({ text: t, isError }) => ({ text: t, isError })));
    for (const [i, result] of results.entries()) keepModelRequest(ctx, `cline-message-while-running-${i + 1}`, result.request);
    check(results.length > 0 && results.every((r) => r.text.includes('cline-steered-42') && !r.isError), `Claude's model did not get the command's output as the call's result: ${JSON.stringify(results)}`);
    for (const problem of messageWhileRunningProblems(ctx.mock, since, words)) check(false, problem);
    check(text.split('words sent while Cline ran').length === 2, `the answer says the words ${text.split('words sent while Cline ran').length - 1} times`);
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

CLINE_SCENARIOS.push({
  name: 'cline: Cancel while an approved command runs, then Resume Task: the command ends, Claude gets no success and answers, nothing hangs',
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    // An odd duration, other than the Cancel scenario's, so that the process list names this command alone; its output
    // ("slept-42") is not in its words, which Cline's view shows.
    const sleeping = 'sleep 46.7';
    const since = ctx.mock.conversation().length;
    await ui.send(`run ${sleeping}; echo slept-$((6*7))`);
    const runCommand = await clineButton(ui, 'Run Command');
    await runCommand.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await runCommand.click();
    check(await eventually(() => processesRunning(sleeping).length > 0, ANSWER_TIMEOUT_MS), `the command did not start (no "${sleeping}" process)`);
    const cancel = await clineButton(ui, 'Cancel');
    await cancel.waitFor({ timeout: 10_000 });
    await cancel.click();
    check(await eventually(() => processesRunning(sleeping).length === 0, 10_000), `the command still runs after Cancel: ${JSON.stringify(processesRunning(sleeping))}`);
    const resume = await clineButton(ui, 'Resume Task');
    await resume.waitFor({ timeout: 10_000 });
    await ui.screenshot('cline-command-cancelled-resume');
    await resume.click();
    // Resumed, the task goes on from the stopped call: Claude answers what its result said, and the turn ends.
    const answer = note('answer', await ui.answer((t) => /as you asked\.|Terminal said:|Claude heard:/.test(t), "Claude's answer once the task resumed"));
    check(await eventually(async () => !(await clineBusy(ui)), 30_000), 'Cline still shows the turn running 30 s after Resume Task');
    await ui.screenshot('cline-command-cancelled-resumed');
    const results = commandResults(ctx.mock, since);
    note('model got', results.map(({ text, isError }) => ({ text, isError })));
    for (const [i, result] of results.entries()) keepModelRequest(ctx, `cline-resumed-${i + 1}`, result.request);
    check(results.length > 0 && results.every((r) => !r.text.includes('slept-42')), `Claude's model got no stopped result of the command: ${JSON.stringify(results.map((r) => r.text))}`);
    check(!answer.includes('slept-42'), 'the stopped command\'s output shows after Resume Task');
    const errors = ctx.mock.errors.splice(0);
    check(errors.length === 0, `the scripted Anthropic API failed: ${errors.join('; ')}`);
  },
});

/** Runs the Cline scenarios on `page`; each result is {name, passed, ms, error, details}. */
export async function runCline(page, ctx, log) {
  const ui = new ClineView(page, ctx.artifacts);
  return runScenarios('cline', CLINE_SCENARIOS, ui, ctx, log);
}

// Subagents (issue 51): Claude Code's two subagents at once, as text in Cline's view: each named by its task, its Read
// under its name, one end line each, no markup, the main answer once.
CLINE_SCENARIOS.push({
  name: "cline: Claude Code's two subagents at once show as text: each named, its Read under its name, one end line each, no markup, the main answer once",
  async run(ui, note, ctx) {
    await newClaudeTask(ui);
    writeSurveyReadme(ctx.workspace);
    await ui.send(SUBAGENT_SURVEY);
    const answer = note('answer', await ui.answer((t) => t.includes('Both surveys agree: a demo workspace.'), "Claude's answer after its subagents"));
    await ui.screenshot('cline-subagents');
    const problems = subagentSurveyProblems(answer);
    check(problems.length === 0, problems.join('; '));
  },
});

