import { doctorScript } from '../../src/agents/eliza/doctor-script.js';
import {
  elizaRespond,
  initialElizaState,
  type ElizaState,
  type ReassemblyChoice,
} from '../../src/agents/eliza/engine.js';

const cycle: ReassemblyChoice = { kind: 'cycle' };

/** Plays a conversation from the initial state, returning every reply and the final state. */
function converse(inputs: readonly string[], choice: ReassemblyChoice = cycle): { replies: string[]; state: ElizaState } {
  let state = initialElizaState();
  const replies: string[] = [];
  for (const input of inputs) {
    const turn = elizaRespond(state, input, choice);
    replies.push(turn.reply);
    state = turn.state;
  }
  return { replies, state };
}

const firstReply = (input: string): string => converse([input]).replies[0];

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** A random source that plays back fixed numbers, recording how often it was asked. */
function scriptedRandom(values: readonly number[]): { choice: ReassemblyChoice; calls: () => number } {
  let calls = 0;
  return {
    choice: { kind: 'random', random: () => values[calls++ % values.length] },
    calls: () => calls,
  };
}

describe('pronoun reflection (post substitutions)', () => {
  test('"my" becomes "your" in the reflected part', () => {
    expect(firstReply('I am sad about my job')).toBe('Your job?');
  });

  test('"I" and "me" become "you" while "you" becomes "I", all at once', () => {
    expect(firstReply('You hate me')).toBe('Why do you think I hate you?');
  });

  test('pre substitutions expand contractions before matching', () => {
    expect(firstReply("I'm tired")).toBe('Is it because you are tired that you came to me?');
  });

  test('a captured "am" is reflected to "are"', () => {
    expect(firstReply('I think I am crazy')).toBe('Do you really think so?');
    expect(converse(['I think I am crazy', 'I think I am crazy']).replies[1]).toBe('But you are not sure you are crazy.');
  });
});

describe('keyword ranking', () => {
  test('"computer" (rank 50) wins over "my" (rank 2), which then stores no memory', () => {
    const { replies, state } = converse(['My computer is broken']);
    expect(replies[0]).toBe('Do computers worry you?');
    expect(state.memory).toEqual([]);
  });

  test('"remember" (rank 5) wins over "my" (rank 2)', () => {
    expect(firstReply('I remember my childhood')).toBe('Do you often think of your childhood?');
  });

  test('"my" (rank 2) wins over "i" (rank 0) even though "i" comes first', () => {
    expect(firstReply('I hate my boss')).toBe('Your boss?');
  });

  test('equal ranks are tried in the order they appear in the input', () => {
    expect(firstReply('I love you')).toBe('Perhaps in your fantasies we love each other.');
    expect(firstReply('You are annoying and I am tired')).toBe('What makes you think I am annoying and you are tired?');
  });
});

describe('cycling through reassemblies', () => {
  test('repeating an input walks the reassemblies in script order, then wraps around', () => {
    const { replies } = converse(Array(5).fill('I am unhappy'));
    expect(replies).toEqual([
      'I am sorry to hear that you are unhappy.',
      'Do you think coming here will help you not to be unhappy?',
      "I'm sure it's not pleasant to be unhappy.",
      'Can you explain what made you unhappy?',
      'I am sorry to hear that you are unhappy.',
    ]);
  });

  test('the cursor is per decomposition, so other inputs do not disturb it', () => {
    const { replies } = converse(['I am unhappy', 'My dog barks', 'I am unhappy']);
    expect(replies[2]).toBe('Do you think coming here will help you not to be unhappy?');
  });
});

describe('memory', () => {
  test('a "my ..." statement resurfaces, oldest first, when no keyword matches; then xnone takes over', () => {
    const { replies, state } = converse([
      'My job is boring',
      'My cat ignores me',
      'The weather is nice',
      'The weather is nice',
      'The weather is nice',
    ]);
    expect(replies).toEqual([
      'Your job is boring?',
      'Why do you say your cat ignores you?',
      'Does that have anything to do with the fact that your job is boring?',
      "Let's discuss further why your cat ignores you.",
      "I'm not sure I understand you fully.",
    ]);
    expect(state.memory).toEqual([]);
  });

  test('memories are kept in the state until used', () => {
    expect(converse(['My job is boring']).state.memory).toEqual([
      'Does that have anything to do with the fact that your job is boring?',
    ]);
  });
});

describe('xnone fallback', () => {
  test('input without keywords cycles through the xnone replies', () => {
    const { replies } = converse(['Hmm', 'The weather is nice', '']);
    expect(replies).toEqual(["I'm not sure I understand you fully.", 'Please go on.', 'What does that suggest to you?']);
  });

  test('a clause with keywords but no matching decomposition also falls back', () => {
    expect(firstReply('Can we talk')).toBe("I'm not sure I understand you fully.");
  });
});

describe('synonym groups', () => {
  test('@family matches "mother" and "father" alike, but not other nouns', () => {
    expect(firstReply('My mother hates me')).toBe('Tell me more about your family.');
    expect(firstReply('My father hates me')).toBe('Tell me more about your family.');
    expect(firstReply('My boss hates me')).toBe('Your boss hates you?');
  });

  test('the family member and the rest of the sentence are numbered parts', () => {
    const { replies } = converse(['My mother hates me', 'My father hates me', 'My sister hates me']);
    expect(replies.slice(1)).toEqual(['Who else in your family hates you?', 'Your sister?']);
  });

  test('@desire and @sad groups', () => {
    expect(firstReply('I need a holiday')).toBe('What would it mean to you if you got a holiday?');
    expect(firstReply('I am so depressed')).toBe('I am sorry to hear that you are depressed.');
  });
});

