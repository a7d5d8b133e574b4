// The test driver: a language-model consumer that talks to the symposium models the way Cline's vscode-lm
// handler does (selectChatModels, sendRequest with tools, reading response.stream, invoking tools and sending
// their results back, cancelling with a CancellationTokenSource, countTokens), runs the scenarios of
// `npm run test:vscode` and writes a JSON report to the path in the setting `symposiumTest.reportPath`.
// Plain CommonJS: it is loaded as is by the extension host.
'use strict';

const vscode = require('vscode');
const fs = require('node:fs');
const path = require('node:path');

const VENDOR = 'symposium';
const ELIZA = 'symposium-eliza';
const SCRIPTED = 'symposium-agent-scripted';
const AGENT_ACTION_TOOL = 'symposium-agent-action';
/** What the confirmed tool returns (src/protocol/agent-action.ts), for hosts without a dialog to answer. */
const approvalOf = (call) => `The user allowed this action (${call.input.action_id}).`;
const ECHO_TOOL = 'driver_echo';

const REQUEST_TIMEOUT_MS = 30_000;
const SCENARIO_TIMEOUT_MS = 60_000;

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerTool(ECHO_TOOL, {
      invoke(options) {
        const text = options.input && typeof options.input.text === 'string' ? options.input.text : JSON.stringify(options.input);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`echo: ${text}`)]);
      },
    }),
  );
  const config = vscode.workspace.getConfiguration('symposiumTest');
  const reportPath = config.get('reportPath') || process.env.SYMPOSIUM_TEST_REPORT;
  if (!reportPath) return;
  // A window reload (the Chat view's reload scenario) activates the driver again: its scenarios ran once.
  if (fs.existsSync(reportPath)) return;
  const report = new Report(reportPath);
  report.log(`driver activated in VS Code ${vscode.version} (${vscode.env.appName}, ${vscode.env.appHost})`);
  runAll(report, {
    confirmations: config.get('confirmations') || 'dialog',
    only: config.get('only') || [],
  }).then(
    () => report.finish(),
    (error) => {
      report.log(`driver crashed: ${describe(error)}`);
      report.finish();
    },
  );
}

function deactivate() {}

class Report {
  constructor(file) {
    this.file = file;
    this.data = {
      done: false,
      vscodeVersion: vscode.version,
      appName: vscode.env.appName,
      startedAt: new Date().toISOString(),
      scenarios: [],
      log: [],
    };
    this.write();
  }
  log(line) {
    this.data.log.push(`${new Date().toISOString()} ${line}`);
    this.write();
  }
  add(result) {
    this.data.scenarios.push(result);
    this.write();
  }
  finish() {
    this.data.done = true;
    this.data.finishedAt = new Date().toISOString();
    this.write();
  }
  write() {
    // Write then rename, so that the harness never reads half a report.
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.data, null, 2));
    fs.renameSync(tmp, this.file);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A consumer, in the manner of Cline's vscode-lm handler.

const isText = (part) => part instanceof vscode.LanguageModelTextPart || (part && typeof part.value === 'string' && !('callId' in part));
const isToolCall = (part) => part instanceof vscode.LanguageModelToolCallPart || (part && typeof part.callId === 'string' && typeof part.name === 'string');

/**
 * Sends one request and reads its stream to the end. `cancelWhen(result)` is asked after every part; when it says
 * yes, the request is cancelled through its CancellationTokenSource; `cancelOnResponse` cancels it as soon as
 * sendRequest resolves, before any part is read. A request that takes longer than `timeoutMs`
 * is cancelled too, and marked timedOut.
 */
