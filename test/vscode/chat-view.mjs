// Scenarios in VS Code's own Chat view, driven as a person drives it: type into the input, press Enter, read the
// rendered answer, click Allow or Skip in the confirmation, press stop, switch modes, pick models. The consumer is
// GitHub Copilot Chat 0.67, built into code-server 4.139, answering through our models with
// "chat.allowAnonymousAccess" (shared/docs/vscode-host.md). Each scenario leaves a screenshot in the artifacts dir.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SLASH_COMMAND_SCENARIOS } from './slash-commands-view.mjs';
import { pathToFileURL } from 'node:url';

const RESPONSE_TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Types `text` where the focus is, Shift+Enter between its lines as a person writes several, and sends it with Enter. */
export async function typeAndSend(page, text) {
  for (const [i, line] of text.split('\n').entries()) {
    if (i > 0) await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(line);
  }
  await page.keyboard.press('Enter');
}

/** The text of what `locator` finds, once it shows (within `timeoutMs`). */
export async function textOnceShown(locator, timeoutMs) {
  await locator.waitFor({ timeout: timeoutMs });
  return locator.innerText();
}

/** What a person does in the Chat view, through the page. */
export class ChatView {
  constructor(page, artifacts) {
    this.page = page;
    this.artifacts = artifacts;
  }

  /** Runs a command from the Command Palette; `keepSelection`: without the Escape first, which clears the editor's selection. */
  async command(label, { keepSelection = false } = {}) {
    if (!keepSelection) await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('F1');
    await this.page.locator('.quick-input-widget input').waitFor({ timeout: 10_000 });
    await this.page.keyboard.type(label);
    const row = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
  }

  async open() {
    await this.command('Chat: Open Chat (Agent)');
    await this.page.locator('.interactive-input-editor').first().waitFor({ timeout: 30_000 });
  }

  /** Opens the Chat view in a workbench that may still be starting (its command palette does not open yet): three tries. */
  async openOnceStarted() {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.open();
        return;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  async newChat() {
    // Whatever a failed scenario left open (a menu, a picker) is closed first.
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Escape');
    await this.page.locator('a.action-label.codicon-plus[aria-label^="New Chat"]').first().click();
    await sleep(500);
  }

  async pickModel(name) {
    await this.page.locator('.model-picker-item').first().click();
    await this.page.keyboard.type(name);
    const row = this.page.locator('.chat-model-picker-dropdown .monaco-list-row', { hasText: name }).first();
    await row.waitFor({ timeout: 10_000 });
    await this.page.keyboard.press('Enter');
    await this.page.locator(`.model-picker-item [aria-label="Models, ${name}"]`).first().waitFor({ timeout: 10_000 });
  }

  async pickMode(name) {
    const current = this.page.locator('.chat-input-picker-item', { hasText: new RegExp(`^${name}$`) }).first();
    // A click that lands while the list is still opening is lost: the mode is checked by its exact name.
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.page.locator('.chat-input-picker-item', { hasText: /^(Agent|Ask|Plan|Edit)$/ }).first().click();
      const row = this.page.locator('.action-widget .monaco-list-row:visible', { hasText: name }).first();
      await row.waitFor({ timeout: 10_000 });
      await sleep(300);
      await row.click();
      if (await current.waitFor({ timeout: 3_000 }).then(() => true, () => false)) return;
    }
    throw new Error(`the mode ${name} could not be picked`);
  }

  /** Configure Tools: turns the Symposium tools (the confirmation of agent actions) off or on. */
  async toggleSymposiumTools() {
    await this.page.locator('a.action-label[aria-label^="Configure Tools"]').first().click();
    await this.page.locator('.quick-input-widget input').first().waitFor({ timeout: 10_000 });
    await this.page.keyboard.type('Symposium');
    const row = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Symposium' }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.locator('.monaco-checkbox').first().click();
    await this.page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first().click();
  }

