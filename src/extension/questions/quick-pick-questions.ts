/**
 * An agent's questions asked with VS Code's own quick picks and input boxes, for chats that cannot show them
 * (Copilot's Ask mode, Cline): the bridge asks through `symposium/askQuestions`, and the answers take the
 * shape of `vscode_askQuestions`'s. A question the person dismisses is skipped; a withdrawn one (the agent's
 * turn was stopped) closes.
 */
import * as vscode from 'vscode';
import type { AskQuestionsParams, AskQuestionsResult, Question, QuestionAnswer } from '../../protocol/messages.js';

const SKIPPED: QuestionAnswer = { selected: [], freeText: null, skipped: true };
const OTHER = 'Other…';

export async function askWithQuickPicks({ agent, questions }: AskQuestionsParams, token: vscode.CancellationToken): Promise<AskQuestionsResult> {
  const answers: Record<string, QuestionAnswer> = {};
  for (const [index, question] of questions.entries()) {
    const title = `${agent} asks${questions.length > 1 ? ` (${index + 1} of ${questions.length})` : ''}${question.message === undefined ? '' : `: ${question.message}`}`;
    answers[question.header] = token.isCancellationRequested ? SKIPPED : await ask(question, title, token);
  }
  return { answers };
}

async function ask(question: Question, title: string, token: vscode.CancellationToken): Promise<QuestionAnswer> {
  const options = question.options ?? [];
  if (options.length === 0) return typed(question.question, title, token);
  const freeform = question.allowFreeformInput !== false;
  if (question.multiSelect === true) {
    const picked = await vscode.window.showQuickPick(options.map((o) => ({ label: o.label })), { title, placeHolder: question.question, canPickMany: true, ignoreFocusOut: true }, token);
    return picked === undefined ? SKIPPED : { selected: picked.map((p) => p.label), freeText: null, skipped: false };
  }
  const items = [...options.map((o) => o.label), ...(freeform ? [OTHER] : [])].map((label) => ({ label }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: question.question, ignoreFocusOut: true }, token);
  if (picked === undefined) return SKIPPED;
  return picked.label === OTHER && freeform ? typed(question.question, title, token) : { selected: [picked.label], freeText: null, skipped: false };
}

async function typed(prompt: string, title: string, token: vscode.CancellationToken): Promise<QuestionAnswer> {
  const text = await vscode.window.showInputBox({ title, prompt, ignoreFocusOut: true }, token);
  return text === undefined || text.trim() === '' ? SKIPPED : { selected: [], freeText: text, skipped: false };
}
