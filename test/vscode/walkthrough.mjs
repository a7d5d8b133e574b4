// The first run, as a newcomer has it: our extension installed into a fresh VS Code profile (no settings at all:
// not even the quiet-workbench ones the other scenarios preset), the folder trusted, the walkthrough opened from
// the command palette and followed by clicks only (each step's button, the model picker, the chat input), until Eliza answers in the
// Chat view and every step of the walkthrough is ticked off. A workbench of its own, after the others;
// `SYMPOSIUM_VSCODE_ONLY=walkthrough` runs it alone.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChatView } from './chat-view.mjs';
import { endProcesses, prepareRunDir, startWorkbench } from './run.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ARTIFACTS = join(process.env.SYMPOSIUM_VSCODE_ARTIFACTS || join(REPO, 'artifacts', 'vscode'), 'walkthrough');
/** The walkthrough's id, as `workbench.action.openWalkthrough` and its steps' ids have it. */
const WALKTHROUGH = 'symposium.symposium-lm#firstRun';
const WALKTHROUGH_TITLE = 'Symposium: ACP agents as language models';
const STEP_TIMEOUT_MS = 30_000;
const ANSWER_TIMEOUT_MS = 90_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const WALKTHROUGH_SCENARIO = 'walkthrough: a fresh VS Code, the walkthrough followed by clicks, Eliza answers';

/** Resolves once `condition()` holds; throws, saying `what()` did not come, after `timeoutMs`. */
async function until(condition, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`no ${what()} within ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** A step of the walkthrough, by its id in package.json. */
const step = (page, id) => page.locator(`button.getting-started-step[data-step-id="${WALKTHROUGH}#${id}"]`);

async function ticked(page, id) {
  await step(page, id).and(page.locator('[aria-checked="true"]')).waitFor({ timeout: STEP_TIMEOUT_MS });
}

/** Opens a step (a click on its title) and clicks its button. */
async function clickStepButton(page, id, label) {
  const target = step(page, id);
  if ((await target.getAttribute('aria-expanded')) !== 'true') await target.locator('.step-title').click();
  await target.locator('a.monaco-button', { hasText: label }).click({ timeout: STEP_TIMEOUT_MS });
}

async function followWalkthrough(page, ctx, details) {
  const ui = new ChatView(page, ARTIFACTS);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // The folder opens in Restricted Mode, where extensions that run code (ours) are off: a person trusts it, from
  // the status bar's "Restricted Mode" to the Workspace Trust editor's Trust button.
  const restricted = page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first();
  await restricted.waitFor({ timeout: STEP_TIMEOUT_MS });
  await restricted.click();
  await page.locator('.workspace-trust-editor a.monaco-button', { hasText: /^Trust$/ }).first().click({ timeout: STEP_TIMEOUT_MS });
  await restricted.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
  // Welcome: Open Walkthrough…, then ours from its list.
  await ui.command('Welcome: Open Walkthrough...');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: WALKTHROUGH_TITLE }).first();
  await row.waitFor({ timeout: STEP_TIMEOUT_MS });
  await row.click();
  await step(page, 'enable').waitFor({ timeout: STEP_TIMEOUT_MS });
  await ui.screenshot('opened');

  await clickStepButton(page, 'enable', 'Turn On the Models');
  await ticked(page, 'enable');
  // This one writes the setting into settings.json, shown in a modal editor, which a person closes.
  await clickStepButton(page, 'copilot', 'Allow Chat without Sign-in');
  await page.locator('.modal-editor-part .view-line', { hasText: '"chat.allowAnonymousAccess": true' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  await ui.screenshot('settings-json');
  // Closed once saved (a person reads the line first).
  await until(() => readFileSync(ctx.settingsFile, 'utf8').includes('"chat.allowAnonymousAccess": true'), STEP_TIMEOUT_MS, () => `settings.json saved with the line; it reads ${readFileSync(ctx.settingsFile, 'utf8')}`);
  await page.locator('.modal-editor-part a.codicon-close').click();
  await ticked(page, 'copilot');
  await clickStepButton(page, 'agents', 'Manage Agents');
  details.manageAgents = await page.locator('.quick-input-widget').first().innerText({ timeout: STEP_TIMEOUT_MS });
  await ticked(page, 'agents');
  // Nothing to add: Eliza is always there. The quick pick is closed as a person closes it.
  await page.keyboard.press('Escape');
  await ui.screenshot('three-steps-done');
  details.settings = JSON.parse(readFileSync(ctx.settingsFile, 'utf8'));
  if (details.settings['symposium.enableExperimentalLM'] !== true || details.settings['chat.allowAnonymousAccess'] !== true) {
    throw new Error(`the buttons did not set the settings: ${JSON.stringify(details.settings)}`);
  }

  await clickStepButton(page, 'chat', 'Open Chat');
  const input = page.locator('.interactive-input-editor').first();
  await input.waitFor({ timeout: STEP_TIMEOUT_MS });
  // Signed out, Copilot's model picker opens only once the chat is set up: the first message goes to the first
  // model, Eliza. In a fresh profile the focus leaves the chat input after its first key (Copilot Chat is set up
  // then): as a person would, the input is clicked again and the message typed anew until it holds it.
  const message = 'Hello, I feel a bit lost with all these settings';
  details.typingAttempts = 0;
  for (;;) {
    details.typingAttempts++;
    await input.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(message);
    // The input wraps long lines, and renders what is typed a moment later.
    const holds = async () => (await input.innerText()).replace(/\s+/g, ' ').includes(message);
    if (await until(holds, 3000, () => 'typed message').then(() => true, () => false)) break;
    if (details.typingAttempts === 3) throw new Error(`the chat input does not keep what is typed: ${JSON.stringify(await input.innerText())}`);
    await sleep(1000);
  }
  await page.keyboard.press('Enter');
  // The model's name shows under the answer once it is complete.
  const response = page.locator('.interactive-response').last();
  await until(
    async () => (details.response = await response.innerText().catch(() => '')).includes('Eliza (built-in)'),
    ANSWER_TIMEOUT_MS,
    () => `an answer named Eliza's; the response reads ${JSON.stringify(details.response)}`,
  );
  // Every step ticked off, the last by the answer; the walkthrough still beside the chat.
  for (const id of ['enable', 'copilot', 'agents', 'chat']) await ticked(page, id);
  await ui.screenshot('answered');
}