  /**
   * Sets one of a model's own options where VS Code 1.139 lists options in no group: *Chat: Manage Language
   * Models*, the model's row, its context menu, the option's submenu.
   */
  async setModelOption(model, option, choice) {
    await this.command('Chat: Manage Language Models');
    const row = this.page.locator('.models-model-row', { hasText: model }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click({ button: 'right' });
    await this.page.locator('.monaco-menu .action-label:visible', { hasText: new RegExp(`^${option}$`) }).first().hover();
    const item = this.page.locator('.monaco-menu .action-label:visible', { hasText: choice }).first();
    await item.waitFor({ timeout: 10_000 });
    // A click that lands while the submenu redraws leaves the menu open, the choice not made: clicked again (the same
    // choice twice is one choice).
    const menu = this.page.locator('.monaco-menu:visible');
    for (let attempt = 0; attempt < 3 && (await menu.count()) > 0; attempt++) {
      await item.click().catch(() => {});
      await menu.first().waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => {});
    }
    if ((await menu.count()) > 0) await this.page.keyboard.press('Escape');
    // The editor closes on Escape once it has the focus.
    await row.click();
    await this.page.keyboard.press('Escape');
    await row.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /**
   * The list index of the newest response the chat shows, -1 before any. The Chat view's list renders only the rows
   * in sight, so a long chat's responses cannot be counted: a new one is told by its row's index.
   */
  async newestResponseIndex() {
    return this.page.evaluate(() => Math.max(-1, ...[...document.querySelectorAll('.monaco-list-row')].filter((row) => row.querySelector('.interactive-response') !== null).map((row) => Number(row.getAttribute('data-index')))));
  }

  /** From now on, `response` reads only a response after those shown now. */
  async markResponses() {
    this.responsesBefore = await this.newestResponseIndex();
  }

  async send(text) {
    await this.markResponses();
    await this.page.locator('.interactive-input-editor').first().click();
    await typeAndSend(this.page, text);
  }

  /** The text of the newest response, once it satisfies `ok`; throws with the text seen after the timeout. */
  async response(ok, what, timeoutMs = RESPONSE_TIMEOUT_MS) {
    const deadline = Date.now() + timeoutMs;
    let text = '';
    for (;;) {
      text = await this.page
        .evaluate((before) => {
          const rows = [...document.querySelectorAll('.monaco-list-row')].filter((row) => Number(row.getAttribute('data-index')) > before && row.querySelector('.interactive-response') !== null);
          const newest = rows.sort((a, b) => Number(b.getAttribute('data-index')) - Number(a.getAttribute('data-index')))[0];
          return newest === undefined ? '' : newest.querySelector('.interactive-response').innerText;
        }, this.responsesBefore ?? -1)
        .catch(() => '');
      if (ok(text)) return text;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; the newest response reads ${JSON.stringify(text)}`);
      await sleep(300);
    }
  }

  async confirmation(timeoutMs = RESPONSE_TIMEOUT_MS) {
    return textOnceShown(this.page.locator('.chat-confirmation-widget-container').last(), timeoutMs);
  }

  async click(label) {
    await this.page.locator('.chat-confirmation-widget-buttons a.monaco-text-button', { hasText: new RegExp(`^${label}$`) }).last().click();
  }

  /** "Allow Once", from the menu of the primary button (whose own choice, "Allow in this Session", would stop VS Code asking). */
  async allowOnce() {
    await this.page.locator('.chat-confirmation-widget-buttons .monaco-dropdown-button').last().click();
    const item = this.page.getByText('Allow Once', { exact: true }).last();
    await item.waitFor({ timeout: 10_000 });
    // A click that lands while the menu is still opening is lost: then the item is clicked again.
    for (let attempt = 0; attempt < 3; attempt++) {
      await item.click({ timeout: 5_000 }).catch(() => {});
      if (await item.waitFor({ state: 'hidden', timeout: 2_000 }).then(() => true, () => false)) return;
    }
  }

  /** The list of files the chat's edits changed, above the input ("2 files changed", Keep, Undo), once it shows. */
  async changedFiles(timeoutMs = RESPONSE_TIMEOUT_MS) {
    return textOnceShown(this.page.locator('.chat-editing-session-overview').last(), timeoutMs);
  }

  /** Keep or Undo for all the chat's edits; Undo's confirmation, if VS Code asks, is accepted. Returns what that asked. */
  async review(action) {
    await this.page.locator('.chat-editing-session-actions a.monaco-text-button', { hasText: new RegExp(`^${action}$`) }).last().click();
    const dialog = this.page.locator('.monaco-dialog-box');
    const asked = await dialog.first().waitFor({ timeout: 3000 }).then(() => dialog.first().innerText(), () => '');
    if (asked !== '') await dialog.first().getByRole('button', { name: 'Yes', exact: true }).click();
    await this.page.locator('.chat-editing-session-overview').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
    return asked;
  }

  /** The question an agent asks above the input, once it shows: its text. */
  async question(timeoutMs = RESPONSE_TIMEOUT_MS) {
    return textOnceShown(this.page.locator('.chat-question-carousel-container').last(), timeoutMs);
  }

  /** Picks `option` in the question above the input, and submits the answer unless the pick did (a single question does). */
  async answerQuestion(option) {
    const open = this.page.locator('.chat-question-carousel-container:not(.chat-question-carousel-used)').last();
    await open.locator('.chat-question-list-item', { hasText: option }).first().click();
    const answered = () => open.waitFor({ state: 'detached', timeout: 1500 }).then(() => true, () => false);
    if (!(await answered())) await open.locator('a.chat-question-submit-button').click({ timeout: 5000 });
  }

  /** Opens a workspace file in the editor through Quick Open. */
  async openFile(name) {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+P');
    await this.page.locator('.quick-input-widget input').waitFor({ timeout: 10_000 });
    await this.page.keyboard.type(name);
    await this.page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 10_000 });
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 10_000 });
  }

  async stop() {
    await this.page.locator('.chat-execute-toolbar a.action-label.codicon-stop-circle').first().click();
  }

  async idle(timeoutMs = RESPONSE_TIMEOUT_MS) {
    await this.page.locator('.chat-execute-toolbar a.action-label.codicon-stop-circle').first().waitFor({ state: 'detached', timeout: timeoutMs }).catch(() => {});
  }

  /** In the open quick input (titled `title`), types `text` and presses Enter: picks the row it filters to, or submits it. */
  async quickInput(title, text, { row } = {}) {
    const widget = this.page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: title }).first().waitFor({ timeout: 15_000 });
    await widget.locator('input').first().fill(text);
    if (row !== undefined) await widget.locator('.monaco-list-row', { hasText: row }).first().waitFor({ timeout: 10_000 });
    await this.page.keyboard.press('Enter');
  }

  /** Set Agent API Key's questions once the agent is chosen: another environment variable, its name, then the key. */
  async enterApiKey(agentName, variable, secret) {
    await this.quickInput(`API key for ${agentName}`, 'Another environment variable', { row: 'Another environment variable' });
    await this.quickInput('Environment variable', variable);
    await this.page.locator('.quick-input-widget input[type="password"]').first().waitFor({ timeout: 10_000 });
    await this.quickInput('API key', secret);
  }

  /** The notification toast that says `text`, once it shows. */
  async notification(text, timeoutMs = RESPONSE_TIMEOUT_MS) {
    const toast = this.page.locator('.notification-toast', { hasText: text }).last();
    await toast.waitFor({ timeout: timeoutMs });
    return toast;
  }

  /** Opens the model picker's list with its keybinding in the chat input, as a person who knows it does. */
  async openModelList() {
    await this.page.keyboard.press('Escape');
    await this.page.locator('.interactive-input-editor').first().click();
    await this.page.keyboard.press('Control+Alt+Period');
    await this.page.locator('.chat-model-picker-dropdown').first().waitFor({ timeout: 10_000 });
  }

  /** Picks a model from the list opened by openModelList (whatever the current model shows). */
  async pickListedModel(name) {
    await this.openModelList();
    await this.page.keyboard.type(name);
    await this.page.locator('.chat-model-picker-dropdown .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 15_000 });
    await this.page.keyboard.press('Enter');
    await this.page.locator(`.model-picker-item [aria-label="Models, ${name}"]`).first().waitFor({ timeout: 10_000 });
  }

  /**
   * Picks `name` in a window just opened, whose picker lists our models once its extension host has started ours:
   * tried again until then. A picker that closes as the models come leaves the rest of the typed name in the chat's
   * input, which is emptied before the next try (else the person's first message would start with it).
   */
  async pickOnceListed(name, tries = 4) {
    for (let tried = 1; ; tried++) {
      const error = await this.pickListedModel(name).then(() => undefined, (e) => e);
      if (error === undefined) break;
      if (tried === tries) throw error;
      await this.page.keyboard.press('Escape');
      await this.page.locator('.interactive-input-editor').first().click();
      await this.page.keyboard.press('ControlOrMeta+A');
      await this.page.keyboard.press('Delete');
      await sleep(5000);
    }
  }

  /** The rows the model picker lists for `filter`, as their text (name and detail); the picker is closed again. */
  async pickerRows(filter) {
    await this.openModelList();
    await this.page.keyboard.type(filter);
    const rows = this.page.locator('.chat-model-picker-dropdown .monaco-list-row', { hasText: filter });
    await rows.first().waitFor({ timeout: 15_000 });
    const texts = await rows.allInnerTexts();
    return texts;
  }

  async screenshot(name) {
    mkdirSync(this.artifacts, { recursive: true });
    await this.page.screenshot({ path: join(this.artifacts, `${name.replace(/[^\w-]+/g, '-')}.png`) });
  }
}

/** Checks that record what they saw, like the driver's. */
export class Checks {
  constructor() {
    this.details = {};
  }
  note(key, value) {
    this.details[key] = value;
    return value;
  }
  ok(condition, message) {
    if (!condition) throw new Error(message);
  }
  equal(actual, expected, what) {
    if (actual !== expected) throw new Error(`${what}: ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`);
  }
  includes(text, part, what) {
    if (!text.includes(part)) throw new Error(`${what}: ${JSON.stringify(part)} not in ${JSON.stringify(text)}`);
  }
  excludes(text, part, what) {
    if (text.includes(part)) throw new Error(`${what}: ${JSON.stringify(part)} is in ${JSON.stringify(text)}`);
  }
}

/** Every file under `dir` (recursively) whose content contains `needle`. */
function filesContaining(dir, needle) {
  const found = [];
  const visit = (p) => {
    let s;
    try {
      s = statSync(p);
    } catch {
      return;
    }
    if (s.isDirectory()) for (const e of readdirSync(p)) visit(join(p, e));
    else if (s.isFile() && s.size < 50_000_000 && readFileSync(p).includes(needle)) found.push(p);
  };
  visit(dir);
  return found;
}

/** The command lines of the live processes whose environment carries the run's marker and whose argv matches. */
function processArgv(ctx, pattern) {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`SYMPOSIUM_VSCODE_RUN=${ctx.runDir}`)) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (pattern.test(argv.join(' '))) found.push({ pid: Number(name), argv });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** What the extension and its bridge logged (the Symposium output channel's file); `ctx.userData`: the workbench's user data folder. */
export function symposiumLog(ctx) {
  const found = [];
  const visit = (dir) => {
    for (const e of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
      const p = join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name === 'Symposium.log') found.push(p);
    }
  };
  visit(join(ctx.userData, 'logs'));
  return found.map((f) => readFileSync(f, 'utf8')).join('\n');
}

/** The prompts a scripted agent received (its --prompt-log), each as the JSON array of its content blocks. */
export function promptBlocks(log) {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** The prompts the scripted agent received, each as its text blocks joined (other blocks as `[type]`). */
function prompts(ctx) {
  return promptBlocks(ctx.promptLog).map((blocks) => blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'));
}

/** Every request Copilot sent our models, as the extension recorded it. */
function requestsOf(ctx) {
  if (!existsSync(ctx.requests)) return [];
  return readFileSync(ctx.requests, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

/** The last user message's text of every request Copilot sent our models (the extension records them). */
function requestsLastWords(ctx) {
  if (!existsSync(ctx.requests)) return [];
  return readFileSync(ctx.requests, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l).messages.filter((m) => m.role === 'user').at(-1)?.content.map((p) => (p.type === 'text' ? p.value : '')).join('') ?? '');
}

/**
 * Sends a slash command: its completion list may be open when Enter is pressed, and then Enter only accepts
 * the completion; it is pressed again until the request shows.
 */
export async function sendCommand(ui, command) {
  const requests = ui.page.locator('.interactive-request');
  const before = await requests.count();
  await ui.send(command);
  for (let attempt = 0; attempt < 5 && (await requests.count()) === before; attempt++) {
    await sleep(1000);
    if ((await requests.count()) === before) await ui.page.keyboard.press('Enter');
  }
}

/**
 * Reloads the window as a person would, once VS Code has saved the chat (it does so on a timer: a person
 * reloading right after an answer may lose it either way), and waits until the chat shows `request` again
 * and its model list has settled.
 */
async function reloadWindow(ui, request) {
  await sleep(5000);
  await ui.page.reload();
  await ui.page.locator('.interactive-input-editor').first().waitFor({ timeout: 60_000 });
  await ui.page.locator('.interactive-request', { hasText: request }).first().waitFor({ timeout: 30_000 });
  await sleep(5000);
}

/** Whether `check` comes true within `timeoutMs`, polled. */
async function waitFor(check, timeoutMs) {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(250)) if (check()) return true;
  return check();
}

/**
 * After Skip: the answer (once it shows `words`, the agent's after the refusal) says in one line that `command` was
 * refused by the person, without the agent's own words for it, a fence or a code block, and `words` show once.
 */
export async function checkRefusedInOneLine(ui, c, command, words, screenshot) {
  const text = c.note('response', await ui.response((t) => t.includes(words), 'the answer after Skip'));
  await ui.idle();
  await ui.screenshot(screenshot);
  const response = ui.page.locator('.interactive-response').last();
  c.note('html', await response.locator('.rendered-markdown').last().innerHTML());
  c.includes(text, `${command} refused by you`, "the refused command's line");
  c.excludes(text, 'User refused permission', "the answer (the agent's words for the refusal)");
  c.excludes(text, '```', 'the answer (a fence shown as text)');
  c.ok(text.split(words).length === 2, `the agent's words after the refusal show ${text.split(words).length - 1} times`);
  c.ok((await response.locator('.interactive-result-code-block, .monaco-editor').count()) === 0, 'a code block in the answer');
}

/** A new chat on the Scripted model, picked unless it is already (the picker then shows its options where a click would land). */
export async function newScriptedChat(ui) {
  await ui.newChat();
  if ((await ui.page.locator('.model-picker-item [aria-label="Models, Scripted"]').count()) === 0) await ui.pickModel('Scripted');
}

/**
 * The scripted agent's whole report of an answer (`answer: ACTION` and its content). The Chat view renders an
 * answer word by word: a report read before its last word would be cut.
 */
const answerReported = (text) => /answer: (accept \{[^}]*\}|decline|cancel)/.test(text);
const urlReported = (text) => /url: (accept|decline|cancel)/.test(text);

const COPILOT_BLOCKS = ['<environment_info>', '<workspace_info>', '<userMemory>', '<sessionMemory>', '<repoMemory>', '<context>', '<reminderInstructions>', '<userRequest>', '<attachments>', '<modeInstructions>'];

export const CHAT_SCENARIOS = [
  {
    name: 'chat: Eliza answers what a person types',
    async run(ui, c, ctx) {
      await ui.open();
      await ui.send('I am worried about my exams');
      // The model's name shows under the answer once it is complete.
      const text = c.note('response', await ui.response((t) => t.includes(ctx.elizaReply('I am worried about my exams')) && t.includes('Eliza (built-in)'), "Eliza's reply, named"));
      c.includes(text, ctx.elizaReply('I am worried about my exams'), "Eliza's reply");
    },
  },
  {
    name: 'chat: an agent picked in the model picker answers; it gets the user\'s words only',
    async run(ui, c, ctx) {
      await ui.newChat();
      await ui.pickModel('Scripted');
      await ui.send('say hello from the agent');
      c.note('response', await ui.response((t) => t.includes('hello from the agent'), "the agent's reply"));
      const received = c.note('prompts', prompts(ctx));
      c.ok(received.includes('say hello from the agent'), `the agent was not told exactly the typed words: ${JSON.stringify(received)}`);
      for (const block of COPILOT_BLOCKS) for (const p of received) c.excludes(p, block, "a prompt the agent received (Copilot's context must not reach it)");
    },
  },
  {
    name: 'chat: consent — Allow runs the action',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      const file = join(ctx.workspace, 'allowed.txt');
      await ui.send('run touch allowed.txt');
      const question = c.note('confirmation', await ui.confirmation());
      c.includes(question, 'Allow the agent to run touch allowed.txt?', 'the confirmation names the command');
      await ui.screenshot('chat-consent-confirmation');
      c.ok(!existsSync(file), 'the file exists before the person allowed it');
      await ui.allowOnce();
      c.note('response', await ui.response((t) => t.includes('ran touch allowed.txt'), 'the report that the command ran'));
      c.ok(existsSync(file), 'the command did not run after Allow');
    },
  },
  {
    name: 'chat: consent — Skip does not run the action',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      const file = join(ctx.workspace, 'skipped.txt');
      await ui.send('run touch skipped.txt');
      c.note('confirmation', await ui.confirmation());
      await ui.click('Skip');
      c.note('response', await ui.response((t) => t.includes('did not run touch skipped.txt: reject_once'), 'the report that the command did not run'));
      c.ok(!existsSync(file), 'the command ran although the person skipped it');
    },
  },
  {
    name: "chat: consent — after Skip the refused command reads as one clean line, refused by you, and the answer goes on",
    async run(ui, c, ctx) {
      // The scripted agent runs with --claude-results: the refusal comes as Claude Code sends it, fenced
      // ("```\nUser refused permission to run tool\n```"), which once left a code block open in the answer.
      await newScriptedChat(ui);
      const file = join(ctx.workspace, 'refused.txt');
      await ui.send('run touch refused.txt\nsay the answer goes on after the refusal');
      c.note('confirmation', await ui.confirmation());
      await ui.click('Skip');
      await checkRefusedInOneLine(ui, c, 'touch refused.txt', 'the answer goes on after the refusal', 'chat-skip-refused');
      c.ok(!existsSync(file), 'the command ran although the person skipped it');
    },
  },
  {
    name: 'chat: consent — Stop while the confirmation shows cancels the turn; nothing of it shows later',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      const file = join(ctx.workspace, 'stopped.txt');
      await ui.send('run touch stopped.txt\nsay the rest of the stopped turn');
      c.note('confirmation', await ui.confirmation());
      await ui.stop();
      await ui.idle();
      await sleep(1000);
      await ui.send('say next message');
      const text = c.note('response', await ui.response((t) => t.includes('next message'), 'the answer to the next message'));
      await ui.idle();
      c.excludes(text, 'the rest of the stopped turn', 'the answer to the next message');
      c.excludes(text, 'ran touch', 'the answer to the next message');
      c.ok(!existsSync(file), 'the command ran although the person stopped the turn');
    },
  },
  {
    name: 'chat: consent — Ask mode refuses the action and says so',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.pickMode('Ask');
      const file = join(ctx.workspace, 'asked.txt');
      await ui.send('run touch asked.txt');
      const text = c.note('response', await ui.response((t) => t.includes('did not run touch'), 'the refusal'));
      c.includes(text, 'Not allowed: the agent asked to run', 'the refusal shown to the person');
      c.ok(!existsSync(file), 'the command ran in Ask mode');
      await ui.pickMode('Agent');
    },
  },
  {
    name: 'chat: consent — the confirmation tool turned off refuses the action and says so',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.toggleSymposiumTools();
      try {
        const file = join(ctx.workspace, 'disabled.txt');
        await ui.send('run touch disabled.txt');
        const text = c.note('response', await ui.response((t) => t.includes('did not run touch'), 'the refusal'));
        c.includes(text, 'Not allowed: the agent asked to run', 'the refusal shown to the person');
        c.ok(!existsSync(file), 'the command ran with the confirmation tool turned off');
      } finally {
        await ui.idle();
        await ui.toggleSymposiumTools();
      }
    },
  },
  {
    name: "chat: the picker names the agent, not its mode; the agent's own options are set in Manage Language Models",
    async run(ui, c) {
      // The scripted agent offers a mode (--modes ask,code), as Claude Code does ("Manual", "Plan", …).
      await newScriptedChat(ui);
      await ui.send('mode');
      c.note('before', await ui.response((t) => t.includes('ask'), 'the current mode'));
      await ui.idle();
      const picker = ui.page.locator('.model-picker-item').first();
      c.equal(c.note('pickerLabel', await picker.locator('.chat-input-picker-label').first().innerText()), 'Scripted', "the picker's label");
      c.ok((await picker.locator('.model-picker-config:visible').count()) === 0, "a button of the model's options beside the picker");
      await ui.screenshot('chat-picker-names-the-agent');
      await ui.setModelOption('Scripted', 'Mode', 'Mode code');
      await ui.send('mode');
      c.note('after', await ui.response((t) => /(^|\n)code(\n|$)/.test(t), 'the mode set in Manage Language Models'));
      await ui.idle();
      c.equal(await picker.locator('.chat-input-picker-label').first().innerText(), 'Scripted', "the picker's label after the mode changed");
      await ui.setModelOption('Scripted', 'Mode', 'Mode ask');
    },
  },
  {
    name: 'chat: thinking and tool activity render',
    async run(ui, c) {
      await newScriptedChat(ui);
      await ui.send('think weighing the options\ntool t1 ls -la\nsay all done');
      const text = c.note('response', await ui.response((t) => t.includes('all done'), 'the reply'));
      await ui.idle();
      c.includes(text, 'ls -la', 'the tool line');
      // The command's output, whole, as a code block between its lines.
      c.includes(text.replace(/\s+/g, ' '), 'done: ls -la', "the command's output (a code block's spaces are no-break ones)");
      c.ok((await ui.page.locator('.interactive-response').last().locator('.interactive-result-code-block, .monaco-editor').count()) > 0, "no code block of the command's output");
      await ui.screenshot('chat-command-output-block');
      c.ok((await ui.page.locator('.interactive-response').last().locator('.chat-thinking-box, .chat-thinking-collapsible').count()) > 0, 'no thinking block in the response');
    },
  },
  {
    name: "chat: Copilot's tools reach the agent and run in the view",
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.send('mcp-list');
      const listed = c.note('listed', await ui.response((t) => t.includes('list_dir'), "the agent's list of the tools"));
      await ui.idle();
      for (const tool of ['read_file', 'list_dir', 'run_in_terminal']) c.includes(listed, tool, "the tools the agent lists from the bridge's MCP server");
      c.excludes(listed, 'symposium-agent-action', "the tools the agent lists (the confirmation tool is the bridge's, not the agent's)");
      await ui.send(`mcp-call list_dir {"path": ${JSON.stringify(ctx.workspace)}}`);
      const text = c.note('response', await ui.response((t) => /result list_dir|error list_dir|failed list_dir/.test(t), 'the result of list_dir'));
      await ui.idle();
      c.includes(text, 'result list_dir', 'the tool result reaching the agent');
    },
  },
  {
    name: "chat: the chat's title is answered without the agent",
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.send('say titled conversation');
      c.note('response', await ui.response((t) => t.includes('titled conversation'), 'the reply'));
      await ui.idle();
      await sleep(3000);
      const received = c.note('prompts', prompts(ctx));
      for (const p of received) c.excludes(p, 'brief title', 'a prompt the agent received (the title request must not reach it)');
    },
  },
  {
    name: 'chat: a model picked mid-chat answers, told the chat so far; switching back continues the first session',
    async run(ui, c, ctx) {
      await ui.newChat();
      await ui.pickListedModel('Eliza (built-in)');
      await ui.send('hello');
      c.note('eliza', await ui.response((t) => t.includes(ctx.elizaReply('hello')) && t.includes('Eliza (built-in)'), "Eliza's reply, named"));
      await ui.idle();
      await ui.pickListedModel('Scripted');
      await ui.send('say Polly wants a cracker');
      const parrot = c.note('scripted', await ui.response((t) => t.includes('Scripted') && !t.includes('Working'), 'the reply, named'));
      await ui.idle();
      c.includes(parrot, 'Polly wants a cracker', 'the reply of the agent picked (not Eliza)');
      const told = c.note('told', prompts(ctx).at(-1) ?? '');
      c.includes(told, 'This conversation began before this session', 'what the agent picked was told');
      c.includes(told, `User: hello\nAssistant: ${ctx.elizaReply('hello')}`, 'what the agent picked was told');
      await ui.pickListedModel('Eliza (built-in)');
      await ui.send('I am worried about my exams');
      c.note('eliza again', await ui.response((t) => t.includes('Eliza (built-in)') && !t.includes('Working'), "Eliza's reply, named"));
      await ui.idle();
      await ui.pickListedModel('Scripted');
      await ui.send('history');
      const history = c.note('history', await ui.response((t) => t.includes(']') && t.includes('Scripted'), "the agent's history"));
      await ui.idle();
      c.includes(history, 'say Polly wants a cracker', 'the history of the session the chat went back to (the same session)');
      const back = c.note('told back', prompts(ctx).at(-1) ?? '');
      c.includes(back, 'went on without this session', 'what the agent switched back to was told');
      c.includes(back, 'User: I am worried about my exams', 'what the agent switched back to was told');
    },
  },
  {
    name: 'chat: a silent agent — after 30 s without a word the answer says it has not answered yet and what is known; stop still stops it',
    async run(ui, c) {
      await newScriptedChat(ui);
      const sentAt = Date.now();
      await ui.send('hang');
      // symposium.silenceNoticeSeconds: its default, 30 s (issue 60).
      const text = c.note('line', await ui.response((t) => t.includes('has not answered yet'), 'the line that the agent has not answered yet', 60_000));
      c.note('lineMs', Date.now() - sentAt);
      c.includes(text, 'Scripted has not answered yet (30 s without a word): its process is running', 'the answer');
      c.includes(text, 'hanging until cancelled', "the answer (the agent's last words on stderr)");
      await ui.screenshot('chat-silent-agent');
      // The turn goes on: the stop button is still there, and stops it.
      c.ok((await ui.page.locator('.chat-execute-toolbar a.action-label.codicon-stop-circle').count()) > 0, 'the turn ended by itself after the line');
      await ui.stop();
      await ui.idle(10_000);
      await ui.send('say after the silence');
      c.note('next', await ui.response((t) => t.includes('after the silence'), 'the next answer'));
      await ui.idle();
    },
  },
  {
    name: 'chat: stop, then send again at once — the new message is answered, nothing of the stopped reply shows',
    async run(ui, c) {
      await newScriptedChat(ui);
      // The agent takes 1.5 s to honour the cancel and streams on meanwhile: the next prompt waits for it.
      await ui.send('ignore-cancel 1500\nstream 100 50');
      await ui.response((t) => t.includes('c3 '), 'the stream');
      await ui.stop();
      await ui.send('say again');
      const text = c.note('response', await ui.response((t) => /\bagain\b/.test(t) || /failed|error/i.test(t), 'the answer to the message sent again'));
      await ui.idle();
      await sleep(2000);
      const settled = c.note('settled', await ui.page.locator('.interactive-response').last().innerText());
      c.ok(!/failed|error/i.test(text), `the message sent again failed: ${JSON.stringify(text)}`);
      c.ok(!/\bc\d+ /.test(settled), `the stopped reply's chunks joined the next answer: ${JSON.stringify(settled)}`);
    },
  },
  {
    name: 'chat: a new chat on an agent in use is answered without waiting for the agent to open a session',
    async run(ui, c, ctx) {
      // Slow takes 2 s to open a session. Its first chat opens one, and a spare behind it.
      await ui.newChat();
      await ui.pickListedModel('Slow');
      try {
        await ui.send('say warm');
        c.note('first chat', await ui.response((t) => t.includes('warm') && t.includes('Slow'), 'the first answer'));
        await ui.idle();
        await sleep(3000);
        await ui.newChat();
        const sent = Date.now();
        await ui.send('say fresh');
        c.note('new chat', await ui.response((t) => t.includes('fresh') && t.includes('Slow'), "the new chat's answer"));
        c.note('Enter → answer (ms)', Date.now() - sent);
        await ui.idle();
        await ui.screenshot('chat-new-chat-answered-in-a-spare-session');
        const log = c.note('log', symposiumLog(ctx).split('\n').filter((l) => /agent Slow/.test(l)).join('\n'));
        c.ok(/agent Slow: conversation \S+ is ACP session \S+, opened ahead as a spare/.test(log), "the new chat's session was not the one opened ahead");
        // Copilot asks a model picked for progress messages (once a window, for the first model picked): then its agent starts at once.
        const asked = requestsOf(ctx).findIndex((r) => r.modelId === 'symposium-agent-slow' && /progress messages/.test(JSON.stringify(r.messages)));
        const first = requestsOf(ctx).findIndex((r) => r.modelId === 'symposium-agent-slow' && /say warm/.test(JSON.stringify(r.messages)));
        if (asked >= 0 && asked < first) c.ok(/agent Slow: starting ahead of its first request/.test(log), 'Slow did not start when Copilot asked its model for progress messages');
      } finally {
        await ui.newChat();
        await ui.pickListedModel('Scripted');
      }
    },
  },
  {
    name: 'chat: after a window reload the chat continues with the agent in the same live session of the agent host, nothing resumed',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.send('say remember the word apricot');
      c.note('before', await ui.response((t) => t.includes('remember the word apricot'), 'the reply'));
      await ui.idle();
      const times = (pattern) => (symposiumLog(ctx).match(pattern) ?? []).length;
      const resumedBefore = times(/resumed ahead of its next turn/g);
      const opensBefore = times(/opens a session/g);
      await reloadWindow(ui, 'say remember the word apricot');
      // The reloaded window joined the agent host, where the chat's session stayed open: there is nothing to resume.
      c.ok(await waitFor(() => /joined the agent host/.test(symposiumLog(ctx)), 30_000), 'the reloaded window did not join the agent host');
      await ui.send('history');
      const text = c.note('response', await ui.response((t) => t.includes('[') && t.includes(']'), "the agent's record of the conversation"));
      c.includes(text, 'remember the word apricot', 'what the agent remembers of the conversation after the reload');
      c.ok(times(/resumed ahead of its next turn/g) === resumedBefore, 'a session was resumed although the chat\'s stayed open in the agent host');
      c.ok(times(/opens a session/g) === opensBefore, 'the message after the reload opened a session: it did not go on in the live one');
    },
  },
  {
    name: 'chat: /compact is answered without the agent; the chat goes on in the same agent session',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.send('say remember the word quince');
      c.note('before', await ui.response((t) => t.includes('remember the word quince'), 'the reply'));
      await ui.idle();
      const promptsBefore = prompts(ctx).length;
      await sendCommand(ui, '/compact');
      c.note('compacted', await ui.response((t) => /Compacted conversation|compact/i.test(t) && !/Compacting/.test(t), "Copilot's report of the compaction"));
      await ui.idle();
      await ui.screenshot('chat-compacted');
      await ui.send('history');
      const text = c.note('response', await ui.response((t) => t.includes('[') && t.includes(']'), "the agent's record of its session"));
      await ui.idle();
      // The session's first prompt is the chat's first message: the same ACP session answered after the compaction.
      c.includes(text, '["say remember the word quince"', "the agent session's record after the compaction");
      const received = c.note('prompts', prompts(ctx).slice(promptsBefore));
      c.ok(received.length === 1 && received[0] === 'history', `the agent received more than the next message after the compaction: ${JSON.stringify(received)}`);
      for (const p of received) {
        c.excludes(p, 'Summarize the conversation', 'a prompt the agent received (a compaction must not reach it)');
        c.excludes(p, 'conversation-summary', 'a prompt the agent received (the summary must not reach it)');
      }
    },
  },
  {
    name: 'chat: after /compact and a window reload the chat goes on in the same agent session, found by its marker',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      await ui.send('say remember the word rowan');
      c.note('before', await ui.response((t) => t.includes('remember the word rowan'), 'the reply'));
      await ui.idle();
      await sendCommand(ui, '/compact');
      c.note('compacted', await ui.response((t) => /Compacted conversation/.test(t), "Copilot's report of the compaction"));
      await ui.idle();
      await reloadWindow(ui, 'say remember the word rowan');
      const promptsBefore = prompts(ctx).length;
      // The new bridge knows no message of the next request (the summary and the new words): only the summary's marker names the conversation.
      await ui.send('history');
      const text = c.note('response', await ui.response((t) => t.includes('[') && t.includes(']'), "the agent's record of its session"));
      await ui.idle();
      c.includes(text, '["say remember the word rowan"', "the agent session's record after the compaction and the reload");
      const received = c.note('prompts', prompts(ctx).slice(promptsBefore));
      c.ok(received.length === 1 && received[0] === 'history', `the agent received more than the next message: ${JSON.stringify(received)}`);
    },
  },
  {
    name: 'chat: compaction as the context fills up runs without the agent; the turn in flight and the chat go on in the same session',
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      const compactionsBefore = requestsLastWords(ctx).filter((w) => w.startsWith('The conversation has grown too large')).length;
      try {
        // The agent reports a context 97% full of a 60k window: Copilot compacts in the background from the next turn on.
        await ui.send('say remember the word medlar\nusage 58000 60000');
        c.note('first', await ui.response((t) => t.includes('remember the word medlar'), 'the reply'));
        await ui.idle();
        await sleep(2000);
        const promptsBefore = prompts(ctx).length;
        await ui.send('say the second turn\nusage 58000 60000');
        c.note('second', await ui.response((t) => t.includes('the second turn'), 'the reply of the turn during which Copilot compacts'));
        await ui.idle();
        await sleep(2000);
        await ui.send('history');
        const text = c.note('response', await ui.response((t) => t.includes('[') && t.includes(']'), "the agent's record of its session"));
        await ui.idle();
        await ui.screenshot('chat-compacted-in-the-background');
        const compactions = requestsLastWords(ctx).filter((w) => w.startsWith('The conversation has grown too large')).length - compactionsBefore;
        c.ok(c.note('compactions', compactions) > 0, 'Copilot did not compact the conversation: the scenario proves nothing');
        c.includes(text, '["say remember the word medlar', "the agent session's record after the compaction");
        c.includes(text, 'the second turn', "the agent session's record after the compaction");
        const received = c.note('prompts', prompts(ctx).slice(promptsBefore));
        // Exactly the two messages, each once: the compaction came during the second turn, which the agent must not get again.
        c.ok(received.length === 2 && received[0] === 'say the second turn\nusage 58000 60000' && received[1] === 'history', `the agent received other prompts than the two messages: ${JSON.stringify(received)}`);
        for (const p of received) {
          c.excludes(p, 'compacted now', 'a prompt the agent received (a compaction must not reach it)');
          c.excludes(p, 'conversation-summary', 'a prompt the agent received (the summary must not reach it)');
        }
      } finally {
        // The Scripted model's window back to its size for the scenarios after this one.
        await ui.idle();
        await ui.newChat();
        await ui.send('usage 0 200000');
        await ui.idle();
      }
    },
  },
  {
    name: "chat: the context meter shows the agent's usage",
    async run(ui, c) {
      await newScriptedChat(ui);
      await ui.send('usage 50000 200000\nsay measured');
      c.note('response', await ui.response((t) => t.includes('measured'), 'the reply'));
      await ui.idle();
      const meter = ui.page.locator('.chat-context-usage-widget').first();
      const label = c.note('meter', await meter.getAttribute('aria-label'));
      c.ok(label !== null && /\d+%/.test(label) && !/\b0%/.test(label), `the context meter reads ${JSON.stringify(label)}`);
    },
  },
  {
    name: "chat: the picker says an agent that is not installed is so, and its request says what is missing",
    async run(ui, c, ctx) {
      c.ok(!c.note('kimiOnPath', ctx.onPath('kimi')), 'kimi is on PATH here: this scenario needs a built-in that is not installed');
      {
        await ui.newChat();
        const rows = c.note('pickerRows', await ui.pickerRows('Kimi CLI'));
        await ui.screenshot('chat-picker-not-installed');
        c.ok(rows.some((r) => r.includes('not installed')), `the picker's Kimi CLI row does not say "not installed": ${JSON.stringify(rows)}`);
        await ui.page.keyboard.press('Escape');
        await ui.pickListedModel('Kimi CLI');
        await ui.send('hello');
        const text = c.note('response', await ui.response((t) => t.includes('not installed'), 'the failure saying what is missing'));
        c.includes(text, 'Kimi CLI is not installed here: kimi was not found on PATH', 'the failure (rendered as markdown)');
        // Copilot appends an error's stack to its reason; the person reads the message only.
        c.excludes(text, 'provideLanguageModelChatResponse', 'the failure (no stack frames of the extension)');
        c.excludes(text, 'Error: Kimi', 'the failure (the message once, not again as a stack)');
        await ui.idle();
        await ui.pickListedModel('Scripted');
      }
    },
  },
  {
    name: 'chat: sign-in — an agent that answers auth_required: the request ends saying so, the person signs in from the notification, and the message sent again is answered',
    async run(ui, c, ctx) {
      // The agent "needs-sign-in" of the settings (run.mjs) is the scripted agent with --auth-required: it refuses
      // session/new until `authenticate` with `oauth` ("Sign in") or `api-key` ("API key"); the provider offers both
      // as the notification's buttons.
      {
        await ui.newChat();
        await ui.pickListedModel('Needs sign-in');
        await ui.send('say signed in and answered');
        const toast = await ui.notification('Needs sign-in needs you to sign in.');
        c.note('notification', await toast.innerText());
        await ui.screenshot('chat-sign-in-offered');
        c.ok(!(await ui.response(() => true, 'any response')).includes('signed in and answered'), 'the agent answered before it was signed in');
        // The request ended at once, saying what to do (issue 60); the notification stays beside it.
        c.includes(c.note('failure', await ui.response((t) => t.includes('is not signed in'), 'the sentence that says what to do')), 'Needs sign-in is not signed in.', 'the failed answer');
        await ui.idle();
        await toast.locator('.monaco-button', { hasText: /^Sign in$/ }).first().click();
        await ui.notification('Needs sign-in is signed in: send your message again.');
        await ui.send('say signed in and answered');
        c.note('response', await ui.response((t) => t.includes('signed in and answered'), 'the answer after the sign-in'));
        await ui.idle();
        // Signed in, the next message goes straight through.
        await ui.send('say still signed in');
        c.note('next', await ui.response((t) => t.includes('still signed in'), 'the next answer'));
        c.ok((await ui.page.locator('.notification-toast', { hasText: 'needs you to sign in' }).count()) === 0, 'the sign-in was offered again');
        await ui.idle();
        await ui.pickListedModel('Scripted');
      }
    },
  },
  {
    name: 'chat: a prompt refused for want of a key — sign-in needed in the picker, Set API Key in the notification, then the message sent again is answered without a reload',
    async run(ui, c, ctx) {
      // The agent "no-key" of the settings (run.mjs) opens sessions but refuses prompts with auth_required while
      // SYMPOSIUM_TEST_KEY is not in its environment, as claude-agent-acp does without ANTHROPIC_API_KEY.
      const secret = `sk-no-key-${createHash('sha256').update(ctx.runDir).digest('hex').slice(0, 16)}`;
      await ui.newChat();
      await ui.pickListedModel('No key');
      await ui.send('say first try');
      // Dismissed, the sign-in is not done: the answer says what to do, and the picker says the agent needs one.
      const dismissed = await ui.notification('No key needs you to sign in.');
      c.note('notification', await dismissed.innerText());
      await dismissed.hover();
      await dismissed.locator('.codicon-notifications-clear').first().click();
      const failure = c.note('failure', await ui.response((t) => t.includes('Then send your message again'), 'the sentence that says what to do'));
      c.includes(failure, 'No key is not signed in. Set its API key with "Symposium: Set Agent API Key". Then send your message again.', 'the failed answer');
      await ui.idle();
      await ui.screenshot('chat-missing-key-says-what-to-do');
      const rows = c.note('pickerRowsBefore', await ui.pickerRows('No key'));
      c.ok(rows.some((r) => r.includes('sign-in needed')), `the picker does not say the agent needs a sign-in: ${JSON.stringify(rows)}`);
      await ui.page.keyboard.press('Escape');
      // Sent again, the notification offers the fix; the key set, the message sent again is answered.
      await ui.send('say answered once the key was set');
      const toast = await ui.notification('No key needs you to sign in.');
      await ui.screenshot('chat-missing-key-offered');
      await toast.locator('.monaco-button', { hasText: /^Set API Key$/ }).first().click();
      await ui.enterApiKey('No key', 'SYMPOSIUM_TEST_KEY', secret);
      await ui.notification('No key is signed in: send your message again.');
      await ui.send('say answered once the key was set');
      const text = c.note('response', await ui.response((t) => t.includes('answered once the key was set') && !t.includes('not signed in'), 'the answer once the key was set'));
      c.excludes(text, 'is not signed in', 'the answer (the request went through once the key was set)');
      await ui.idle();
      await ui.screenshot('chat-missing-key-answered');
      await ui.send('say answered again');
      c.note('next', await ui.response((t) => t.includes('answered again'), 'the next answer'));
      await ui.idle();
      const after = c.note('pickerRowsAfter', await ui.pickerRows('No key'));
      c.ok(after.some((r) => r.includes('ready')) && !after.some((r) => r.includes('sign-in needed')), `the picker still says the agent needs a sign-in: ${JSON.stringify(after)}`);
      await ui.page.keyboard.press('Escape');
      await ui.pickListedModel('Scripted');
    },
  },
  {
    name: 'chat: Set Agent API Key — the key reaches the agent, and not the settings, argv, logs or state',
    async run(ui, c, ctx) {
      const secret = `sk-symposium-test-${createHash('sha256').update(ctx.runDir).digest('hex').slice(0, 24)}`;
      // The agent "needs-key" of the settings (run.mjs) is the scripted agent with SYMPOSIUM_TEST_AGENT=needs-key in
      // its env, which tells its process apart from the other scripted agents'.
      {
        await ui.newChat();
        await ui.pickListedModel('Needs key');
        await ui.command('Symposium: Set Agent API Key');
        await ui.quickInput('Symposium: Set Agent API Key', 'Needs key', { row: 'Needs key' });
        await ui.enterApiKey('Needs key', 'SYMPOSIUM_TEST_KEY', secret);
        c.note('stored', await (await ui.notification("SYMPOSIUM_TEST_KEY of Needs key is in VS Code's secret storage", 15_000)).innerText());
        await ui.screenshot('chat-api-key-stored');
        await ui.send('say keyed');
        c.note('response', await ui.response((t) => t.includes('keyed'), "the agent's answer"));
        await ui.idle();
        // The agent's own environment holds the key: read from /proc, as the agent process runs.
        const agents = processArgv(ctx, /scripted-agent\.js$/).filter(({ pid }) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes('SYMPOSIUM_TEST_AGENT=needs-key'));
        c.note('agentPids', agents.map((a) => a.pid));
        c.ok(agents.length === 1, `expected one process of the agent "needs-key", found ${agents.length}`);
        const env = readFileSync(`/proc/${agents[0].pid}/environ`, 'utf8').split('\0');
        c.ok(env.includes(`SYMPOSIUM_TEST_KEY=${secret}`), "the agent's environment does not hold the key");
        // Nowhere else: not in any process's argv (the bridge's, the agent's), settings.json, the logs, the state dir.
        const argvWithKey = processArgv(ctx, /./).filter(({ argv }) => argv.some((a) => a.includes(secret)));
        c.ok(argvWithKey.length === 0, `the key is in the argv of ${JSON.stringify(argvWithKey.map((p) => p.argv.slice(0, 3)))}`);
        c.ok(c.note('bridges', processArgv(ctx, /bridge\.mjs/).length) > 0, 'no bridge process found to check its argv');
        c.excludes(readFileSync(ctx.settingsFile, 'utf8'), secret, 'settings.json');
        const leaks = c.note('filesWithKey', [...filesContaining(join(ctx.userData, 'logs'), secret), ...filesContaining(join(ctx.userData, 'User', 'globalStorage', 'symposium.symposium-lm'), secret)]);
        c.ok(leaks.length === 0, `the key is in ${leaks.join(', ')}`);
        c.ok(existsSync(join(ctx.userData, 'User', 'globalStorage', 'symposium.symposium-lm')), "no state dir of the extension to check (the bridge's --state-dir)");
        await ui.pickListedModel('Scripted');
      }
    },
  },
  {
    // Issue 60 on the agent host of issue 58: code-server keeps secret storage in memory, per window.
    name: "chat: a key set in one window reaches the agent in the person's second window, whose secret storage lacks it",
    async run(ui, c, ctx) {
      const secret = `sk-other-window-${createHash('sha256').update(ctx.runDir).digest('hex').slice(0, 16)}`;
      // A second window of the same workbench: the page's own browser opens it (a context of its own, as run.mjs's page is).
      const context = await ui.page.context().browser().newContext({ viewport: { width: 1400, height: 900 } });
      const second = new ChatView(await context.newPage(), ctx.artifacts);
      try {
        await second.page.goto(ui.page.url());
        await second.page.locator('.monaco-workbench').first().waitFor({ timeout: 60_000 });
        await second.open();
        await second.newChat();
        await second.pickOnceListed('Key elsewhere');
        await ui.page.bringToFront();
        await ui.command('Symposium: Set Agent API Key');
        await ui.quickInput('Symposium: Set Agent API Key', 'Key elsewhere', { row: 'Key elsewhere' });
        await ui.enterApiKey('Key elsewhere', 'SYMPOSIUM_OTHER_KEY', secret);
        c.note('stored', await (await ui.notification("SYMPOSIUM_OTHER_KEY of Key elsewhere is in VS Code's secret storage", 15_000)).innerText());
        await second.page.bringToFront();
        await second.send('say keyed in the other window');
        const text = c.note('response', await second.response((t) => t.includes('keyed in the other window') || t.includes('not signed in'), 'the answer in the second window'));
        await second.idle();
        await second.screenshot('chat-key-from-the-other-window');
        c.excludes(text, 'not signed in', "the second window's answer");
        // The agent that answered holds the key, and no log does.
        const agents = processArgv(ctx, /scripted-agent\.js --needs-env SYMPOSIUM_OTHER_KEY/);
        c.ok(agents.some(({ pid }) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`SYMPOSIUM_OTHER_KEY=${secret}`)), "no process of the agent holds the key");
        const leaks = c.note('filesWithKey', filesContaining(join(ctx.userData, 'logs'), secret));
        c.ok(leaks.length === 0, `the key is in ${leaks.join(', ')}`);
      } finally {
        await context.close();
        await ui.page.bringToFront();
      }
    },
  },
  {
    name: 'chat: an agent of a registry URL, distributed as a download, is installed on first use and answers',
    async run(ui, c, ctx) {
      // symposium.registry is the URL of the harness's registry on 127.0.0.1 (run.mjs, serveRegistry); "packed" is
      // its only agent, a .tar.gz with its sha256, named by id in symposium.agents.
      const folder = join(ctx.globalStorage, 'agents', 'packed');
      c.ok(!existsSync(folder), 'the agent was installed before its first request');
      await ui.newChat();
      await ui.pickListedModel('Packed');
      await ui.send('say hello from the download');
      c.note('response', await ui.response((t) => t.includes('hello from the download'), "the downloaded agent's answer"));
      await ui.idle();
      const installed = c.note('installed', existsSync(folder) ? readdirSync(folder) : []);
      c.ok(installed.length === 1 && /^1\.0\.0-[0-9a-f]{12}$/.test(installed[0]), `the agent's folder holds ${JSON.stringify(installed)}`);
      c.ok(existsSync(join(folder, installed[0], 'bin', 'agent')), 'the program is not in its folder');
      await ui.pickListedModel('Scripted');
    },
  },
];

