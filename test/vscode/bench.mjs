#!/usr/bin/env node
// Row 8 of the benchmark (`npm run bench -- 8`, bench/rows/vscode-host.ts), in the real VS Code host that
// `npm run test:vscode` uses: installs the packaged extension (symposium-lm.vsix) and the benchmark's driver
// (bench-driver/), whose consumer times vscode.lm requests inside the extension host, waits for its samples,
// then times answers through the Chat view with Playwright, ends everything the run started and writes the
// samples to the file named by its argument:
//
//   node test/vscode/bench.mjs OUT.json
//
// Exit code 0 only when the driver delivered its samples and no process of the run is left.
// SYMPOSIUM_BENCH_TURNS sets the timed requests per series (default 100), SYMPOSIUM_BENCH_CHAT_TURNS the Chat view's
// answers per model (default 20; 0: none), SYMPOSIUM_BENCH_EDIT_ROUNDS the rounds of edits per mode (default 10).
// SYMPOSIUM_BENCH_LOG_LEVEL=debug gives the extension's log the bridge's timestamped lines, and
// SYMPOSIUM_VSCODE_KEEP=1 keeps the run dir with that log (user-data/logs/…/Symposium.log).
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

process.env.SYMPOSIUM_VSCODE_TIMEOUT_MS ??= '900000';
const { QUIET_WORKBENCH, prepareRunDir, extensionVsix, vsce, scriptedAgent, startWorkbench, waitForReport, endProcesses } = await import('./run.mjs');

const HERE = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error('usage: node test/vscode/bench.mjs OUT.json');
  process.exit(2);
}

/** A user's settings, as far as the benchmark goes: defaults for Symposium (log level info, no request recording). */
function benchSettings(dirs, report) {
  return {
    ...QUIET_WORKBENCH,
    'remote.autoForwardPorts': false,
    'symposium.enableExperimentalLM': true,
    'symposium.eliza.deterministic': true,
    'symposium.startNotice': false,
    'symposium.logLevel': process.env.SYMPOSIUM_BENCH_LOG_LEVEL || 'info',
    'symposium.agents': [
      { id: 'scripted', name: 'Scripted', command: process.execPath, args: [scriptedAgent()] },
      // Slow to open a session (2 s), as Claude Code or OpenCode are: for the new chats on an agent in use.
      { id: 'slow', name: 'Slow', command: process.execPath, args: [scriptedAgent(), '--new-session-delay', '2000'] },
    ],
    'chat.allowAnonymousAccess': true,
    'chat.byokUtilityModelDefault': 'mainAgent',
    'symposiumBench.reportPath': report,
    'symposiumBench.turns': Number(process.env.SYMPOSIUM_BENCH_TURNS || 100),
  };
}

/** Requests per model through the Chat view (0: none); SYMPOSIUM_BENCH_CHAT_TURNS. */
const CHAT_VIEW_TURNS = Number(process.env.SYMPOSIUM_BENCH_CHAT_TURNS ?? 20);
const CHAT_VIEW_WARMUP = 3;

/**
 * The same through VS Code's Chat view (Copilot Chat, agent mode), as a person uses it: in a new chat with the
 * model picked, `Hello` typed and Enter pressed → the answer's first word rendered. Timed in the page, from the
 * Enter keydown to the mutation that shows it. Eliza against the trivial provider streaming alike.
 */
async function chatViewSamples(page) {
  const { ChatView } = await import('./chat-view.mjs');
  const ui = new ChatView(page, dirs.runDir);
  await ui.open();
  const samples = {};
  // Both stream "How do you do." word by word: the first word shown is the comparison (the Chat view renders a
  // streamed answer progressively, an answer in one part at once).
  for (const [series, model, expected] of [['eliza', 'Eliza (built-in)', 'How'], ['streaming', 'Bench streaming', 'How']]) {
    samples[series] = [];
    for (let i = 0; i < CHAT_VIEW_WARMUP + CHAT_VIEW_TURNS; i++) {
      await ui.newChat();
      await ui.pickModel(model);
      const ms = await timedChatAnswer(page, 'Hello', expected);
      if (i >= CHAT_VIEW_WARMUP) samples[series].push(ms);
      await ui.idle();
    }
    console.error(`bench: chat view, ${series}: ${samples[series].length} answers`);
  }
  Object.assign(samples, await newChatSamples(ui, page));
  if (EDIT_ROUNDS > 0) samples.edits = await editSamples(ui, page);
  return samples;
}

/** Files the scripted agent writes per round, and the rounds per mode (SYMPOSIUM_BENCH_EDIT_ROUNDS; 0: none). */
const EDIT_FILES = 5;
const EDIT_ROUNDS = Number(process.env.SYMPOSIUM_BENCH_EDIT_ROUNDS ?? 10);

/**
 * The cost of an edit through VS Code's review: the scripted agent writes EDIT_FILES new files (`write` lines, then
 * `say edits done`), Enter → that last line rendered. In agent mode each write is made by Copilot's `create_file`
 * (the bridge hands it to Copilot as a tool call, Copilot runs it and sends its result back in a new request); in
 * Ask mode, which offers no edit tools, the bridge writes the file itself. A new chat per round, one of warm-up per
 * mode; agent mode's edits are kept (Keep) after each round, outside the timing.
 */