/**
 * Runs the scenario in a workbench of its own and returns its result (one, or two when a process of its run is
 * left). Ends every process it started.
 */
export async function runWalkthrough(vsixPath, log) {
  const dirs = prepareRunDir();
  // A fresh VS Code: no requests recorded (SYMPOSIUM_RECORD_REQUESTS), no settings.
  delete dirs.requests;
  const state = { roots: [], browser: undefined, page: undefined, browserLog: [] };
  log(`walkthrough: run dir ${dirs.runDir}`);
  const details = {};
  const start = Date.now();
  let result;
  try {
    const page = await startWorkbench(dirs, [vsixPath], {}, state);
    await followWalkthrough(page, { settingsFile: join(dirs.userData, 'User', 'settings.json') }, details);
    result = { name: WALKTHROUGH_SCENARIO, passed: true, ms: Date.now() - start, details };
  } catch (error) {
    log(`walkthrough: ${error.stack || error.message}`);
    if (state.page) {
      mkdirSync(ARTIFACTS, { recursive: true });
      await state.page.screenshot({ path: join(ARTIFACTS, 'failed.png') }).catch(() => {});
    }
    result = { name: WALKTHROUGH_SCENARIO, passed: false, ms: Date.now() - start, error: error.message, details };
  }
  if (state.browser) await state.browser.close().catch(() => {});
  const left = await endProcesses(state.roots, dirs.runDir);
  const results = [result];
  if (left.length > 0) results.push({ name: 'walkthrough: no process of its run is left', passed: false, ms: 0, error: `left running: ${left.join('; ')}`, details: {} });
  const logFile = join(dirs.userData, 'logs');
  if (results.every((r) => r.passed) && process.env.SYMPOSIUM_VSCODE_KEEP !== '1') rmSync(dirs.runDir, { recursive: true, force: true });
  else log(`walkthrough: kept ${dirs.runDir}${existsSync(logFile) ? ` (logs in ${logFile})` : ''}`);
  return results;
}
