// What a person does in a consumer's own chat view (Cline's, Roo Code's): a webview in the side bar, driven
// through the page. The consumer-specific views extend it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { typeAndSend } from './chat-view.mjs';

export const ANSWER_TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A consumer's .vsix, checked; a run without it fails saying where it should be, rather than skipping it. */
export function checkedVsix(path, sha256, name, where) {
  if (!existsSync(path)) throw new Error(`${name}'s .vsix is not at ${path} (${where})`);
  const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (digest !== sha256) throw new Error(`${path} is not ${name} (sha256 ${digest})`);
  return path;
}

/**
 * Runs a consumer's scenarios (those SYMPOSIUM_VSCODE_ONLY names, when set) in its view `ui`, a screenshot after
 * each; each result is {name, passed, ms, error, details}.
 */
export async function runScenarios(consumer, scenarios, ui, ctx, log) {
  const only = (process.env.SYMPOSIUM_VSCODE_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
  const results = [];
  for (const scenario of scenarios) {
    if (only.length > 0 && !only.some((name) => scenario.name.startsWith(name))) continue;
    const details = {};
    const note = (key, value) => (details[key] = value);
    const start = Date.now();
    log(`${consumer}: ${scenario.name}`);
    try {
      await scenario.run(ui, note, ctx);
      results.push({ name: scenario.name, passed: true, ms: Date.now() - start, details });
    } catch (error) {
      results.push({ name: scenario.name, passed: false, ms: Date.now() - start, error: error.message, details });
    }
    await ui.screenshot(scenario.name).catch(() => {});
  }
  return results;
}

export class WebviewChat {
  /**
   * `name`: the consumer's name, as its activity-bar icon's label begins; `input`: the selector of its chat input
   * inside its webview, by which its frame is found.
   */
  constructor(page, artifacts, { name, input }) {
    this.page = page;
    this.artifacts = artifacts;
    this.name = name;
    this.input = input;
  }

  /** The consumer's webview: the frame that holds its chat input (the view is shown first if it is not). */
  async frame(timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const f of this.page.frames()) {
        if ((await f.locator(this.input).count().catch(() => 0)) > 0) return f;
      }
      if (Date.now() > deadline) throw new Error(`${this.name}'s view did not show its chat input`);
      await sleep(500);
    }
  }

  /** Clicks the consumer's icon in the activity bar, once the workbench shows it. */
  async open() {
    const icon = this.page.locator(`.activitybar a.action-label[aria-label^="${this.name}"]`).first();
    await icon.waitFor({ timeout: 60_000 });
    await icon.click();
    await this.frame(60_000);
  }

  /** Types a message into the consumer's input and sends it. */
  async send(text) {
    const f = await this.frame();
    // The answer follows the message as the view shows it: the next occurrence of its last line.
    this.sent = text.split('\n').at(-1);
    this.shownBefore = occurrences(await f.locator('body').innerText(), this.sent);
    await f.locator(this.input).first().click();
    await typeAndSend(this.page, text);
  }

  /** The view's text since the last message sent, once it satisfies `ok`; throws with what it reads after the timeout. */
  async answer(ok, what, timeoutMs = ANSWER_TIMEOUT_MS) {
    const deadline = Date.now() + timeoutMs;
    let text = '';
    for (;;) {
      const body = await (await this.frame()).locator('body').innerText().catch(() => '');
      const at = nthIndexOf(body, this.sent, this.shownBefore);
      text = at < 0 ? '' : body.slice(at + this.sent.length);
      if (ok(text)) return text;
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; ${this.name}'s view reads ${JSON.stringify(text.slice(0, 2000))}`);
      await sleep(300);
    }
  }

  async screenshot(name) {
    mkdirSync(this.artifacts, { recursive: true });
    await this.page.screenshot({ path: join(this.artifacts, `${name.replace(/[^\w-]+/g, '-')}.png`) });
  }
}

function occurrences(text, part) {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** Where the occurrence after the first `n` of `part` is in `text` (-1 when there is none). */
function nthIndexOf(text, part, n) {
  let at = text.indexOf(part);
  for (let i = 0; i < n && at >= 0; i++) at = text.indexOf(part, at + part.length);
  return at;
}
