/**
 * Row 8: end to end in the real VS Code host (issue 16, point 5). `test/vscode/bench.mjs` starts code-server
 * (VS Code 1.139) with the packaged extension and the benchmark's driver, whose consumer times `vscode.lm`
 * `sendRequest` → the first text part it reads, inside the extension host: through the extension and the bridge
 * to Eliza and to the scripted ACP agent, against a trivial provider of the driver's own in the same host, and
 * the same with Eliza through the Chat view, driven with Playwright. This
 * row turns its samples into the table. Needs the host of `npm run test:vscode` (installed on first use), so it
 * runs only when asked for by number.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, percentile, ROOT, type Row } from '../lib.js';

interface Sample {
  /** ms after `sendRequest` was called: when it resolved, when the first text part was read, when the stream ended. */
  readonly responded: number;
  readonly first: number;
  readonly whole: number;
}

interface Plan {
  readonly turns: number;
  readonly warmup: number;
  readonly perConversation: number;
  readonly gapMs: number;
  readonly streamPaceMs: number;
}

interface Samples {
  readonly vscodeVersion: string;
  readonly plan: Plan;
  readonly samples: { readonly instant: Sample[]; readonly streaming: Sample[]; readonly eliza: Sample[]; readonly scripted: Sample[] };
  /** Through the Chat view: Enter → the answer's first word rendered, in ms (absent with SYMPOSIUM_BENCH_CHAT_TURNS=0). */
  readonly chatView?: {
    readonly eliza: number[];
    readonly streaming: number[];
    readonly newChat: number[];
    readonly followUp: number[];
    /** Enter → the answer's end, a round of `files` writes by the scripted agent, in agent mode (Copilot's edit tools) and in Ask mode (the bridge writes). */
    readonly edits?: { readonly files: number; readonly agent: number[]; readonly ask: number[] };
  };
}

/** Runs the host benchmark in its own process, which ends everything it started; `timeout` bounds it. */
async function runHost(out: string): Promise<Samples> {
  const child = spawn(process.execPath, [path.join(ROOT, 'test/vscode/bench.mjs'), out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  // Its progress goes to stderr, beside the other rows' progress; stdout is the table's.
  child.stdout.pipe(process.stderr);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`test/vscode/bench.mjs exited with ${code}`);
  return JSON.parse(readFileSync(out, 'utf8')) as Samples;
}

function latencyRow(metric: string, samples: readonly number[], baseline: readonly number[], counts: string): Row {
  const m = median(samples);
  const b = median(baseline);
  return { row: '8', metric, median: m, p99: percentile(samples, 99), baseline: b, unit: 'ms', bar: `— (added ${(m - b).toFixed(2)})`, counts };
}

export async function vscodeHost(): Promise<Row[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-vscode-'));
  try {
    const { vscodeVersion, plan, samples, chatView } = await runHost(path.join(dir, 'samples.json'));
    const { instant, streaming, eliza, scripted } = samples;
    const first = (xs: readonly Sample[]) => xs.map((s) => s.first);
    const whole = (xs: readonly Sample[]) => xs.map((s) => s.whole);
    const counts = `VS Code ${vscodeVersion}, ${plan.turns} requests per series (+${plan.warmup} warm-up), interleaved, ${plan.perConversation - 1} timed per conversation, ${plan.gapMs} ms apart`;
    const pace = `a word every ${plan.streamPaceMs} ms`;
    const chat =
      chatView === undefined
        ? []
        : [
            latencyRow(
              'Chat view (Copilot Chat, agent mode): Enter → the answer\'s first word rendered, Eliza; baseline the trivial provider streaming alike',
              chatView.eliza,
              chatView.streaming,
              `Chat view: ${chatView.eliza.length} answers per model (+3 warm-up), each in a new chat, timed in the page`,
            ),
            latencyRow(
              'Chat view: a new chat on an agent in use whose session/new takes 2 s, Enter → the answer rendered; baseline a follow-up in that chat',
              chatView.newChat,
              chatView.followUp,
              `Chat view: ${chatView.newChat.length} new chats (+1 warm-up) 3 s apart, after a first chat, each with one follow-up`,
            ),
            ...(chatView.edits === undefined
              ? []
              : [
                  latencyRow(
                    `Chat view: the scripted agent writes ${chatView.edits.files} new files, Enter → the answer's end, per file: agent mode (each write made by Copilot's create_file, listed for review); baseline Ask mode (the bridge writes)`,
                    chatView.edits.agent.map((ms) => ms / chatView.edits!.files),
                    chatView.edits.ask.map((ms) => ms / chatView.edits!.files),
                    `Chat view: ${chatView.edits.agent.length} rounds per mode (+1 warm-up), each in a new chat`,
                  ),
                ]),
          ];
    return [
      latencyRow(`vscode.lm → first text part, Eliza (${pace}); baseline a trivial provider streaming alike`, first(eliza), first(streaming), counts),
      latencyRow('vscode.lm → first text part, scripted ACP agent `say hello` (one chunk); baseline a trivial provider answering at once', first(scripted), first(instant), counts),
      latencyRow('vscode.lm → whole response, scripted ACP agent `say hello`; baseline the trivial provider answering at once', whole(scripted), whole(instant), counts),
      latencyRow(`vscode.lm → first text part, the trivial provider streaming (${pace}), against answering at once: VS Code's own batching`, first(streaming), first(instant), counts),
      ...chat,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