/** Runs the Chat view scenarios on `page`; each result is {name, passed, ms, error, details}. */
CHAT_SCENARIOS.push(
  {
    name: "chat: an agent's edits are reviewed in VS Code — listed with Keep / Undo, and Undo restores the files",
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      const created = join(ctx.workspace, 'review-new.txt');
      const changed = join(ctx.workspace, 'review-changed.txt');
      // Its middle line changes: Copilot's replace_string_in_file is given that line only.
      writeFileSync(changed, 'first\nbefore\nlast\n');
      await ui.send('write review-new.txt "from the agent\\n"\nwrite review-changed.txt "first\\nafter\\nlast\\n"\nsay edits done');
      c.note('response', await ui.response((t) => t.includes('edits done'), 'the end of the edits'));
      c.includes(c.note('changed files', await ui.changedFiles()), '2 files changed', 'the list of changed files above the input');
      c.ok(readFileSync(created, 'utf8') === 'from the agent\n' && readFileSync(changed, 'utf8') === 'first\nafter\nlast\n', 'the edits are not on disk while they await review');
      await ui.screenshot('chat-edits-keep-undo');
      c.note('undo asked', await ui.review('Undo'));
      c.ok(!existsSync(created) || readFileSync(created, 'utf8') === '', `Undo left the created file: ${existsSync(created) ? JSON.stringify(readFileSync(created, 'utf8')) : ''}`);
      c.ok(readFileSync(changed, 'utf8') === 'first\nbefore\nlast\n', `Undo did not restore the changed file: ${JSON.stringify(readFileSync(changed, 'utf8'))}`);
    },
  },
  {
    name: "chat: an agent's edit kept with Keep stays",
    async run(ui, c, ctx) {
      await newScriptedChat(ui);
      const kept = join(ctx.workspace, 'review-kept.txt');
      await ui.send('write review-kept.txt "kept\\n"\nsay edit done');
      c.note('response', await ui.response((t) => t.includes('edit done'), 'the end of the edit'));
      c.includes(c.note('changed files', await ui.changedFiles()), '1 file changed', 'the list of changed files above the input');
      await ui.review('Keep');
      c.ok((await ui.page.locator('.chat-editing-session-overview').count()) === 0, 'the list of changed files still shows after Keep');
      c.ok(readFileSync(kept, 'utf8') === 'kept\n', `Keep did not keep the file: ${existsSync(kept) ? JSON.stringify(readFileSync(kept, 'utf8')) : 'missing'}`);
    },
  },
  {
    name: "chat: an agent's question is asked in the Chat view, and the person's answer reaches it",
    async run(ui, c) {
      await newScriptedChat(ui);
      await ui.send('ask Which flavour? | Vanilla | Chocolate');
      const question = c.note('question', await ui.question());
      c.includes(question, 'Which flavour?', 'the question above the input');
      c.includes(question, 'Chocolate', 'its options');
      await ui.screenshot('chat-agent-question');
      await ui.answerQuestion('Chocolate');
      c.note('response', await ui.response(answerReported, "the agent's report of the answer"));
      c.includes(c.details.response, '{"choice":"choice-2"}', 'the answer the agent got');
    },
  },
  {
    name: "chat: in Ask mode too, an agent's question is asked in the Chat view",
    async run(ui, c) {
      await newScriptedChat(ui);
      await ui.pickMode('Ask');
      try {
        await ui.send('ask Which flavour? | Vanilla | Chocolate');
        c.includes(c.note('question', await ui.question()), 'Which flavour?', 'the question above the input');
        await ui.answerQuestion('Chocolate');
        c.note('response', await ui.response(answerReported, "the agent's report of the answer"));
        c.includes(c.details.response, '{"choice":"choice-2"}', 'the answer the agent got');
      } finally {
        await ui.idle();
        await ui.pickMode('Agent');
      }
    },
  },
  {
    name: "chat: a web page an agent asks to open (a sign-in) opens in the browser only once the person agrees",
    async run(ui, c) {
      // Offline: the page is answered by the browser itself. Its address carries an encoded address of its own,
      // which must reach the browser unchanged.
      const url = 'https://sign-in.example.com/authorize?redirect_uri=http%3A%2F%2Flocalhost%3A1%2Fcb%3Fa%3D1%26b%3D2&state=xyz';
      const context = ui.page.context();
      await context.route('https://sign-in.example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Signed in</title>signed in' }));
      const opened = [];
      const onPage = (page) => opened.push(page);
      context.on('page', onPage);
      try {
        await newScriptedChat(ui);
        const dialog = ui.page.locator('.monaco-dialog-box');
        await ui.send(`ask-url ${url} Sign in to Scripted to go on`);
        const declined = c.note('dialog', await textOnceShown(dialog.first(), RESPONSE_TIMEOUT_MS));
        c.includes(declined, 'Scripted asks you to open a web page', "the dialog's title");
        c.includes(declined, 'Sign in to Scripted to go on', "the agent's message");
        c.includes(declined, url, 'the address');
        await dialog.first().getByRole('button', { name: 'Cancel', exact: true }).click();
        c.includes(c.note('declined response', await ui.response(urlReported, "the agent's report")), 'url: decline', 'what the agent heard after Cancel');
        c.ok(opened.length === 0, `Cancel opened a page: ${opened.map((p) => p.url()).join(', ')}`);

        await ui.send(`ask-url ${url} Sign in to Scripted to go on`);
        await dialog.first().waitFor({ timeout: RESPONSE_TIMEOUT_MS });
        await ui.screenshot('chat-agent-open-url');
        await dialog.first().getByRole('button', { name: 'Open', exact: true }).click();
        // VS Code's own link protection then asks about a domain it does not trust: its confirmation stays.
        const linkProtection = dialog.filter({ hasText: 'open the external website' }).first();
        c.includes(c.note("VS Code's dialog", await textOnceShown(linkProtection, 10_000)), url, "the address in VS Code's link protection");
        const popup = context.waitForEvent('page', { timeout: 10_000 });
        await linkProtection.getByRole('button', { name: 'Open', exact: true }).click();
        const page = await popup;
        await page.waitForLoadState('domcontentloaded', { timeout: 10_000 }).catch(() => {});
        c.ok(c.note('opened', page.url()) === url, `the browser opened ${page.url()}, not ${url}`);
        await page.close();
        c.includes(c.note('response', await ui.response(urlReported, "the agent's report")), 'url: accept', 'what the agent heard after Open');
      } finally {
        context.off('page', onPage);
        await context.unroute('https://sign-in.example.com/**');
      }
    },
  },
  {
    name: "chat: an agent's read sees what the editor shows, unsaved changes included",
    async run(ui, c, ctx) {
      const file = join(ctx.workspace, 'unsaved.txt');
      writeFileSync(file, 'saved line\n');
      await ui.openFile('unsaved.txt');
      await newScriptedChat(ui);
      // Sending a request saves the open files (agent mode does): the person types while the agent works.
      await ui.send('stream 2 4000\nread unsaved.txt');
      await ui.response((t) => t.includes('c1'), "the agent's first words");
      await ui.page.locator('.editor-instance .view-lines').first().click();
      await ui.page.keyboard.press('Control+End');
      await ui.page.keyboard.type('typed but not saved');
      const text = c.note('response', await ui.response((t) => /read unsaved\.txt: "[^"]*"/.test(t), "the agent's whole read"));
      c.includes(text, 'saved line\\ntyped but not saved', 'what the agent read');
      c.ok(!readFileSync(file, 'utf8').includes('typed'), 'the typed text was saved, so the read proves nothing');
      await ui.command('File: Revert File');
    },
  },
);

