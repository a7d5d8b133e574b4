import { consumerQuestions } from '../../src/tools/consumer-questions.js';

const answers = (value: Record<string, unknown>): string => JSON.stringify({ answers: value });

test('one field: the message is the question; titled choices are options, answered with their values', () => {
  const asked = consumerQuestions('Which color?', { color: { type: 'string', title: 'Color', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] } });
  expect(asked.arguments).toEqual({ questions: [{ header: 'Color', question: 'Which color?', options: [{ label: 'Red' }, { label: 'Green' }], allowFreeformInput: false }] });
  expect(asked.answer(answers({ Color: { selected: ['Green'], freeText: null, skipped: false } }))).toEqual({ content: { color: 'g' }, answered: true });
});

test('several fields: each asks its description, the message comes along; booleans, numbers, multi-selects and text', () => {
  const asked = consumerQuestions('Set up the project', {
    name: { type: 'string', title: 'Name', description: 'What is it called?' },
    tests: { type: 'boolean', title: 'Tests', description: 'Add tests?' },
    port: { type: 'integer', description: 'Which port?' },
    tools: { type: 'array', title: 'Tools', items: { enum: ['lint', 'format'] } },
  });
  const questions = (asked.arguments as { questions: Record<string, unknown>[] }).questions;
  expect(questions.map((q) => q.header)).toEqual(['Name', 'Tests', 'port', 'Tools']);
  expect(questions[0]).toEqual({ header: 'Name', question: 'What is it called?', message: 'Set up the project' });
  expect(questions[1]).toMatchObject({ options: [{ label: 'Yes' }, { label: 'No' }], allowFreeformInput: false });
  expect(questions[3]).toMatchObject({ options: [{ label: 'lint' }, { label: 'format' }], multiSelect: true });
  const answered = asked.answer(
    answers({
      Name: { selected: [], freeText: ' demo ', skipped: false },
      Tests: { selected: ['No'], freeText: null, skipped: false },
      port: { selected: [], freeText: '8080', skipped: false },
      Tools: { selected: ['lint'], freeText: 'prettier', skipped: false },
    }),
  );
  expect(answered).toEqual({ content: { name: 'demo', tests: false, port: 8080, tools: ['lint', 'prettier'] }, answered: true });
});

test('skipped questions are left out; all skipped is no answer; a result that is not the tool\'s answer cannot be read', () => {
  const asked = consumerQuestions('Q?', { a: { type: 'string' }, b: { type: 'string' } });
  expect(asked.answer(answers({ a: { selected: [], freeText: 'x', skipped: false }, b: { selected: [], freeText: null, skipped: true } }))).toEqual({ content: { a: 'x' }, answered: true });
  expect(asked.answer(answers({ a: { skipped: true }, b: { skipped: true } }))).toEqual({ content: {}, answered: false });
  expect(asked.answer('The user chose to skip the tool call')).toBeUndefined();
});

test('headers stay unique and within VS Code\'s limit', () => {
  const long = 'x'.repeat(80);
  const asked = consumerQuestions('Q?', { a: { title: long }, b: { title: long } });
  const headers = (asked.arguments as { questions: { header: string }[] }).questions.map((q) => q.header);
  expect(new Set(headers).size).toBe(2);
  for (const header of headers) expect(header.length).toBeLessThanOrEqual(50);
});

test("the shorter of a field's title and description is its header, the longer its question, whichever the agent put where", () => {
  // Codex titles a field with the question and describes it with the header; its message says nothing of it.
  const asked = consumerQuestions('Codex needs your input to continue.', {
    database: { type: 'string', title: 'Which database should I use?', description: 'Database', oneOf: [{ const: 'SQLite', title: 'SQLite' }, { const: 'Postgres', title: 'Postgres' }] },
  });
  expect(asked.arguments).toEqual({
    questions: [{ header: 'Database', question: 'Which database should I use?', message: 'Codex needs your input to continue.', options: [{ label: 'SQLite' }, { label: 'Postgres' }], allowFreeformInput: false }],
  });
  expect(asked.answer(answers({ Database: { selected: ['Postgres'], freeText: null, skipped: false } }))).toEqual({ content: { database: 'Postgres' }, answered: true });
});

test("Roo Code's ask_followup_question asks a form of one field, its options as suggestions; a clicked or typed answer is read", () => {
  const asked = consumerQuestions('Which flavour?', { choice: { type: 'string', oneOf: [{ const: 'v', title: 'Vanilla' }, { const: 'c', title: 'Chocolate' }] } });
  expect(asked.followUps[0]?.arguments).toEqual({ question: 'Which flavour?', follow_up: [{ text: 'Vanilla' }, { text: 'Chocolate' }] });
  // Roo gives the answer back wrapped in <user_message>.
  expect(asked.followUps[0]?.answer('<user_message>\nChocolate\n</user_message>')).toEqual({ content: { choice: 'c' }, answered: true });
  expect(asked.followUps[0]?.answer('<user_message>\nStrawberry\n</user_message>')).toEqual({ content: { choice: 'Strawberry' }, answered: true });
  const yes = consumerQuestions('Go on?', { ok: { type: 'boolean', title: 'Proceed' } });
  expect(yes.followUps[0]?.arguments).toEqual({ question: 'Go on?', follow_up: [{ text: 'Yes' }, { text: 'No' }] });
  expect(yes.followUps[0]?.answer('<user_message>\nNo\n</user_message>')).toEqual({ content: { ok: false }, answered: true });
  expect(yes.followUps[0]?.answer('<user_message>\nmaybe\n</user_message>')).toEqual({ content: {}, answered: false });
});

test('a form of several fields is one ask_followup_question per field, in order, the first with the agent’s message', () => {
  const form = consumerQuestions('Set up the project', { name: { type: 'string', title: 'Name', description: 'What is it called?' }, typed: { type: 'boolean', title: 'TypeScript?' } });
  expect(form.followUps.map((f) => f.arguments)).toEqual([
    { question: 'Set up the project\n\nWhat is it called?', follow_up: [] },
    { question: 'TypeScript?', follow_up: [{ text: 'Yes' }, { text: 'No' }] },
  ]);
  expect(form.followUps[0]!.answer('<user_message>\nsymposium\n</user_message>')).toEqual({ content: { name: 'symposium' }, answered: true });
  expect(form.followUps[1]!.answer('<user_message>\nYes\n</user_message>')).toEqual({ content: { typed: true }, answered: true });
});
