// Scenarios in VS Code's own Chat view, driven as a person drives it: type into the input, press Enter, read the
// rendered answer, click Allow or Skip in the confirmation, press stop, switch modes, pick models. The consumer is
// GitHub Copilot Chat 0.67, built into code-server 4.139, answering through our models with
// "chat.allowAnonymousAccess" (shared/docs/vscode-host.md). Each scenario leaves a screenshot in the artifacts dir.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const RESPONSE_TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** What a person does in the Chat view, through the page. */
export class ChatView {
  constructor(page, artifacts) {
    this.page = page;
    this.artifacts = artifacts;
  }

  async command(label) {
    await this.page.keyboard.press('Escape');
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
    // The picker names the model in its label, or only in its aria-label when it shows the model's options instead.
    await this.page.locator(`.model-picker-item [aria-label="Models, ${name}"]`).first().waitFor({ timeout: 10_000 });
  }

  async pickMode(name) {
    await this.page.locator('.chat-input-picker-item', { hasText: /^(Agent|Ask|Plan|Edit)$/ }).first().click();
    const row = this.page.locator('.action-widget .monaco-list-row', { hasText: name }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await this.page.locator('.chat-input-picker-item', { hasText: name }).first().waitFor({ timeout: 10_000 });
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

  /** Picks a value of one of the model's own options, beside its name in the picker. */
  async pickModelOption(label) {
    await this.page.locator('.model-picker-config').first().click();
    const row = this.page.locator('.context-view .monaco-list-row, .action-widget .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await this.page.locator('.model-picker-config', { hasText: label }).first().waitFor({ timeout: 10_000 });
    await this.page.keyboard.press('Escape');
  }

  async send(text) {
    this.responsesBefore = await this.page.locator('.interactive-response').count();
    await this.page.locator('.interactive-input-editor').first().click();
    // Shift+Enter starts a new line, as a person types several lines; Enter sends.
    for (const [i, line] of text.split('\n').entries()) {
      if (i > 0) await this.page.keyboard.press('Shift+Enter');
      await this.page.keyboard.type(line);
    }
    await this.page.keyboard.press('Enter');
  }

  /** The text of the newest response, once it satisfies `ok`; throws with the text seen after the timeout. */
  async response(ok, what, timeoutMs = RESPONSE_TIMEOUT_MS) {
    const deadline = Date.now() + timeoutMs;
    let text = '';
    for (;;) {
      const responses = this.page.locator('.interactive-response');
      const count = await responses.count();
      text = count > (this.responsesBefore ?? 0) ? await responses.last().innerText().catch(() => '') : '';
      if (ok(text)) return text;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; the newest response reads ${JSON.stringify(text)}`);
      await sleep(300);
    }
  }

  async confirmation(timeoutMs = RESPONSE_TIMEOUT_MS) {
    const widget = this.page.locator('.chat-confirmation-widget-container').last();
    await widget.waitFor({ timeout: timeoutMs });
    return widget.innerText();
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

  async stop() {
    await this.page.locator('.chat-execute-toolbar a.action-label.codicon-stop-circle').first().click();
  }

  async idle(timeoutMs = RESPONSE_TIMEOUT_MS) {
    await this.page.locator('.chat-execute-toolbar a.action-label.codicon-stop-circle').first().waitFor({ state: 'detached', timeout: timeoutMs }).catch(() => {});
  }

  async screenshot(name) {
    mkdirSync(this.artifacts, { recursive: true });
    await this.page.screenshot({ path: join(this.artifacts, `${name.replace(/[^\w-]+/g, '-')}.png`) });
  }
}

/** Checks that record what they saw, like the driver's. */
class Checks {
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
  includes(text, part, what) {
    if (!text.includes(part)) throw new Error(`${what}: ${JSON.stringify(part)} not in ${JSON.stringify(text)}`);
  }
  excludes(text, part, what) {
    if (text.includes(part)) throw new Error(`${what}: ${JSON.stringify(part)} is in ${JSON.stringify(text)}`);
  }
}

/** The prompts the scripted agent received, as JSON arrays of content blocks, one per line. */
function prompts(ctx) {
  if (!existsSync(ctx.promptLog)) return [];
  return readFileSync(ctx.promptLog, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'));
}

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
      await ui.newChat();
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
      await ui.newChat();
      const file = join(ctx.workspace, 'skipped.txt');
      await ui.send('run touch skipped.txt');
      c.note('confirmation', await ui.confirmation());
      await ui.click('Skip');
      c.note('response', await ui.response((t) => t.includes('did not run touch skipped.txt: reject_once'), 'the report that the command did not run'));
      c.ok(!existsSync(file), 'the command ran although the person skipped it');
    },
  },
  {
    name: 'chat: consent — Stop while the confirmation shows cancels the turn; nothing of it shows later',
    async run(ui, c, ctx) {
      await ui.newChat();
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
      await ui.newChat();
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
      await ui.newChat();
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
    name: "chat: an agent's own options are per-model options in the picker",
    async run(ui, c) {
      await ui.newChat();
      await ui.send('mode');
      c.note('before', await ui.response((t) => t.includes('ask'), 'the current mode'));
      await ui.idle();
      await ui.pickModelOption('Mode code');
      await ui.send('mode');
      c.note('after', await ui.response((t) => /(^|\n)code(\n|$)/.test(t), 'the mode picked in the picker'));
      await ui.idle();
      await ui.pickModelOption('Mode ask');
    },
  },
  {
    name: 'chat: thinking and tool activity and plans render',
    async run(ui, c) {
      await ui.newChat();
      await ui.send('think weighing the options\nplan Read the code|Write the fix\ntool t1 ls -la\nsay all done');
      const text = c.note('response', await ui.response((t) => t.includes('all done'), 'the reply'));
      await ui.idle();
      c.includes(text, 'ls -la', 'the tool line');
      c.includes(text, 'Read the code', 'the plan');
      c.ok((await ui.page.locator('.interactive-response').last().locator('.chat-thinking-box, .chat-thinking-collapsible').count()) > 0, 'no thinking block in the response');
    },
  },
  {
    name: "chat: Copilot's tools reach the agent and run in the view",
    async run(ui, c, ctx) {
      await ui.newChat();
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
      await ui.newChat();
      await ui.send('say titled conversation');
      c.note('response', await ui.response((t) => t.includes('titled conversation'), 'the reply'));
      await ui.idle();
      await sleep(3000);
      const received = c.note('prompts', prompts(ctx));
      for (const p of received) c.excludes(p, 'brief title', 'a prompt the agent received (the title request must not reach it)');
    },
  },
  {
    name: 'chat: after a window reload the chat continues with the agent',
    async run(ui, c) {
      await ui.newChat();
      await ui.send('say remember the word apricot');
      c.note('before', await ui.response((t) => t.includes('remember the word apricot'), 'the reply'));
      await ui.idle();
      // VS Code saves chat sessions on a timer: a person reloading right after an answer may lose it either way.
      await sleep(5000);
      await ui.page.reload();
      await ui.page.locator('.interactive-input-editor').first().waitFor({ timeout: 60_000 });
      await ui.page.locator('.interactive-request', { hasText: 'say remember the word apricot' }).first().waitFor({ timeout: 30_000 });
      await sleep(5000);
      await ui.send('history');
      const text = c.note('response', await ui.response((t) => t.includes('[') && t.includes(']'), "the agent's record of the conversation"));
      c.includes(text, 'remember the word apricot', 'what the agent remembers of the conversation after the reload');
    },
  },
  {
    name: "chat: the context meter shows the agent's usage",
    async run(ui, c) {
      await ui.newChat();
      await ui.send('usage 50000 200000\nsay measured');
      c.note('response', await ui.response((t) => t.includes('measured'), 'the reply'));
      await ui.idle();
      const meter = ui.page.locator('.chat-context-usage-widget').first();
      const label = c.note('meter', await meter.getAttribute('aria-label'));
      c.ok(label !== null && /\d+%/.test(label) && !/\b0%/.test(label), `the context meter reads ${JSON.stringify(label)}`);
    },
  },
];

/** Runs the Chat view scenarios on `page`; each result is {name, passed, ms, error, details}. */
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