/** The URI a resource_link or resource block names (undefined for other blocks). */
const blockUri = (b) => (b.type === 'resource_link' ? b.uri : b.type === 'resource' ? b.resource?.uri : undefined);

/**
 * The prompt the agent got for the message whose typed words are `words`: its blocks. Checks that its text blocks
 * hold none of Copilot's own context, and that the person's words reached it.
 */
function promptOf(c, ctx, words) {
  const received = promptBlocks(ctx.promptLog);
  const prompt = received.findLast((blocks) => blocks.some((b) => b.type === 'text' && b.text.includes(words)));
  c.ok(prompt !== undefined, `no prompt with ${JSON.stringify(words)} reached the agent: ${JSON.stringify(received.slice(-2))}`);
  c.note('prompt', prompt);
  for (const b of prompt.filter((b) => b.type === 'text')) for (const block of COPILOT_BLOCKS) c.excludes(b.text, block, "a text block the agent received (Copilot's context must not reach it)");
  return prompt;
}

/**
 * The prompt's block that names the workspace file or folder `name` (with a selection's lines in its fragment, when
 * there are some); fails unless exactly one block names it, and it is of `type`: a `resource_link` for every agent,
 * a `resource` (with the text) for one that takes embedded context.
 */
function attachedBlock(c, prompt, ctx, name, type = 'resource_link') {
  const uri = pathToFileURL(join(ctx.workspace, name)).href;
  const found = prompt.filter((b) => blockUri(b)?.replace(/#.*$/, '') === uri);
  c.ok(found.length === 1, `${found.length} blocks name ${uri}; the agent received ${JSON.stringify(prompt)}`);
  c.equal(found[0].type, type, `the block naming ${name}`);
  return found[0];
}

/** The chips above the chat input (what is attached to the next message), as their text. */
async function attachedChips(ui) {
  return ui.page.locator('.interactive-input-part .chat-attached-context .chat-attached-context-attachment').allInnerTexts();
}

/** A new chat on Scripted, the Chat view opened first when these scenarios run alone. */
async function newAttachingChat(ui) {
  if ((await ui.page.locator('.interactive-input-editor').count()) === 0) await ui.open();
  await newScriptedChat(ui);
  // Words a failed scenario left in the input are cleared.
  await ui.page.locator('.interactive-input-editor').first().click();
  await ui.page.keyboard.press('Control+A');
  await ui.page.keyboard.press('Delete');
}

/** Opens a workspace file by a double click in the Explorer (a file just written may not be in Quick Open's index yet). */
async function openFromExplorer(ui, name) {
  const row = ui.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.dblclick();
  await ui.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: 10_000 });
}