describe('goto redirects', () => {
  test('"why" hands over to "what", advancing both cursors', () => {
    const { replies, state } = converse(['Why is the sky blue?']);
    expect(replies[0]).toBe('Why do you ask?');
    expect(state.lastReassembly).toEqual({ 'why#2': 0, 'what#0': 0 });
  });

  test('"i" hands "i was" over to the "was" keyword', () => {
    expect(firstReply('I was angry')).toBe('Were you really?');
  });

  test('a goto among the reassemblies is reached by cycling', () => {
    const { replies } = converse(Array(4).fill('I dreamed about flying'));
    expect(replies).toEqual([
      'Really, about flying?',
      'Have you ever fantasized about flying while you were awake?',
      'Have you ever dreamed about flying before?',
      'What does that dream suggest to you?',
    ]);
  });

  test('every goto in the script names an existing keyword', () => {
    const keywords = new Set(doctorScript.keywords.map((keyword) => keyword.word));
    const targets = doctorScript.keywords.flatMap((keyword) =>
      keyword.decompositions.flatMap((decomposition) =>
        decomposition.reassemblies.flatMap((reassembly) => (typeof reassembly === 'string' ? [] : [reassembly.goto])),
      ),
    );
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((target) => !keywords.has(target))).toEqual([]);
  });
});

describe('clauses', () => {
  test('only the first clause containing a keyword is used, even if a later one ranks higher', () => {
    expect(firstReply('Well, you are cruel. I remember my childhood.')).toBe('What makes you think I am cruel?');
    expect(firstReply('Well, I remember my childhood. You are cruel.')).toBe('Do you often think of your childhood?');
  });

  test('"but" separates clauses like punctuation does', () => {
    expect(firstReply('You are nice but my dog is sick')).toBe('What makes you think I am nice?');
    expect(firstReply('The weather is nice but my dog is sick')).toBe('Your dog is sick?');
  });

  test('a quit word gets the farewell and leaves the state alone', () => {
    const state = converse(['My dog is sick']).state;
    const turn = elizaRespond(state, 'Bye.', cycle);
    expect(turn.reply).toBe('Goodbye. Thank you for talking to me.');
    expect(turn.state).toEqual(state);
  });
});

describe('purity', () => {
  test('the same state and input give the same reply, and the given state is untouched', () => {
    const state = deepFreeze(converse(['My mother hates me', 'I am unhappy']).state);
    const snapshot = JSON.parse(JSON.stringify(state)) as ElizaState;

    const first = elizaRespond(state, 'I am unhappy', cycle);
    const second = elizaRespond(state, 'I am unhappy', cycle);

    expect(first).toEqual(second);
    expect(first.reply).toBe('Do you think coming here will help you not to be unhappy?');
    expect(first.state).not.toBe(state);
    expect(state).toEqual(snapshot);
  });

  test('popping a memory from a frozen state works and leaves it untouched', () => {
    const state = deepFreeze(converse(['My job is boring']).state);
    const turn = elizaRespond(state, 'Hmm', cycle);
    expect(turn.reply).toBe('Does that have anything to do with the fact that your job is boring?');
    expect(turn.state.memory).toEqual([]);
    expect(state.memory).toHaveLength(1);
  });

  test('the state survives a JSON round trip', () => {
    const { state } = converse(['My job is boring', 'I am unhappy']);
    const restored = JSON.parse(JSON.stringify(state)) as ElizaState;
    expect(elizaRespond(restored, 'I am unhappy', cycle)).toEqual(elizaRespond(state, 'I am unhappy', cycle));
  });
});

describe('random mode', () => {
  const sadReplies = [
    'I am sorry to hear that you are unhappy.',
    'Do you think coming here will help you not to be unhappy?',
    "I'm sure it's not pleasant to be unhappy.",
    'Can you explain what made you unhappy?',
  ];

  test('the injected source picks the reassembly', () => {
    const source = scriptedRandom([0.99]);
    expect(converse(['I am unhappy'], source.choice).replies).toEqual([sadReplies[3]]);
    expect(source.calls()).toBe(1);
  });

  test('a repeat is avoided by drawing among the other reassemblies', () => {
    // 0 always picks the lowest candidate that is not the one just used.
    const { replies } = converse(Array(3).fill('I am unhappy'), scriptedRandom([0]).choice);
    expect(replies).toEqual([sadReplies[0], sadReplies[1], sadReplies[0]]);
  });

  test('draws map onto the remaining candidates in order', () => {
    // 0.5 of 4 → index 2; then 0.5 of the 3 others (0, 1, 3) → index 1; then 0.9 of (0, 2, 3) → index 3.
    const { replies } = converse(Array(3).fill('I am unhappy'), scriptedRandom([0.5, 0.5, 0.9]).choice);
    expect(replies).toEqual([sadReplies[2], sadReplies[1], sadReplies[3]]);
  });

  test('never gives the same reassembly twice in a row', () => {
    let seed = 7;
    const lcg = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const { replies } = converse(Array(40).fill('I am unhappy'), { kind: 'random', random: lcg });
    for (let turn = 1; turn < replies.length; turn++) expect(replies[turn]).not.toBe(replies[turn - 1]);
    expect(new Set(replies)).toEqual(new Set(sadReplies));
  });

  test('out-of-range random values are clamped', () => {
    expect(converse(['I am unhappy'], { kind: 'random', random: () => 1 }).replies).toEqual([sadReplies[3]]);
    expect(converse(['I am unhappy'], { kind: 'random', random: () => -1 }).replies).toEqual([sadReplies[0]]);
  });
});
