import { escapeMarkdown } from '../protocol/markdown.js';

/**
 * Something said to the person apart from the agent's answer: an agent's notice (ACP's `notice` update, which Claude
 * Code sends its warnings as once the client declares `session.notices`), or the bridge's own about the session.
 */
export interface Notice {
  readonly severity: string;
  readonly title: string;
  readonly description?: string | null;
}

/**
 * A notice as the person reads it in the answer: a line of its own, never glued to the agent's words. Plain text
 * (ACP says so), kept on one line so that a transcript can leave it out whole (`withoutNoticeLines`).
 */
export function noticeLine(notice: Notice): string {
  const mark = notice.severity === 'warning' || notice.severity === 'error' ? '⚠️' : 'ℹ️';
  const description = notice.description == null || notice.description.trim() === '' ? '' : `: ${oneLine(notice.description)}`;
  return `\n\n> ${mark} **${oneLine(notice.title)}**${description}\n\n`;
}

/** A reply's text without the notice lines shown in it: what the agent said, as a transcript tells it. */
export function withoutNoticeLines(text: string): string {
  const said = text.replace(NOTICE_LINE, '\n\n');
  return said === text ? text : said.replace(/^\n+|\n+$/g, '');
}

const NOTICE_LINE = /(?:^|\n\n)> (?:⚠️|ℹ️) \*\*[^\n]*(?:\n\n|$)/g;

function oneLine(text: string): string {
  return escapeMarkdown(text.replace(/\s+/g, ' ').trim());
}