/**
 * Add Context… (the paperclip of the input), `query` typed, and the first row showing `row` picked. Its file search
 * may not know a file written a moment ago: the picker is opened again, up to three times.
 */
async function addContext(ui, query, row) {
  const found = ui.page.locator('.quick-input-widget .monaco-list-row', { hasText: row }).first();
  for (let attempt = 0; ; attempt++) {
    await ui.page.locator('.interactive-input-part a.action-label[aria-label^="Add Context"]').first().click();
    await ui.page.locator('.quick-input-widget input').first().waitFor({ timeout: 10_000 });
    await ui.page.keyboard.type(query);
    if (await found.waitFor({ timeout: 5000 }).then(() => true, () => false)) break;
    await ui.page.keyboard.press('Escape');
    if (attempt === 2) throw new Error(`Add Context… lists no ${JSON.stringify(row)} for ${JSON.stringify(query)}`);
  }
  // Clicked: Enter would take the row that has the focus, which may be another (the current file).
  await found.click();
}

/** Selects lines `from` to `to` (1-based, whole lines) in the active editor, as a person does with the keyboard. */
async function selectLines(ui, from, to) {
  await ui.page.locator('.editor-instance .view-lines').first().click();
  await ui.page.keyboard.press('Control+Home');
  for (let line = 1; line < from; line++) await ui.page.keyboard.press('ArrowDown');
  for (let line = from; line < to; line++) await ui.page.keyboard.press('Shift+ArrowDown');
  await ui.page.keyboard.press('Shift+End');
}

