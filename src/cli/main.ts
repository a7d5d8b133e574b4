#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createLogger, isLogLevel, LOG_LEVELS, type LogLevel } from '../log.js';
import { serveVscodeLm } from '../server/vscodelm.js';
import { runChat } from './chat.js';

const USAGE = `Usage: symposium-lm <command> [options]

Commands:
  vscodelm            Serve the language-model protocol (JSON-RPC, Content-Length framing) on stdin/stdout.
  chat                Chat with an agent through a vscodelm child process, the way VS Code would.

Options for vscodelm:
  --log-level LEVEL   ${LOG_LEVELS.join(' | ')} (default: info); logs go to stderr.
  --eliza-pace-ms N   Pause between the words Eliza streams (default: 15).

Options for chat:
  -p, --prompt TEXT   Send one message, print the reply, exit. "-" (or no TEXT) reads it from stdin.
  --deterministic     Eliza cycles its replies like the original instead of varying them.
  --log-level LEVEL   Passed to the vscodelm child (default: warn).
  Without -p, each line typed (or piped) is a message. Ctrl-C cancels the reply; Ctrl-C again exits.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'vscodelm': {
      const { values } = parseArgs({
        args: rest,
        options: { 'log-level': { type: 'string', default: 'info' }, 'eliza-pace-ms': { type: 'string', default: '15' } },
      });
      const log = createLogger(logLevel(values['log-level']));
      await serveVscodeLm({ input: process.stdin, output: process.stdout, log, elizaPaceMs: nonNegative(values['eliza-pace-ms'], '--eliza-pace-ms') });
      return 0;
    }
    case 'chat': {
      const { values } = parseArgs({
        args: rest,
        options: {
          prompt: { type: 'string', short: 'p' },
          deterministic: { type: 'boolean', default: false },
          'log-level': { type: 'string', default: 'warn' },
        },
      });
      return runChat({ prompt: values.prompt, deterministic: values.deterministic, logLevel: logLevel(values['log-level']) });
    }
    case undefined:
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`symposium-lm: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

function logLevel(value: string): LogLevel {
  if (!isLogLevel(value)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  return value;
}

function nonNegative(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a number of milliseconds`);
  return n;
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`symposium-lm: ${message}\n`);
    process.exit(error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
  },
);