async function send(model, messages, { tools = [], cancelWhen, cancelOnResponse = false, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  const source = new vscode.CancellationTokenSource();
  const result = { text: '', textParts: 0, toolCalls: [], otherParts: [], parts: [], arrivals: [], error: undefined, timedOut: false, cancelledAt: undefined, startedAt: Date.now(), endedAt: undefined };
  const timer = setTimeout(() => {
    result.timedOut = true;
    source.cancel();
  }, timeoutMs);
  try {
    const response = await model.sendRequest(messages, { tools, justification: 'symposium-lm test driver' }, source.token);
    result.respondedAt = Date.now();
    if (cancelOnResponse) {
      result.cancelledAt = Date.now();
      source.cancel();
    }
    for await (const part of response.stream) {
      // When each text or tool call part arrived (bookkeeping data parts, such as the stateful marker, are not counted).
      if (isToolCall(part) || isText(part)) result.arrivals.push(Date.now() - result.startedAt);
      if (isToolCall(part)) {
        result.toolCalls.push(part);
        result.parts.push(part);
      } else if (isText(part)) {
        result.text += part.value;
        result.textParts++;
        result.parts.push(part);
      } else {
        result.otherParts.push(part && part.constructor ? part.constructor.name : typeof part);
      }
      if (cancelWhen && result.cancelledAt === undefined && cancelWhen(result)) {
        result.cancelledAt = Date.now();
        source.cancel();
      }
    }
  } catch (error) {
    result.error = error;
  } finally {
    clearTimeout(timer);
    result.endedAt = Date.now();
    source.dispose();
  }
  return result;
}

/** The assistant message a consumer puts back into the history for a response: its text and tool calls. */
function assistantMessage(result) {
  const content = [];
  for (const part of result.parts) {
    if (isToolCall(part)) content.push(new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input));
    else content.push(new vscode.LanguageModelTextPart(part.value));
  }
  return vscode.LanguageModelChatMessage.Assistant(content);
}

/**
 * As Cline does: invokes the tool the model called, then sends its result back with the whole history
 * (the reply that ended on the call, and a user message holding the result). Returns the next response.
 */
async function answerWithTool(c, model, history, first, call, tools) {
  const toolResult = await vscode.lm.invokeTool(ECHO_TOOL, { input: call.input, toolInvocationToken: undefined });
  c.note('toolResult', toolResult.content.map((p) => p.value));
  history.push(assistantMessage(first));
  history.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, toolResult.content)]));
  return send(model, history, { tools });
}

/**
 * A round trip of the driver's echo tool: `prompt` makes the model call it once with `input`, the driver
 * runs it and sends the result back, and the model's reply must be `reply`. Returns the first response.
 */
async function echoRoundTrip(c, model, { prompt, input, reply, timeoutMs }) {
  const tools = offeredTools();
  const history = [user(prompt)];
  const first = await send(model, history, { tools, timeoutMs });
  c.note('first', summary(first));
  c.noError(first, 'first request');
  c.equal(first.toolCalls.length, 1, 'tool calls in the first response');
  const call = first.toolCalls[0];
  c.equal(call.name, ECHO_TOOL, 'tool call name');
  c.equal(JSON.stringify(call.input), JSON.stringify(input), 'tool call input');
  const second = c.note('second', summary(await answerWithTool(c, model, history, first, call, tools)));
  c.noError(second, 'second request');
  c.equal(second.text, reply, 'reply to the tool result');
  return { first, call };
}

const user = (text) => vscode.LanguageModelChatMessage.User(text);