/** A workspace file for the attachment scenarios: ten numbered lines. */
function attachable(ctx, name) {
  writeFileSync(join(ctx.workspace, name), Array.from({ length: 10 }, (_, i) => `line ${i + 1} of ${name}`).join('\n') + '\n');
}

// What the person attaches in the Chat view reaches the agent as ACP content (issue 36); Copilot's own context does not.
CHAT_SCENARIOS.push(
  {
    name: 'chat: attached — a file added through Add Context… reaches the agent as a link, once',
    async run(ui, c, ctx) {
      attachable(ctx, 'attach-picked.txt');
      await newAttachingChat(ui);
      await addContext(ui, 'attach-picked.txt', 'attach-picked.txt');
      await ui.page.locator('.interactive-input-part .chat-attached-context-attachment', { hasText: 'attach-picked.txt' }).first().waitFor({ timeout: 10_000 }).catch(() => {});
      c.note('chips', await attachedChips(ui));
      await ui.screenshot('chat-attach-picked-chip');
      c.ok(c.details.chips.some((t) => t.includes('attach-picked.txt')), `no chip of the file above the input: ${JSON.stringify(c.details.chips)}`);
      await ui.send('say got the picked file');
      c.note('response', await ui.response((t) => t.includes('got the picked file'), "the agent's answer"));
      await ui.idle();
      // The next message, with nothing attached, does not send the file again (Copilot re-renders it in the history).
      await ui.send('say next after the picked file');
      c.note('next response', await ui.response((t) => t.includes('next after the picked file'), "the agent's next answer"));
      await ui.idle();
      const picked = blockUri(attachedBlock(c, promptOf(c, ctx, 'say got the picked file'), ctx, 'attach-picked.txt'));
      // Whatever else it names (the active editor an earlier scenario left open), not that file.
      const next = promptOf(c, ctx, 'say next after the picked file');
      c.ok(next.every((b) => blockUri(b) !== picked && !(b.type === 'text' && b.text.includes('line 1 of attach-picked.txt'))), `the next prompt sends the file again: ${JSON.stringify(next)}`);
    },
  },
  {
    name: 'chat: attached — a file typed as #file reaches the agent as a link',
    async run(ui, c, ctx) {
      attachable(ctx, 'attach-typed.txt');
      await newAttachingChat(ui);
      await ui.page.locator('.interactive-input-editor').first().click();
      await ui.page.keyboard.type('say got the typed file');
      await ui.page.keyboard.press('Shift+Enter');
      await ui.page.keyboard.type('#attach-typed');
      // The file is taken from the completion list, as a person does: it becomes a reference, not words.
      await sleep(1000);
      const suggestions = ui.page.locator('.suggest-widget.visible .monaco-list-row');
      if ((await suggestions.count()) === 0) await ui.page.keyboard.press('Control+Space');
      await suggestions.first().waitFor({ timeout: 10_000 }).catch(() => {});
      await ui.screenshot('chat-attach-typed-suggestions');
      await ui.page.locator('.suggest-widget .monaco-list-row', { hasText: 'attach-typed.txt' }).first().waitFor({ timeout: 15_000 });
      await ui.page.keyboard.press('Enter');
      await sleep(300);
      await ui.screenshot('chat-attach-typed-reference');
      await ui.markResponses();
      await ui.page.keyboard.press('Enter');
      c.note('response', await ui.response((t) => t.includes('got the typed file'), "the agent's answer"));
      await ui.idle();
      attachedBlock(c, promptOf(c, ctx, 'say got the typed file'), ctx, 'attach-typed.txt');
    },
  },
  {
    name: 'chat: attached — a selection (Chat: Add Selection to Chat) reaches the agent as a link with its lines',
    async run(ui, c, ctx) {
      attachable(ctx, 'attach-selected.txt');
      await openFromExplorer(ui, 'attach-selected.txt');
      await newAttachingChat(ui);
      await selectLines(ui, 3, 5);
      await ui.command('Chat: Add Selection to Chat', { keepSelection: true });
      await sleep(500);
      c.note('chips', await attachedChips(ui));
      await ui.screenshot('chat-attach-selection-chip');
      c.ok(c.details.chips.some((t) => t.includes('attach-selected.txt')), `no chip of the selection above the input: ${JSON.stringify(c.details.chips)}`);
      await ui.send('say got the selection');
      c.note('response', await ui.response((t) => t.includes('got the selection'), "the agent's answer"));
      await ui.idle();
      const block = attachedBlock(c, promptOf(c, ctx, 'say got the selection'), ctx, 'attach-selected.txt');
      // The lines, as Zed writes a mention of a selection: in the URI's fragment.
      c.ok(blockUri(block).endsWith('#L3:5'), `the selection's block does not say its lines 3 to 5: ${JSON.stringify(block)}`);
    },
  },
  {
    name: 'chat: attached — a selection reaches an agent that takes embedded context as a resource with its text',
    async run(ui, c, ctx) {
      attachable(ctx, 'attach-embedded.txt');
      await openFromExplorer(ui, 'attach-embedded.txt');
      await newAttachingChat(ui);
      await ui.pickListedModel('Embedding');
      try {
        await selectLines(ui, 3, 5);
        await ui.command('Chat: Add Selection to Chat', { keepSelection: true });
        await sleep(500);
        c.note('chips', await attachedChips(ui));
        await ui.screenshot('chat-attach-embedded-chip');
        await ui.send('say got the embedded selection');
        c.note('response', await ui.response((t) => t.includes('got the embedded selection'), "the agent's answer"));
        await ui.idle();
        const block = attachedBlock(c, promptOf(c, ctx, 'say got the embedded selection'), ctx, 'attach-embedded.txt', 'resource');
        c.ok(block.resource.uri.endsWith('#L3:5'), `the resource does not say its lines 3 to 5: ${JSON.stringify(block)}`);
        c.equal(block.resource.text.trim(), 'line 3 of attach-embedded.txt\nline 4 of attach-embedded.txt\nline 5 of attach-embedded.txt', "the resource's text");
      } finally {
        await ui.pickListedModel('Scripted');
      }
    },
  },
  {
    name: "chat: attached — the active editor's chip, left in the input, reaches the agent as a link",
    async run(ui, c, ctx) {
      attachable(ctx, 'attach-active.txt');
      await openFromExplorer(ui, 'attach-active.txt');
      await newAttachingChat(ui);
      await sleep(500);
      c.note('chips', await ui.page.locator('.interactive-input-part .chat-attached-context').first().innerText().catch(() => ''));
      await ui.screenshot('chat-attach-active-editor-chip');
      await ui.send('say got the active editor');
      c.note('response', await ui.response((t) => t.includes('got the active editor'), "the agent's answer"));
      await ui.idle();
      attachedBlock(c, promptOf(c, ctx, 'say got the active editor'), ctx, 'attach-active.txt');
    },
  },
  {
    name: "chat: attached — the active editor's chip, added with its +, reaches the agent as a link",
    async run(ui, c, ctx) {
      attachable(ctx, 'attach-active-added.txt');
      await openFromExplorer(ui, 'attach-active-added.txt');
      await newAttachingChat(ui);
      await ui.page.locator('.interactive-input-part .chat-attached-context-attachment', { hasText: 'attach-active-added.txt' }).first().click();
      // The chip's hover (its path) would cover the input.
      await ui.page.mouse.move(700, 450);
      await ui.page.locator('.context-view .hover-contents').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
      await sleep(500);
      c.note('chips', await attachedChips(ui));
      await ui.screenshot('chat-attach-active-editor-added');
      await ui.send('say got the added active editor');
      c.note('response', await ui.response((t) => t.includes('got the added active editor'), "the agent's answer"));
      await ui.idle();
      attachedBlock(c, promptOf(c, ctx, 'say got the added active editor'), ctx, 'attach-active-added.txt');
    },
  },
  {
    name: 'chat: attached — a symbol typed as #sym reaches the agent as a link to its lines',
    async run(ui, c, ctx) {
      writeFileSync(join(ctx.workspace, 'attach-symbol.ts'), 'export function attachedSymbol(): number {\n  return 42;\n}\n');
      // The symbols of the open editors are offered: TypeScript's own language service gives this file's.
      await openFromExplorer(ui, 'attach-symbol.ts');
      // Its outline known (the breadcrumbs show the function), the symbol can be offered.
      await ui.page.locator('.breadcrumbs-control', { hasText: 'attachedSymbol' }).first().waitFor({ timeout: 30_000 });
      await newAttachingChat(ui);
      await ui.page.locator('.interactive-input-editor').first().click();
      await ui.page.keyboard.type('say got the symbol');
      await ui.page.keyboard.press('Shift+Enter');
      const reference = '#attachedSymbol';
      const row = ui.page.locator('.suggest-widget .monaco-list-row', { hasText: 'attachedSymbol' }).first();
      // The list is asked for as the word is typed: when it came before the symbols did, the word is typed again.
      for (let attempt = 0; attempt < 4; attempt++) {
        await ui.page.keyboard.type(reference);
        if (await row.waitFor({ timeout: 3000 }).then(() => true, () => false)) break;
        for (let i = 0; i < reference.length; i++) await ui.page.keyboard.press('Backspace');
      }
      await ui.screenshot('chat-attach-symbol-suggestions');
      c.ok(await row.isVisible(), 'the completion list offers no attachedSymbol (TypeScript has not read the file yet?)');
      await ui.page.keyboard.press('Enter');
      await sleep(300);
      await ui.screenshot('chat-attach-symbol-reference');
      await ui.markResponses();
      await ui.page.keyboard.press('Enter');
      c.note('response', await ui.response((t) => t.includes('got the symbol'), "the agent's answer"));
      await ui.idle();
      const block = attachedBlock(c, promptOf(c, ctx, 'say got the symbol'), ctx, 'attach-symbol.ts');
      c.ok(blockUri(block).endsWith('#L1:3'), `the symbol's link does not name its lines 1 to 3: ${JSON.stringify(block)}`);
    },
  },
  {
    name: 'chat: attached — a folder added from the Explorer (Add Folder to Chat) reaches the agent as a link',
    async run(ui, c, ctx) {
      mkdirSync(join(ctx.workspace, 'attach-folder'), { recursive: true });
      attachable(ctx, 'attach-folder/inside.txt');
      // No editor open: the folder alone is attached.
      await ui.command('View: Close All Editors');
      await newAttachingChat(ui);
      // The Explorer's context menu of the folder: Add Folder to Chat.
      await ui.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'attach-folder' }).first().click({ button: 'right' });
      const item = ui.page.locator('.monaco-menu .action-label:visible', { hasText: 'Add Folder to Chat' }).first();
      await item.hover();
      await ui.page.keyboard.press('Enter');
      await ui.page.locator('.monaco-menu:visible').first().waitFor({ state: 'hidden', timeout: 5000 });
      await sleep(500);
      c.note('chips', await attachedChips(ui));
      await ui.screenshot('chat-attach-folder-chip');
      await ui.send('say got the folder');
      c.note('response', await ui.response((t) => t.includes('got the folder'), "the agent's answer"));
      await ui.idle();
      attachedBlock(c, promptOf(c, ctx, 'say got the folder'), ctx, 'attach-folder');
    },
  },
  {
    name: 'chat: attached — problems added through Add Context… reach the agent',
    async run(ui, c, ctx) {
      // JSON's own language service reports the broken value as a problem.
      writeFileSync(join(ctx.workspace, 'attach-broken.json'), '{"key": }\n');
      await openFromExplorer(ui, 'attach-broken.json');
      await newAttachingChat(ui);
      await addContext(ui, 'Problems', 'Problems...');
      const all = ui.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'All Problems' }).first();
      await all.waitFor({ timeout: 10_000 });
      await ui.screenshot('chat-attach-problems-list');
      await all.click();
      await sleep(500);
      c.note('chips', await attachedChips(ui));
      await ui.screenshot('chat-attach-problems-chip');
      await ui.send('say got the problems');
      c.note('response', await ui.response((t) => t.includes('got the problems'), "the agent's answer"));
      await ui.idle();
      const prompt = promptOf(c, ctx, 'say got the problems');
      // A problem is no file: its line, as Copilot gave it, comes as text beside the person's words.
      c.ok(prompt.some((b) => b.type === 'text' && !b.text.includes('say got the problems') && b.text.includes('attach-broken.json') && b.text.includes('Value expected')), `the problem did not reach the agent: ${JSON.stringify(prompt)}`);
    },
  },
);

