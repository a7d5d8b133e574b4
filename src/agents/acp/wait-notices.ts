import { of, type Observable, type OperatorFunction } from 'rxjs';
import { announceSlowStart } from '../../operators/announce-slow-start.js';
import type { AgentCommand, ResponsePart } from '../../protocol/messages.js';
import { startingNotice } from '../../protocol/starting-notice.js';
import type { AgentProcess } from './process/agent-process.js';

/** How long the words of a stderr line may be in the chat. */
const MAX_WORDS = 200;
/** Values shorter than this are not hidden from a stderr line: too common to be anyone's secret. */
const SECRET_MIN = 8;

/**
 * What a turn of an ACP agent says while it waits on the agent (`announceSlowStart`): that the agent is starting,
 * after `startNoticeMs`, and that it has not answered yet, after `silenceNoticeMs` without a part. Undefined when
 * neither is on.
 */
export function waitNotices(
  command: AgentCommand,
  times: { readonly startNoticeMs?: number; readonly silenceNoticeMs?: number },
  ready: Observable<unknown>,
  process: () => AgentProcess | undefined,
): OperatorFunction<ResponsePart, ResponsePart> | undefined {
  const { startNoticeMs, silenceNoticeMs } = times;
  if (startNoticeMs === undefined && silenceNoticeMs === undefined) return undefined;
  const notice: ResponsePart = { type: 'text', value: startingNotice(command.name, command.command) };
  const silence = silenceNoticeMs === undefined ? undefined : { dueMs: silenceNoticeMs, notice: (): ResponsePart => ({ type: 'text', value: silenceNotice(command, silenceNoticeMs, process()) }) };
  // Without a start notice, the agent counts as ready from the start: a start is never announced.
  return announceSlowStart<ResponsePart>(notice, startNoticeMs === undefined ? of(undefined) : ready, startNoticeMs ?? 0, undefined, silence);
}

/**
 * The line of a turn the agent has not answered for `silentMs`: what the bridge knows of why. Its process alive or
 * not, whether its environment has anything named like an API key, and its last words on stderr, with every value
 * of its own environment hidden (never a secret's value in the chat).
 */
export function silenceNotice(command: AgentCommand, silentMs: number, process: AgentProcess | undefined, inherited: NodeJS.ProcessEnv = globalThis.process.env): string {
  const known = [
    process === undefined ? 'it has no process yet' : process.alive ? 'its process is running' : 'its process has ended',
    ...(hasKeyLikeVariable(command, inherited) ? [] : ['no API key is set for it (no variable of its environment is named like one)']),
  ];
  const last = [...(process?.lastStderrLines ?? [])].reverse().find((line) => line.trim() !== '');
  const words = last === undefined ? 'it has written nothing on stderr' : `its last words on stderr: "${clip(hidden(last.trim(), command))}"`;
  return `\n\n*${command.name} has not answered yet (${Math.round(silentMs / 1000)} s without a word): ${[...known, words].join('; ')}. Stop ends the turn.*\n\n`;
}

const KEY_LIKE = /(API_?KEY|_TOKEN$|^ANTHROPIC_AUTH_TOKEN$)/i;

function hasKeyLikeVariable(command: AgentCommand, inherited: NodeJS.ProcessEnv): boolean {
  const names = [...command.env.filter((v) => v.value !== '').map((v) => v.name), ...Object.keys(inherited).filter((name) => (inherited[name] ?? '') !== '')];
  return names.some((name) => KEY_LIKE.test(name));
}

/** `line` with the values of the agent's own environment (its keys among them) replaced by "…". */
function hidden(line: string, command: AgentCommand): string {
  return command.env.reduce((text, { value }) => (value.length < SECRET_MIN ? text : text.split(value).join('…')), line);
}

function clip(text: string): string {
  return text.length > MAX_WORDS ? `${text.slice(0, MAX_WORDS - 1)}…` : text;
}