async function editSamples(ui, page) {
  const edits = { files: EDIT_FILES, agent: [], ask: [] };
  for (const [series, mode] of [['agent', 'Agent'], ['ask', 'Ask']]) {
    for (let round = 0; round < 1 + EDIT_ROUNDS; round++) {
      await ui.newChat();
      await ui.pickMode(mode);
      await ui.pickModel('Scripted');
      const writes = Array.from({ length: EDIT_FILES }, (_, k) => `write bench-edit-${series}-${round}-${k}.txt "an edit\\n"`);
      const ms = await timedChatAnswer(page, [...writes, 'say edits done'].join('\n'), 'edits done');
      await ui.idle();
      if (series === 'agent') await ui.review('Keep');
      if (round > 0) edits[series].push(ms);
    }
    console.error(`bench: chat view, ${EDIT_FILES} files written in ${series} mode: ${edits[series].length} rounds`);
  }
  return edits;
}

/** New chats on an agent in use, and the same chats' follow-ups. */
const NEW_CHATS = 6;
/** Long enough for the agent to open its next spare session (2 s) before the next new chat. */
const NEW_CHAT_PAUSE_MS = 3000;

/**
 * A new chat on an agent in use against a follow-up in it: Slow takes 2 s to open a session, which a new chat
 * would wait for without a spare. One chat first, as a person starts; then new chats a few seconds apart.
 */
async function newChatSamples(ui, page) {
  const newChat = [];
  const followUp = [];
  await ui.newChat();
  await ui.pickModel('Slow');
  await timedChatAnswer(page, 'say warm', 'warm');
  await ui.idle();
  for (let i = 0; i < NEW_CHATS + 1; i++) {
    await new Promise((resolve) => setTimeout(resolve, NEW_CHAT_PAUSE_MS));
    await ui.newChat();
    const opened = await timedChatAnswer(page, `say fresh ${i}`, `fresh ${i}`);
    await ui.idle();
    const followed = await timedChatAnswer(page, 'say again', 'again');
    await ui.idle();
    if (i === 0) continue;
    newChat.push(opened);
    followUp.push(followed);
  }
  console.error(`bench: chat view, new chats: ${newChat.length}`);
  return { newChat, followUp };
}

/**
 * Types `text` (Shift+Enter between its lines), presses Enter and resolves with the ms from the keydown until the
 * newest answer shows `expected`.
 */
async function timedChatAnswer(page, text, expected) {
  await page.locator('.interactive-input-editor').first().click();
  for (const [i, line] of text.split('\n').entries()) {
    if (i > 0) await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(line);
  }
  await page.evaluate((expected) => {
    const before = document.querySelectorAll('.interactive-response').length;
    const timing = (window.__symposiumBench = { sentAt: undefined, shownAt: undefined });
    const onKey = (event) => {
      if (event.key === 'Enter' && timing.sentAt === undefined) timing.sentAt = performance.now();
    };
    document.addEventListener('keydown', onKey, true);
    const observer = new MutationObserver(() => {
      if (timing.sentAt === undefined) return;
      const responses = document.querySelectorAll('.interactive-response');
      if (responses.length > before && (responses[responses.length - 1].textContent ?? '').includes(expected)) {
        timing.shownAt = performance.now();
        observer.disconnect();
        document.removeEventListener('keydown', onKey, true);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  }, expected);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__symposiumBench.shownAt !== undefined, undefined, { timeout: 60_000, polling: 100 });
  return page.evaluate(() => window.__symposiumBench.shownAt - window.__symposiumBench.sentAt);
}

const dirs = prepareRunDir();
delete dirs.requests;
const state = { roots: [], browser: undefined, page: undefined, browserLog: [] };
let result;
let error;
const cleanup = async () => {
  if (state.browser) await state.browser.close().catch(() => {});
  return endProcesses(state.roots, dirs.runDir);
};
const onSignal = () => cleanup().finally(() => process.exit(130));
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
try {
  const vsixPath = extensionVsix(dirs.runDir);
  const driverVsix = join(dirs.runDir, 'bench-driver.vsix');
  vsce(join(HERE, 'bench-driver'), driverVsix);
  await startWorkbench(dirs, [vsixPath, driverVsix], benchSettings(dirs, dirs.report), state);
  result = await waitForReport(dirs);
  if (!result?.done) throw new Error('the benchmark driver did not finish');
  if (result.error) throw new Error(`the benchmark driver failed: ${result.error}`);
  if (CHAT_VIEW_TURNS > 0) result.chatView = await chatViewSamples(state.page);
} catch (e) {
  error = e;
  console.error(`bench: ${e.stack || e.message}`);
}
const left = await cleanup();
if (left.length > 0) console.error(`bench: processes left running after the run:\n  ${left.join('\n  ')}`);
if (result?.samples) writeFileSync(out, JSON.stringify(result, null, 2));
if (error || left.length > 0) {
  console.error(`bench: kept ${dirs.runDir}`);
  process.exitCode = 1;
} else if (process.env.SYMPOSIUM_VSCODE_KEEP === '1') {
  console.error(`bench: kept ${dirs.runDir}`);
} else {
  rmSync(dirs.runDir, { recursive: true, force: true });
}
