// Going back in a chat with the real Claude Code (issue 45), in the Chat view of claude-view.mjs's workbench: the
// person restores a checkpoint, edits an earlier request in place, or retries an answer, and Claude's model (the
// scripted Anthropic API's recorded requests) must then hold the exchange before that point as its own messages
// and nothing after it. Each scenario builds the chat: "hello" (answered), "create FILE" (Claude creates it
// through Copilot's create_file), "and now the tests" (answered).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const slug = (text) => text.replace(/[^\w-]+/g, '-');

/** The three exchanges in a new chat on Claude Code; `file` is created by the second. */
async function threeExchanges(ui, c, ctx, newChat, file) {
  await newChat(ui);
  await ui.send('hello');
  await ui.response((t) => t.includes('Claude heard: hello') && t.includes('Claude Code'), "Claude's answer to hello");
  await ui.idle();
  await ui.send(`create ${file}`);
  await ui.response((t) => t.includes('Created it:') && t.includes('Claude Code'), "Claude's answer after create_file");
  await ui.idle();
  c.ok(existsSync(join(ctx.workspace, file)), `Claude did not create ${file}`);
  await ui.send('and now the tests');
  await ui.response((t) => t.includes('Claude heard: and now the tests') && t.includes('Claude Code'), "Claude's answer to the tests");
  await ui.idle();
}

/** The texts of the requests the Chat view shows (those taken back are hidden or dimmed, and not counted). */
async function shownRequests(ui) {
  const rows = ui.page.locator('.interactive-item-container.interactive-request:visible');
  const texts = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const disabled = await row.evaluate((e) => e.closest('.monaco-list-row')?.classList.contains('disabled') || getComputedStyle(e).opacity < 0.9);
    if (!disabled) texts.push((await row.locator('.value').first().innerText()).trim());
  }
  return texts;
}

/** Hovers the request that says `words` and clicks Restore Checkpoint on the checkpoint above it. */
async function restoreCheckpointAt(ui, words) {
  const request = ui.page.locator('.interactive-item-container.interactive-request').filter({ hasText: words }).last();
  await request.hover();
  const checkpoint = request.locator('.checkpoint-container').first();
  await checkpoint.hover();
  await checkpoint.locator('[aria-label^="Restore Checkpoint"], a:has-text("Restore Checkpoint")').first().click({ timeout: 10_000 });
}

/** The requests the Chat view shows once they are `expected` (it re-renders after a restore or a redo), or after 10 s. */
async function shownOnce(ui, expected) {
  let shown = [];
  for (const end = Date.now() + 10_000; Date.now() < end; await sleep(250)) {
    shown = await shownRequests(ui);
    if (JSON.stringify(shown) === JSON.stringify(expected)) break;
  }
  return shown;
}

/** Answers VS Code's dialog about going back with Yes; returns what it asked ('' when it asked nothing). */
async function confirmGoingBack(ui) {
  const dialog = ui.page.locator('.monaco-dialog-box');
  const asked = await dialog.first().waitFor({ timeout: 5000 }).then(() => dialog.first().innerText(), () => '');
  if (asked !== '') await dialog.first().getByRole('button', { name: 'Yes', exact: true }).click();
  await dialog.first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
  return asked;
}

/** The conversation requests Claude's model got since `since` (a count of the mock's) whose last words are `said`. */
function asked(ctx, since, said) {
  return ctx.mock.conversation().slice(since).filter((r) => ctx.mock.lastUserTextOf(r) === said);
}

/**
 * Checks that Claude's model request holds, as its own messages, exactly the person's `before` words and then
 * `said`, with Claude's `answers`, and nothing of `gone` (what the person took back).
 */
function checkModelHolds(c, ctx, since, request, { before, answers, gone }) {
  const messages = request.body.messages;
  c.note('model roles', messages.map((m) => m.role[0]).join(''));
  const session = c.note('model session', ctx.mock.sessionIdOf(request));
  // Other chats may have begun with the same words ("hello"): their Claude sessions are not this chat's.
  const others = new Set(ctx.mock.conversation().slice(0, since).map((r) => ctx.mock.sessionIdOf(r)));
  c.ok(!others.has(session), `Claude's model was asked in the session of another chat (${session})`);
  mkdirSync(ctx.artifacts, { recursive: true });
  writeFileSync(join(ctx.artifacts, `model-request-${slug(before.at(-1))}.json`), JSON.stringify(request.body.messages, null, 1));
  const said = c.note('model user words', ctx.mock.userTextsOf(request));
  c.equal(JSON.stringify(said), JSON.stringify(before), "the person's words in Claude's model request, in order");
  const text = JSON.stringify(messages);
  for (const answer of answers) c.includes(text, answer, "Claude's model request (its own earlier answer)");
  for (const words of gone) c.excludes(text, words, "Claude's model request (what the person took back)");
}