// The agent's plan in the Chat view's todo list (issue 38).
CHAT_SCENARIOS.push(
  {
    name: "chat: an agent's plan shows in the Chat view's todo list and updates; no checklist in the answer",
    async run(ui, c) {
      await newScriptedChat(ui);
      // The widget's title, folded, names the entry in progress and its place ("Write the fix (2/3)"); once every
      // entry is done, and unfolded, it reads "Todos (n/m)".
      const title = (text) => textOnceShown(ui.page.locator('.chat-todo-list-widget .todo-list-title', { hasText: text }).first(), RESPONSE_TIMEOUT_MS);
      await ui.send(
        'todos Read the code:doing|Write the fix|Run the tests\nsay reading\nstream 2 2000\n' +
          'todos Read the code:done|Write the fix:doing|Run the tests\nsay writing\nstream 2 2000\n' +
          'todos Read the code:done|Write the fix:done|Run the tests:done\nsay all done',
      );
      c.note('first', await title('Read the code (1/3)'));
      c.note('second', await title('Write the fix (2/3)'));
      await ui.page.locator('.chat-todo-list-widget .todo-list-expand').first().click();
      c.note('unfolded', await title('Todos (2/3)'));
      const items = c.note('items', await textOnceShown(ui.page.locator('.chat-todo-list-widget .todo-list-container').first(), 10_000));
      for (const entry of ['Read the code', 'Write the fix', 'Run the tests']) c.includes(items, entry, 'the todo list');
      await ui.screenshot('chat-todo-list');
      await ui.page.locator('.chat-todo-list-widget .todo-list-expand').first().click();
      c.note('done', await title('Todos (3/3)'));
      const text = c.note('response', await ui.response((t) => t.includes('all done'), "the agent's last words"));
      await ui.idle();
      c.excludes(text, '[ ]', 'the answer (a checklist of the plan)');
      c.excludes(text, 'todos done', 'the answer (a line of the bridge, where the agent had words of its own)');
      await ui.screenshot('chat-todo-list-done');
    },
  },
);

