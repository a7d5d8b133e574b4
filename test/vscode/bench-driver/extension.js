// The benchmark's driver (`npm run bench -- 8`, bench/rows/vscode-host.ts): a vscode.lm consumer in the real
// extension host that times `sendRequest` → the first text part it reads, through the Symposium extension and its
// bridge, against a trivial provider of its own registered in the same host, which answers at once. Every timing is
// taken here, with performance.now(), around what a consumer awaits. The samples go to the JSON file named by the
// setting `symposiumBench.reportPath`; the harness (test/vscode/bench.mjs) reads them.
// Plain CommonJS: it is loaded as is by the extension host.
'use strict';

const vscode = require('vscode');
const fs = require('node:fs');
const os = require('node:os');
const { performance } = require('node:perf_hooks');

const VENDOR = 'symposium-bench';
/** Between a consumer's requests, as in bench row 1: the scripted agent waits out updates up to 50 ms old. */
const GAP_MS = 70;
const WARMUP = 10;
/** Requests per conversation; each conversation's first request opens it and is not timed. */
const PER_CONVERSATION = 10;
/** The pace of the streaming baseline: Eliza's words in VS Code (bridge-process.ts, `--eliza-pace-ms 40`). */
const STREAM_PACE_MS = 40;
const REQUEST_TIMEOUT_MS = 30_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The trivial provider: `instant` answers in one part and returns; `streaming` says its second word 40 ms later. */
class TrivialProvider {
  provideLanguageModelChatInformation() {
    const model = (id, name) => ({ id, name, family: 'bench', version: '1', maxInputTokens: 100_000, maxOutputTokens: 1_000, capabilities: { toolCalling: true }, isUserSelectable: true });
    return [model('instant', 'Bench instant'), model('streaming', 'Bench streaming')];
  }
  async provideLanguageModelChatResponse(model, _messages, _options, progress) {
    if (model.id === 'instant') {
      progress.report(new vscode.LanguageModelTextPart('hello'));
      return;
    }
    progress.report(new vscode.LanguageModelTextPart('How '));
    await sleep(STREAM_PACE_MS);
    progress.report(new vscode.LanguageModelTextPart('do you do.'));
  }
  async provideTokenCount(_model, text) {
    return Math.ceil((typeof text === 'string' ? text.length : 1) / 4);
  }
}

/**
 * The series, each against its baseline: `prompt` is what the user says in every turn of a conversation.
 * Eliza's reply streams a word every 40 ms, as the streaming baseline does; the scripted agent's `say hello` is
 * one chunk, as the instant baseline's answer is.
 */
const SERIES = [
  { name: 'instant', vendor: VENDOR, id: 'instant', prompt: 'say hello' },
  { name: 'streaming', vendor: VENDOR, id: 'streaming', prompt: 'Hello' },
  { name: 'eliza', vendor: 'symposium', id: 'symposium-eliza', prompt: 'Hello' },
  { name: 'scripted', vendor: 'symposium', id: 'symposium-agent-scripted', prompt: 'say hello' },
];

async function findModel(vendor, id, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [model] = await vscode.lm.selectChatModels({ vendor, id });
    if (model) return model;
    if (Date.now() > deadline) throw new Error(`no model ${id} from vendor ${vendor} after ${timeoutMs} ms`);
    await sleep(250);
  }
}

/** One request, read to its end as a consumer does; times in ms after sendRequest was called. */
async function timedRequest(model, messages) {
  const source = new vscode.CancellationTokenSource();
  const timer = setTimeout(() => source.cancel(), REQUEST_TIMEOUT_MS);
  try {
    const start = performance.now();
    const response = await model.sendRequest(messages, {}, source.token);
    const responded = performance.now() - start;
    let first;
    let text = '';
    for await (const chunk of response.text) {
      if (first === undefined) first = performance.now() - start;
      text += chunk;
    }
    const whole = performance.now() - start;
    if (first === undefined) throw new Error(`${model.id} answered no text`);
    return { responded, first, whole, text };
  } finally {
    clearTimeout(timer);
    source.dispose();
  }
}

/** Runs every series turn by turn (interleaved, so that the machine's load drifts alike for all). */
async function measure(turns, log) {
  const states = [];
  for (const series of SERIES) states.push({ series, model: await findModel(series.vendor, series.id), history: [], samples: [], opened: 0 });
  for (let round = 0, inConversation = 0; round < WARMUP + turns; ) {
    for (const state of states) {
      if (inConversation === 0) state.history = [];
      state.history.push(vscode.LanguageModelChatMessage.User(state.series.prompt));
      const r = await timedRequest(state.model, state.history);
      state.history.push(vscode.LanguageModelChatMessage.Assistant(r.text));
      if (inConversation > 0 && round >= WARMUP) state.samples.push({ responded: r.responded, first: r.first, whole: r.whole });
      if (state.samples.length === 1 && inConversation > 0 && round >= WARMUP) log(`${state.series.name}: first timed reply ${JSON.stringify(r.text)}`);
      await sleep(GAP_MS);
    }
    if (inConversation > 0) round++;
    inConversation = (inConversation + 1) % PER_CONVERSATION;
  }
  return Object.fromEntries(states.map((s) => [s.series.name, s.samples]));
}

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, new TrivialProvider()));
  const config = vscode.workspace.getConfiguration('symposiumBench');
  const reportPath = config.get('reportPath');
  if (!reportPath || fs.existsSync(reportPath)) return;
  const turns = config.get('turns') || 100;
  const report = { done: false, vscodeVersion: vscode.version, log: [], plan: { turns, warmup: WARMUP, perConversation: PER_CONVERSATION, gapMs: GAP_MS, streamPaceMs: STREAM_PACE_MS } };
  const write = () => {
    fs.writeFileSync(`${reportPath}.tmp`, JSON.stringify(report, null, 2));
    fs.renameSync(`${reportPath}.tmp`, reportPath);
  };
  const log = (line) => {
    report.log.push(`${new Date().toISOString()} ${line}`);
    write();
  };
  log(`bench driver activated in VS Code ${vscode.version}`);
  report.loadStart = os.loadavg();
  measure(turns, log).then(
    (samples) => {
      report.samples = samples;
      report.loadEnd = os.loadavg();
      report.done = true;
      write();
    },
    (error) => {
      report.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      report.done = true;
      write();
    },
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