/** The tools offered in requests: the driver's own and the bridge's permission tool, as vscode.lm.tools has them. */
function offeredTools() {
  return vscode.lm.tools
    .filter((t) => t.name === ECHO_TOOL || t.name === AGENT_ACTION_TOOL)
    .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

function summary(result) {
  return {
    text: result.text,
    textParts: result.textParts,
    toolCalls: result.toolCalls.map((c) => ({ callId: c.callId, name: c.name, input: c.input })),
    otherParts: result.otherParts,
    error: result.error === undefined ? undefined : describe(result.error),
    timedOut: result.timedOut || undefined,
    ms: result.endedAt - result.startedAt,
    // When sendRequest resolved, and when each part arrived, in ms after the request was sent.
    respondedMs: result.respondedAt === undefined ? undefined : result.respondedAt - result.startedAt,
    arrivals: result.arrivals,
    msAfterCancel: result.cancelledAt === undefined ? undefined : result.endedAt - result.cancelledAt,
  };
}

function describe(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function findModel(id, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
    if (model) return model;
    if (Date.now() > deadline) throw new Error(`no model ${id} from vendor ${VENDOR} after ${timeoutMs} ms`);
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Assertions: each scenario collects its checks; the first failing one fails it with its details.

class Checks {
  constructor() {
    this.details = {};
  }
  /** Records `value` under `name` in the details. */
  note(name, value) {
    this.details[name] = value;
    return value;
  }
  ok(condition, message) {
    if (!condition) throw new Error(message);
  }
  equal(actual, expected, what) {
    if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
  noError(result, what) {
    if (result.timedOut) throw new Error(`${what}: timed out after ${REQUEST_TIMEOUT_MS} ms`);
    if (result.error !== undefined) throw new Error(`${what}: ${describe(result.error)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The scenarios.

/** @type {Array<{name: string, run: (c: Checks, env: object) => Promise<void>}>} */
const SCENARIOS = [
  {
    name: 'models are listed',
    async run(c) {
      const eliza = await findModel(ELIZA);
      await findModel(SCRIPTED);
      const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
      c.note(
        'models',
        models.map((m) => ({ id: m.id, name: m.name, vendor: m.vendor, family: m.family, version: m.version, maxInputTokens: m.maxInputTokens })),
      );
      c.equal(eliza.name, 'Eliza (built-in)', 'Eliza model name');
      c.equal(eliza.vendor, VENDOR, 'Eliza model vendor');
      c.ok(eliza.maxInputTokens > 0, `maxInputTokens ${eliza.maxInputTokens} is not positive`);
      const scripted = models.find((m) => m.id === SCRIPTED);
      c.equal(scripted && scripted.name, 'Scripted', 'scripted agent model name');
    },
  },
  {
    name: 'Eliza answers',
    async run(c) {
      const model = await findModel(ELIZA);
      const r = c.note('response', summary(await send(model, [user('Hello')])));
      c.noError(r, 'request');
      c.equal(r.text, 'How do you do. Please state your problem.', 'reply');
      c.equal(r.toolCalls.length, 0, 'tool calls');
    },
  },
  {
    name: 'three-turn conversation',
    async run(c) {
      const model = await findModel(ELIZA);
      const turns = [
        ['I feel sad today', 'Tell me more about such feelings.'],
        ['My mother does not understand me', 'Tell me more about your family.'],
        ['I am worried about my exams', 'Your exams?'],
      ];
      const history = [];
      const replies = c.note('replies', []);
      for (const [said, expected] of turns) {
        history.push(user(said));
        const result = await send(model, history);
        replies.push(summary(result));
        c.noError(result, `turn "${said}"`);
        c.equal(result.text, expected, `reply to "${said}"`);
        history.push(assistantMessage(result));
      }
    },
  },
  {
    name: 'token count',
    async run(c) {
      const model = await findModel(ELIZA);
      const short = c.note('short', await model.countTokens('Hello there'));
      const long = c.note('long', await model.countTokens('Hello there, '.repeat(50)));
      const message = c.note('message', await model.countTokens(user('How are you today?')));
      c.ok(Number.isInteger(short) && short > 0, `countTokens of a short text gave ${short}`);
      c.ok(long > short, `a text 50 times longer counted ${long} tokens, not more than ${short}`);
      c.ok(Number.isInteger(message) && message > 0, `countTokens of a message gave ${message}`);
    },
  },
  {
    name: 'Eliza lists the offered tools',
    async run(c) {
      const model = await findModel(ELIZA);
      const r = c.note('response', summary(await send(model, [user('list tools')], { tools: offeredTools() })));
      c.noError(r, 'request');
      c.equal(r.text, `Tools offered: ${ECHO_TOOL}.`, 'reply');
    },
  },
  {
    name: 'tool round trip through Eliza',
    async run(c) {
      const model = await findModel(ELIZA);
      const { first, call } = await echoRoundTrip(c, model, { prompt: 'use tool driver_echo with {"text":"hi"}', input: { text: 'hi' }, reply: 'OK: echo: hi' });
      c.ok(first.parts[first.parts.length - 1] === call, 'the response does not end with the tool call');
    },
  },
  {
    name: 'permission round trip',
    async run(c, env) {
      const model = await findModel(ELIZA);
      const tools = offeredTools();
      c.ok(
        tools.some((t) => t.name === AGENT_ACTION_TOOL),
        `vscode.lm.tools has no ${AGENT_ACTION_TOOL}: ${vscode.lm.tools.map((t) => t.name).join(', ')}`,
      );
      const history = [user('request permission touch x')];
      const first = await send(model, history, { tools });
      c.note('first', summary(first));
      c.noError(first, 'first request');
      c.equal(first.toolCalls.length, 1, 'tool calls in the first response');
      const call = first.toolCalls[0];
      c.equal(call.name, AGENT_ACTION_TOOL, 'tool call name');
      c.equal(call.input && call.input.title, 'touch x', 'the permission title in the tool input');
      let content;
      if (env.confirmations === 'dialog') {
        // A real consumer invokes the tool; its confirmation dialog is answered (Yes) by the harness.
        const invoked = await vscode.lm.invokeTool(AGENT_ACTION_TOOL, { input: call.input, toolInvocationToken: undefined });
        content = invoked.content;
        const dialogs = c.note('dialogs', readDialogs(env));
        c.ok(
          dialogs.some((d) => d.text.includes('touch x') && d.clicked === 'Yes'),
          'no confirmation dialog mentioning "touch x" was answered Yes',
        );
      } else {
        content = [new vscode.LanguageModelTextPart(approvalOf(call))];
      }
      c.note('toolResult', content.map((p) => p.value));
      history.push(assistantMessage(first));
      history.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, content)]));
      const second = c.note('second', summary(await send(model, history, { tools })));
      c.noError(second, 'second request');
      c.equal(second.text, 'Permission granted.', 'reply to the approval');
    },
  },
  {
    name: 'permission rejected',
    async run(c, env) {
      const model = await findModel(ELIZA);
      const tools = offeredTools();
      const history = [user('request permission reject me')];
      const first = await send(model, history, { tools });
      c.note('first', summary(first));
      c.noError(first, 'first request');
      c.equal(first.toolCalls.length, 1, 'tool calls in the first response');
      const call = first.toolCalls[0];
      c.equal(call.name, AGENT_ACTION_TOOL, 'tool call name');
      if (env.confirmations === 'dialog') {
        // The harness answers Cancel to a dialog about "reject me": invokeTool throws, the turn is abandoned.
        let threw;
        try {
          await vscode.lm.invokeTool(AGENT_ACTION_TOOL, { input: call.input, toolInvocationToken: undefined });
        } catch (error) {
          threw = error;
        }
        c.note('invokeToolError', threw === undefined ? undefined : describe(threw));
        c.ok(threw !== undefined, 'invokeTool did not throw after the confirmation was cancelled');
      }
      // As after a rejection in Copilot: the next request leaves the tool call out of the history.
      history.push(user('I feel sad today'));
      const second = c.note('second', summary(await send(model, history, { tools })));
      c.noError(second, 'second request');
      c.equal(second.toolCalls.length, 0, 'tool calls in the second response');
      c.equal(second.text, 'Tell me more about such feelings.', 'reply after the rejection');
    },
  },
  {
    name: 'cancellation (Eliza)',
    async run(c) {
      const model = await findModel(ELIZA);
      // Eliza streams a word every 15 ms, and VS Code's extension host forwards a provider's parts with a 30 ms
      // debounce: a consumer sees a short Eliza reply arrive in one batch, so this cancels as soon as the
      // request is accepted (the user stops at once). The mid-stream case is the scripted agent's, below.
      const history = [user('Tell me about the time I remember the sea')];
      const cancelled = c.note('cancelled', summary(await send(model, history, { cancelOnResponse: true })));
      c.ok(cancelled.msAfterCancel !== undefined, 'the request was never cancelled');
      c.ok(cancelled.msAfterCancel < 2000, `the stream ended ${cancelled.msAfterCancel} ms after the cancellation`);
      // The user retries: the same history gets the reply the first request would have had (Eliza's memory was
      // rolled back, or the keyword "remember" would move on to its next reply), of which the cancelled text
      // is a part.
      const retry = c.note('retry', summary(await send(model, history)));
      c.noError(retry, 'retry');
      c.equal(retry.text, 'Do you often think of the sea?', 'reply to the retry');
      c.ok(retry.text.startsWith(cancelled.text), `the cancelled text ${JSON.stringify(cancelled.text)} does not start the reply`);
      c.note('cutShort', cancelled.text.length < retry.text.length);
    },
  },
  {
    name: 'scripted ACP agent answers',
    async run(c) {
      const model = await findModel(SCRIPTED);
      const hello = c.note('sayHello', summary(await send(model, [user('say hello')], { timeoutMs: 45_000 })));
      c.noError(hello, '"say hello"');
      c.equal(hello.text, 'hello', 'reply to "say hello"');
      const stream = c.note('stream3', summary(await send(model, [user('stream 3')])));
      c.noError(stream, '"stream 3"');
      c.equal(stream.text, 'c1 c2 c3 ', 'reply to "stream 3"');
    },
  },
  {
    name: 'VS Code tool called by the scripted ACP agent over MCP',
    async run(c) {
      // The tool offered in the request reaches the agent through the bridge's MCP server; the agent's call
      // comes back as a tool call part, and the result the consumer sends goes back to the agent.
      const model = await findModel(SCRIPTED);
      await echoRoundTrip(c, model, { prompt: 'mcp-call driver_echo {"text":"over mcp"}', input: { text: 'over mcp' }, reply: 'result driver_echo: echo: over mcp', timeoutMs: 45_000 });
    },
  },
  {
    name: 'permission asked by the scripted ACP agent',
    async run(c, env) {
      const model = await findModel(SCRIPTED);
      const tools = offeredTools();
      const history = [user('permission touch y')];
      const first = await send(model, history, { tools, timeoutMs: 45_000 });
      c.note('first', summary(first));
      c.noError(first, 'first request');
      const call = first.toolCalls.find((t) => t.name === AGENT_ACTION_TOOL);
      c.ok(call, `no ${AGENT_ACTION_TOOL} tool call in the response`);
      c.ok(first.parts[first.parts.length - 1] === call, 'the response does not end with the permission tool call');
      let content;
      if (env.confirmations === 'dialog') {
        content = (await vscode.lm.invokeTool(AGENT_ACTION_TOOL, { input: call.input, toolInvocationToken: undefined })).content;
        const dialogs = c.note('dialogs', readDialogs(env));
        c.ok(dialogs.some((d) => d.text.includes('touch y') && d.clicked === 'Yes'), 'no confirmation dialog mentioning "touch y" was answered Yes');
      } else {
        content = [new vscode.LanguageModelTextPart(approvalOf(call))];
      }
      history.push(assistantMessage(first));
      history.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, content)]));
      const second = c.note('second', summary(await send(model, history, { tools })));
      c.noError(second, 'second request');
      c.ok(second.text.endsWith('permission touch y: allow_once'), `the agent was not allowed once: ${JSON.stringify(second.text)}`);
    },
  },
  {
    name: 'cancellation (scripted ACP agent)',
    async run(c) {
      const model = await findModel(SCRIPTED);
      const history = [user('stream 100 50')];
      const cancelled = await send(model, history, { cancelWhen: (r) => r.text.includes('c3 ') });
      c.note('cancelled', summary(cancelled));
      c.ok(cancelled.cancelledAt !== undefined, 'the request was never cancelled (c3 never arrived)');
      const after = cancelled.endedAt - cancelled.cancelledAt;
      c.ok(after < 3000, `the stream ended ${after} ms after the cancellation`);
      c.ok(!cancelled.text.includes('c100'), 'the whole stream arrived despite the cancellation');
      // Chunks 50 ms apart (more than VS Code's 30 ms batching) reach the consumer one by one, as they come.
      const [c1, , c3] = cancelled.arrivals;
      c.ok(c3 - c1 >= 60, `c1 and c3 arrived ${c3 - c1} ms apart: not streamed`);
      // The user goes on in the same conversation, the interrupted reply kept as it was shown.
      history.push(assistantMessage(cancelled), user('say hello'));
      const next = c.note('next', summary(await send(model, history)));
      c.noError(next, 'the request after the cancellation');
      c.equal(next.text, 'hello', 'reply to "say hello" after the cancellation');
    },
  },
  {
    name: 'model list follows settings',
    async run(c) {
      const config = vscode.workspace.getConfiguration('symposium');
      const before = config.get('agents') || [];
      const scripted = before.find((a) => a.id === 'scripted');
      c.ok(scripted, 'no agent "scripted" in symposium.agents');
      const added = { ...scripted, id: 'added', name: 'Added agent' };
      let changes = 0;
      const listener = vscode.lm.onDidChangeChatModels(() => changes++);
      try {
        await config.update('agents', [...before, added], vscode.ConfigurationTarget.Global);
        const model = await findModel('symposium-agent-added', 15_000);
        c.equal(model.name, 'Added agent', 'name of the added model');
        await waitFor(() => changes > 0, 5000);
        c.note('changeEventsAfterAdding', changes);
        c.ok(changes > 0, 'onDidChangeChatModels did not fire after an agent was added');
        const hello = c.note('sayHello', summary(await send(model, [user('say hello')], { timeoutMs: 45_000 })));
        c.noError(hello, 'request to the added agent');
        c.equal(hello.text, 'hello', 'reply of the added agent');
        const seen = changes;
        await config.update('agents', before, vscode.ConfigurationTarget.Global);
        const gone = await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'symposium-agent-added' })).length === 0, 15_000);
        c.ok(gone, 'the removed agent is still listed');
        await waitFor(() => changes > seen, 5000);
        c.note('changeEventsAfterRemoving', changes - seen);
        c.ok(changes > seen, 'onDidChangeChatModels did not fire after the agent was removed');
      } finally {
        listener.dispose();
      }
    },
  },
  {
    name: "an agent's models become picker entries that select them",
    async run(c) {
      const config = vscode.workspace.getConfiguration('symposium');
      const before = config.get('agents') || [];
      const scripted = before.find((a) => a.id === 'scripted');
      c.ok(scripted, 'no agent "scripted" in symposium.agents');
      const withModels = { ...scripted, id: 'models', name: 'Modelled', args: [...(scripted.args || []), '--models', 'fast,deep'] };
      try {
        await config.update('agents', [...before, withModels], vscode.ConfigurationTarget.Global);
        // The first request teaches the bridge the agent's models; the list then offers one entry per model.
        // (The extension keeps what it learned: a run of the scenarios before this one may have taught it.)
        const first = c.note('firstModel', summary(await send(await findModel('symposium-agent-models', 15_000), [user('model')], { timeoutMs: 45_000 })));
        c.noError(first, 'request to the first model');
        c.equal(first.text, 'fast', "the agent's default model answered");
        const deep = await findModel('symposium-agent-models/deep', 15_000);
        c.equal(deep.name, 'Modelled · Model deep', 'name of the learned model');
        const listed = (await vscode.lm.selectChatModels({ vendor: VENDOR })).map((m) => m.id).filter((id) => id.startsWith('symposium-agent-models'));
        c.note('listed', listed);
        // The agent's default keeps the agent's own id: a consumer that stored it before still finds it.
        c.equal(JSON.stringify(listed.sort()), JSON.stringify(['symposium-agent-models', 'symposium-agent-models/deep']), 'one entry per model');
        c.equal((await findModel('symposium-agent-models', 1000)).name, 'Modelled · Model fast', "the agent's default, named");
        const answered = c.note('deepModel', summary(await send(deep, [user('model')], { timeoutMs: 45_000 })));
        c.noError(answered, 'request to the learned model');
        c.equal(answered.text, 'deep', 'the picked model answered');
      } finally {
        await config.update('agents', before, vscode.ConfigurationTarget.Global);
      }
    },
  },
  {
    name: 'a built-in agent named by id is a model',
    async run(c) {
      const config = vscode.workspace.getConfiguration('symposium');
      const before = config.get('agents') || [];
      // npm agents are offered when npx is on PATH, the others when their program is: the extension looks on
      // the PATH of this process (the extension host), as the driver does here.
      c.ok(c.note('npxOnPath', onPath('npx')), 'npx is not on the PATH of the extension host: this scenario needs it');
      c.note('kimiOnPath', onPath('kimi'));
      try {
        await config.update('agents', [...before, { id: 'claude-code' }, { id: 'kimi' }], vscode.ConfigurationTarget.Global);
        const model = await findModel('symposium-agent-claude-code', 15_000);
        c.equal(model.name, 'Claude Code', 'name of the built-in model');
        // Both entries came in one settings change, so the list that has Claude Code has decided about Kimi too.
        const kimiModels = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'symposium-agent-kimi' });
        // Every configured agent is a model; one whose program is missing says "not installed" (issue 15).
        c.equal(kimiModels.length, 1, 'models of the built-in kimi (listed whether or not it is on PATH)');
      } finally {
        await config.update('agents', before, vscode.ConfigurationTarget.Global);
      }
      const gone = await waitFor(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'symposium-agent-claude-code' })).length === 0, 15_000);
      c.ok(gone, 'the removed built-in is still listed');
    },
  },
  {
    name: 'an agent that cannot start fails readably',
    async run(c) {
      const config = vscode.workspace.getConfiguration('symposium');
      const before = config.get('agents') || [];
      const broken = { id: 'broken', name: 'Broken agent', command: '/nonexistent/symposium-test-agent', args: [] };
      try {
        await config.update('agents', [...before, broken], vscode.ConfigurationTarget.Global);
        const model = await findModel('symposium-agent-broken', 15_000);
        const r = c.note('response', summary(await send(model, [user('hello')], { timeoutMs: 45_000 })));
        c.ok(!r.timedOut, 'the request hung instead of failing');
        c.ok(r.error !== undefined, 'the request did not fail');
        c.ok(r.error.includes('/nonexistent/symposium-test-agent'), `the error does not name the command: ${r.error}`);
        // The bridge keeps serving: Eliza still answers.
        const eliza = c.note('elizaAfter', summary(await send(await findModel(ELIZA), [user('Hello, are you still there?')])));
        c.noError(eliza, 'Eliza after the failure');
        c.ok(eliza.text.length > 0, 'Eliza gave no answer after the failure');
      } finally {
        await config.update('agents', before, vscode.ConfigurationTarget.Global);
      }
    },
  },
];

/** Whether an executable file of this name is on this process's PATH. */
function onPath(name) {
  const names = process.platform === 'win32' ? ['.exe', '.cmd'].map((ext) => name + ext) : [name];
  return (process.env.PATH || '').split(path.delimiter).some((dir) =>
    dir !== '' &&
    names.some((n) => {
      try {
        fs.accessSync(path.join(dir, n), fs.constants.X_OK);
        return fs.statSync(path.join(dir, n)).isFile();
      } catch {
        return false;
      }
    }),
  );
}

async function waitFor(predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

/** The confirmation dialogs the harness saw and answered, from dialogs.json beside the report. */
function readDialogs(env) {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(env.reportPath), 'dialogs.json'), 'utf8'));
  } catch {
    return [];
  }
}

async function runAll(report, options) {
  const env = { ...options, reportPath: report.file };
  const planned = SCENARIOS.filter((s) => options.only.length === 0 || options.only.includes(s.name));
  report.data.planned = planned.map((s) => s.name);
  report.log(`tools known to vscode.lm: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
  for (const scenario of planned) {
    const checks = new Checks();
    const start = Date.now();
    let error;
    report.log(`scenario "${scenario.name}"…`);
    try {
      await Promise.race([
        scenario.run(checks, env),
        sleep(SCENARIO_TIMEOUT_MS).then(() => {
          throw new Error(`scenario timed out after ${SCENARIO_TIMEOUT_MS} ms`);
        }),
      ]);
    } catch (e) {
      error = describe(e);
    }
    const result = { name: scenario.name, passed: error === undefined, ms: Date.now() - start, error, details: checks.details };
    report.add(result);
    report.log(`scenario "${scenario.name}": ${result.passed ? 'passed' : `FAILED: ${error}`}`);
  }
}

module.exports = { activate, deactivate };