// The agent's slash commands (issue 38): a scenario block of its own.
CHAT_SCENARIOS.push(...SLASH_COMMAND_SCENARIOS);

// The Chat view's modes as the agent's own (issue 38). The scripted agent offers the modes ask, code and plan
// (--modes ask,code,plan in run.mjs); it answers `mode` with the mode it is in when the prompt runs.
CHAT_SCENARIOS.push(
  {
    name: 'chat: picking Plan mode puts the agent in its plan mode before the prompt; Agent mode puts it back',
    async run(ui, c) {
      await newScriptedChat(ui);
      await ui.pickMode('Plan');
      try {
        await ui.send('mode');
        c.note('plan', await ui.response((t) => /(^|\n)plan(\n|$)/.test(t), "the agent's mode in Plan mode"));
        await ui.idle();
        await ui.screenshot('chat-plan-mode');
      } finally {
        await ui.pickMode('Agent');
      }
      await ui.send('mode');
      c.note('agent', await ui.response((t) => /(^|\n)ask(\n|$)/.test(t), "the agent's own mode back in Agent mode"));
      await ui.idle();
    },
  },
);

export async function runChatView(page, ctx, log) {
  const ui = new ChatView(page, ctx.artifacts);
  const only = (process.env.SYMPOSIUM_VSCODE_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  const results = [];
  for (const scenario of CHAT_SCENARIOS) {
    if (only.length > 0 && !only.some((name) => scenario.name.startsWith(name))) continue;
    const c = new Checks();
    const start = Date.now();
    log(`chat view: ${scenario.name}`);
    try {
      await scenario.run(ui, c, ctx);
      results.push({ name: scenario.name, passed: true, ms: Date.now() - start, details: c.details });
    } catch (error) {
      results.push({ name: scenario.name, passed: false, ms: Date.now() - start, error: error.message, details: c.details });
    }
    await ui.screenshot(scenario.name).catch(() => {});
  }
  return results;
}
