/**
 * The extension's log: one `Symposium` LogOutputChannel for the adapter's own lines and the bridge's
 * stderr. Pure (the channel is handed in), so the bridge manager and its tests need no `vscode`.
 */
import { LOG_LEVELS, type LogLevel } from './logger.js';

/** The part of VS Code's `LogOutputChannel` used here. */
export interface LogChannelLike {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
}

export interface ExtensionLog {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  trace(message: string): void;
  /** A line the bridge wrote to stderr (already filtered by the bridge's own level). */
  bridgeLine(line: string): void;
}

const BRIDGE_LINE = /^\[\S+ (error|warn|info|debug|trace)\] (.*)$/s;

/**
 * Lines at or above `level()` (the `symposium.logLevel` setting). A LogOutputChannel hides debug and
 * trace lines unless its own level is lowered too, which would make the setting look broken, so those
 * go out as info lines marked `[debug]` / `[trace]`.
 */
export function createExtensionLog(channel: LogChannelLike, level: () => LogLevel): ExtensionLog {
  const write = (lvl: LogLevel, message: string) => {
    if (lvl === 'error') channel.error(message);
    else if (lvl === 'warn') channel.warn(message);
    else if (lvl === 'info') channel.info(message);
    else channel.info(`[${lvl}] ${message}`);
  };
  const at = (lvl: LogLevel) => (message: string) => {
    if (LOG_LEVELS.indexOf(lvl) <= LOG_LEVELS.indexOf(level())) write(lvl, message);
  };
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    bridgeLine(line) {
      // The bridge stamps each line with its time and level; the channel adds its own time.
      const match = BRIDGE_LINE.exec(line);
      if (match === null) write('info', `bridge: ${line}`);
      else write(match[1] as LogLevel, `bridge: ${match[2]!}`);
    },
  };
}