/**
 * Checks that record every failure instead of stopping at the first, so that one run shows all that went wrong
 * (the Chat view's state, the file, Claude's model request); `done()` throws them together.
 */
function allChecks(c) {
  const failures = [];
  const soft = (method) => (...args) => {
    try {
      c[method](...args);
    } catch (error) {
      failures.push(error.message);
    }
  };
  return {
    note: (key, value) => c.note(key, value),
    ok: soft('ok'),
    equal: soft('equal'),
    includes: soft('includes'),
    excludes: soft('excludes'),
    done: () => c.ok(failures.length === 0, failures.join(' · ')),
  };
}

export function rewindScenarios(newChat) {
  return [
    {
      name: "claude: rewind — Restore Checkpoint at the second request: Claude's model holds the first exchange and the new words, nothing after",
      async run(ui, checks, ctx) {
        const c = allChecks(checks);
        const since = ctx.mock.conversation().length;
        await threeExchanges(ui, c, ctx, newChat, 'notes.txt');
        await restoreCheckpointAt(ui, 'create notes.txt');
        c.includes(c.note('dialog', await confirmGoingBack(ui)), 'notes.txt', "VS Code's dialog (the edit it undoes)");
        const removed = await onDisk(join(ctx.workspace, 'notes.txt'), false);
        await ui.screenshot('claude-rewind-restored');
        c.equal(JSON.stringify(c.note('shown after restore', await shownOnce(ui, ['hello']))), JSON.stringify(['hello']), 'the requests the Chat view shows after the restore');
        c.ok(removed, 'notes.txt is still on disk after the restore');
        // VS Code puts the restored request's words back into the input: the person replaces them.
        await ui.page.locator('.interactive-input-editor').first().click();
        await ui.page.keyboard.press('Control+A');
        await ui.page.keyboard.press('Backspace');
        await ui.send("let's do it differently");
        await ui.response((t) => t.includes("Claude heard: let's do it differently") && t.includes('Claude Code'), "Claude's answer to the new words");
        await ui.idle();
        await ui.screenshot('claude-rewind-restored-answered');
        const requests = asked(ctx, since, "let's do it differently");
        c.ok(requests.length === 1, `Claude's model was asked ${requests.length} times for the new words`);
        if (requests.length > 0) checkModelHolds(c, ctx, since, requests.at(-1), { before: ['hello', "let's do it differently"], answers: ['Claude heard: hello'], gone: ['notes.txt', 'and now the tests'] });
        c.done();
      },
    },
    {
      name: "claude: rewind — the second request edited in place: Claude's model holds the first exchange and the edited words, nothing after",
      async run(ui, checks, ctx) {
        const c = allChecks(checks);
        const since = ctx.mock.conversation().length;
        await threeExchanges(ui, c, ctx, newChat, 'edited-notes.txt');
        const second = ui.page.locator('.interactive-item-container.interactive-request').filter({ hasText: 'create edited-notes.txt' }).last();
        await second.locator('.value').first().click();
        // The request turns into an editor of its words.
        const editor = ui.page.locator('.interactive-request .interactive-input-editor, .interactive-request .monaco-editor').first();
        await editor.waitFor({ timeout: 10_000 });
        await ui.screenshot('claude-rewind-editing');
        await ui.page.keyboard.press('Control+A');
        await ui.page.keyboard.type("let's do it another way");
        // The responses after it go: the answer is found by its words, wherever it stands.
        ui.responsesBefore = -1;
        await ui.page.keyboard.press('Enter');
        c.includes(c.note('dialog', await confirmGoingBack(ui)), 'edited-notes.txt', "VS Code's dialog (the edit it undoes)");
        await ui.response((t) => t.includes("Claude heard: let's do it another way") && t.includes('Claude Code'), "Claude's answer to the edited words");
        await ui.idle();
        await ui.screenshot('claude-rewind-edited-answered');
        c.equal(JSON.stringify(c.note('shown after edit', await shownOnce(ui, ['hello', "let's do it another way"]))), JSON.stringify(['hello', "let's do it another way"]), 'the requests the Chat view shows after the edit');
        c.ok(await onDisk(join(ctx.workspace, 'edited-notes.txt'), false), 'edited-notes.txt is still on disk after the edit');
        const requests = asked(ctx, since, "let's do it another way");
        c.ok(requests.length === 1, `Claude's model was asked ${requests.length} times for the edited words`);
        if (requests.length > 0) checkModelHolds(c, ctx, since, requests.at(-1), { before: ['hello', "let's do it another way"], answers: ['Claude heard: hello'], gone: ['edited-notes.txt', 'and now the tests'] });
        c.done();
      },
    },
    {
      name: "claude: rewind — Retry under the last answer: Claude's model holds the chat up to that request, asked once, without the answer retried",
      async run(ui, checks, ctx) {
        const c = allChecks(checks);
        const since = ctx.mock.conversation().length;
        await threeExchanges(ui, c, ctx, newChat, 'retried-notes.txt');
        const answer = ui.page.locator('.interactive-item-container.interactive-response').last();
        await answer.hover();
        ui.responsesBefore = (await ui.newestResponseIndex()) - 1;
        await answer.locator('a.action-label.codicon-refresh, a.action-label[aria-label^="Retry"]').first().click();
        await confirmGoingBack(ui);
        const requests = await waitForRequests(() => asked(ctx, since, 'and now the tests'), 2, 60_000);
        await ui.response((t) => t.includes('Claude heard: and now the tests') && t.includes('Claude Code'), "Claude's retried answer");
        await ui.idle();
        await ui.screenshot('claude-rewind-retried');
        c.ok(requests.length === 2, `Claude's model was asked ${requests.length} times for the tests, not twice (once, and once retried)`);
        if (requests.length > 0) checkModelHolds(c, ctx, since, requests.at(-1), { before: ['hello', 'create retried-notes.txt', 'Tool loaded.' /* Claude Code's own, after its ToolSearch */, 'and now the tests'], answers: ['Claude heard: hello', 'Created it:'], gone: ['Claude heard: and now the tests'] });
        c.done();
      },
    },
    {
      name: "claude: rewind — Restore Checkpoint, then Redo: the next message goes on in the chat's Claude session, with all of it",
      async run(ui, checks, ctx) {
        const c = allChecks(checks);
        const since = ctx.mock.conversation().length;
        await threeExchanges(ui, c, ctx, newChat, 'redone-notes.txt');
        const session = ctx.mock.sessionIdOf(ctx.mock.conversation().at(-1));
        await restoreCheckpointAt(ui, 'create redone-notes.txt');
        await confirmGoingBack(ui);
        c.ok(await onDisk(join(ctx.workspace, 'redone-notes.txt'), false), 'redone-notes.txt is still on disk after the restore');
        // VS Code offers to reapply what the restore discarded until the next message.
        await ui.page.locator('a[aria-label="Reapply discarded workspace changes and chat"]:visible', { hasText: 'Redo' }).first().click({ timeout: 10_000 });
        const back = await onDisk(join(ctx.workspace, 'redone-notes.txt'), true);
        c.equal(JSON.stringify(c.note('shown after redo', await shownOnce(ui, ['hello', 'create redone-notes.txt', 'and now the tests']))), JSON.stringify(['hello', 'create redone-notes.txt', 'and now the tests']), 'the requests the Chat view shows after Redo');
        await ui.screenshot('claude-rewind-redone');
        c.ok(back, 'Redo did not bring redone-notes.txt back');
        await ui.page.locator('.interactive-input-editor').first().click();
        await ui.page.keyboard.press('Control+A');
        await ui.page.keyboard.press('Backspace');
        await ui.send('say after the redo');
        await ui.response((t) => t.includes('after the redo') && t.includes('Claude Code'), "Claude's answer after Redo");
        await ui.idle();
        const requests = asked(ctx, since, 'say after the redo');
        c.ok(requests.length === 1, `Claude's model was asked ${requests.length} times after Redo`);
        if (requests.length > 0) {
          checkModelHolds(c, ctx, since, requests.at(-1), { before: ['hello', 'create redone-notes.txt', 'Tool loaded.', 'and now the tests', 'say after the redo'], answers: ['Claude heard: hello', 'Created it:', 'Claude heard: and now the tests'], gone: [] });
          c.equal(ctx.mock.sessionIdOf(requests.at(-1)), session, "Claude's session after Redo (the chat's own, nothing to go back from)");
        }
        c.done();
      },
    },
  ];
}

/** Whether `file` is on disk as `present` says within a few seconds (VS Code undoes or redoes a chat's edits after the click). */
async function onDisk(file, present) {
  for (const end = Date.now() + 5000; Date.now() < end; await sleep(200)) if (existsSync(file) === present) return true;
  return existsSync(file) === present;
}

/** The requests `find` returns once there are `count` of them (or what there is after `timeoutMs`). */
async function waitForRequests(find, count, timeoutMs) {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(300)) if (find().length >= count) break;
  return find();
}
