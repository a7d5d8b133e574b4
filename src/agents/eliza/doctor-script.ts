/**
 * Weizenbaum's DOCTOR script for ELIZA (CACM 9(1), January 1966), as typed data.
 *
 * The content follows the widely reproduced English rendering of the script
 * (Charles Hayden's `script.txt`, as carried by Norbert Landsteiner's
 * `elizabot.js` data). The only editorial liberties are typographic: no space
 * before `?`, single spaces between sentences, and two spelling fixes
 * ("resemblance", "Let's"). The engine that interprets this lives in `engine.ts`.
 */

/** A reassembly that hands the input to another keyword's decompositions (the script's `goto key`, the 1966 `(=KEY)`). */
export interface Redirect {
  readonly goto: string;
}

/**
 * Either a reply template or a redirect. A template refers to the matched parts
 * of its decomposition as `(1)`, `(2)`, … (after pronoun reflection).
 */
export type Reassembly = string | Redirect;

export interface Decomposition {
  /**
   * Space-separated pattern. `*` matches any run of words (possibly none);
   * `@group` matches one word of a synonym group (or the group's own name);
   * anything else matches that word. Each `*` and `@group` is a numbered part,
   * counted from 1 left to right; plain words are not numbered.
   */
  readonly pattern: string;
  /**
   * The script's `$` marker: the reassembled reply is not given now but queued
   * as a memory, to be brought up later when no keyword matches.
   */
  readonly memorize?: boolean;
  /** Tried in turn on successive matches (cycled in the original). */
  readonly reassemblies: readonly [Reassembly, ...Reassembly[]];
}

export interface Keyword {
  readonly word: string;
  /** Higher ranks are tried first when an input contains several keywords. */
  readonly rank: number;
  /** Tried in order; the first whose pattern matches the input is used. */
  readonly decompositions: readonly Decomposition[];
}

export interface ElizaScript {
  /** The opening line, before the user has said anything. */
  readonly initial: string;
  /** The reply to a quit word. */
  readonly final: string;
  /** A clause consisting of exactly one of these ends the session. */
  readonly quits: readonly string[];
  /** Word substitutions applied to the input before matching (spelling variants, contractions). */
  readonly pre: Readonly<Record<string, string>>;
  /** Word substitutions applied to matched parts before reassembly: the pronoun reflection. */
  readonly post: Readonly<Record<string, string>>;
  /** Groups usable as `@group` in patterns; a group's own name also belongs to it. */
  readonly synonyms: Readonly<Record<string, readonly string[]>>;
  /** Keyword used when the input contains no keyword and memory is empty. */
  readonly fallbackKeyword: string;
  readonly keywords: readonly Keyword[];
}

const goto = (keyword: string): Redirect => ({ goto: keyword });

export const doctorScript: ElizaScript = {
  initial: 'How do you do. Please tell me your problem.',
  final: 'Goodbye. Thank you for talking to me.',
  quits: ['bye', 'goodbye', 'quit'],

  pre: {
    dont: "don't",
    cant: "can't",
    wont: "won't",
    recollect: 'remember',
    recall: 'remember',
    dreamt: 'dreamed',
    dreams: 'dream',
    maybe: 'perhaps',
    certainly: 'yes',
    machine: 'computer',
    machines: 'computer',
    computers: 'computer',
    were: 'was',
    "you're": 'you are',
    "i'm": 'i am',
    same: 'alike',
    identical: 'alike',
    equivalent: 'alike',
  },

  post: {
    am: 'are',
    your: 'my',
    me: 'you',
    myself: 'yourself',
    yourself: 'myself',
    i: 'you',
    you: 'I',
    my: 'your',
    "i'm": 'you are',
  },

  synonyms: {
    be: ['am', 'is', 'are', 'was'],
    belief: ['feel', 'think', 'believe', 'wish'],
    cannot: ["can't"],
    desire: ['want', 'need'],
    everyone: ['everybody', 'nobody', 'noone'],
    family: ['mother', 'mom', 'father', 'dad', 'sister', 'brother', 'wife', 'children', 'child'],
    happy: ['elated', 'glad', 'better'],
    sad: ['unhappy', 'depressed', 'sick'],
  },

  fallbackKeyword: 'xnone',

  keywords: [
    {
      word: 'xnone',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            "I'm not sure I understand you fully.",
            'Please go on.',
            'What does that suggest to you?',
            'Do you feel strongly about discussing such things?',
            'That is interesting. Please continue.',
            'Tell me more about that.',
            'Does talking about this bother you?',
          ],
        },
      ],
    },
    {
      word: 'sorry',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            "Please don't apologise.",
            'Apologies are not necessary.',
            "I've told you that apologies are not required.",
            'It did not bother me. Please continue.',
          ],
        },
      ],
    },
    { word: 'apologise', rank: 0, decompositions: [{ pattern: '*', reassemblies: [goto('sorry')] }] },
    {
      word: 'remember',
      rank: 5,
      decompositions: [
        {
          pattern: '* i remember *',
          reassemblies: [
            'Do you often think of (2)?',
            'Does thinking of (2) bring anything else to mind?',
            'What else do you recollect?',
            'Why do you remember (2) just now?',
            'What in the present situation reminds you of (2)?',
            'What is the connection between me and (2)?',
            'What else does (2) remind you of?',
          ],
        },
        {
          pattern: '* do you remember *',
          reassemblies: [
            'Did you think I would forget (2)?',
            'Why do you think I should recall (2) now?',
            'What about (2)?',
            goto('what'),
            'You mentioned (2)?',
          ],
        },
        {
          pattern: '* you remember *',
          reassemblies: ['How could I forget (2)?', 'What about (2) should I remember?', goto('you')],
        },
      ],
    },
    {
      word: 'forget',
      rank: 5,
      decompositions: [
        {
          pattern: '* i forget *',
          reassemblies: [
            'Can you think of why you might forget (2)?',
            "Why can't you remember (2)?",
            'How often do you think of (2)?',
            'Does it bother you to forget that?',
            'Could it be a mental block?',
            'Are you generally forgetful?',
            'Do you think you are suppressing (2)?',
          ],
        },
        {
          pattern: '* did you forget *',
          reassemblies: [
            'Why do you ask?',
            'Are you sure you told me?',
            'Would it bother you if I forgot (2)?',
            'Why should I recall (2) just now?',
            goto('what'),
            'Tell me more about (2).',
          ],
        },
      ],
    },
    {
      word: 'if',
      rank: 3,
      decompositions: [
        {
          pattern: '* if *',
          reassemblies: [
            "Do you think it's likely that (2)?",
            'Do you wish that (2)?',
            'What do you know about (2)?',
            'Really, if (2)?',
            'What would you do if (2)?',
            'But what are the chances that (2)?',
            'What does this speculation lead to?',
          ],
        },
      ],
    },
    {
      word: 'dreamed',
      rank: 4,
      decompositions: [
        {
          pattern: '* i dreamed *',
          reassemblies: [
            'Really, (2)?',
            'Have you ever fantasized (2) while you were awake?',
            'Have you ever dreamed (2) before?',
            goto('dream'),
          ],
        },
      ],
    },
    {
      word: 'dream',
      rank: 3,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'What does that dream suggest to you?',
            'Do you dream often?',
            'What persons appear in your dreams?',
            'Do you believe that dreams have something to do with your problem?',
          ],
        },
      ],
    },
    {
      word: 'perhaps',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            "You don't seem quite certain.",
            'Why the uncertain tone?',
            "Can't you be more positive?",
            "You aren't sure?",
            "Don't you know?",
            'How likely, would you estimate?',
          ],
        },
      ],
    },
    {
      word: 'name',
      rank: 15,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'I am not interested in names.',
            "I've told you before, I don't care about names -- please continue.",
          ],
        },
      ],
    },
    {
      word: 'deutsch',
      rank: 0,
      decompositions: [
        { pattern: '*', reassemblies: [goto('xforeign'), "I told you before, I don't understand German."] },
      ],
    },
    {
      word: 'francais',
      rank: 0,
      decompositions: [
        { pattern: '*', reassemblies: [goto('xforeign'), "I told you before, I don't understand French."] },
      ],
    },
    {
      word: 'italiano',
      rank: 0,
      decompositions: [
        { pattern: '*', reassemblies: [goto('xforeign'), "I told you before, I don't understand Italian."] },
      ],
    },
    {
      word: 'espanol',
      rank: 0,
      decompositions: [
        { pattern: '*', reassemblies: [goto('xforeign'), "I told you before, I don't understand Spanish."] },
      ],
    },
    { word: 'xforeign', rank: 0, decompositions: [{ pattern: '*', reassemblies: ['I speak only English.'] }] },
    {
      word: 'hello',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: ['How do you do. Please state your problem.', 'Hi. What seems to be your problem?'],
        },
      ],
    },
    {
      word: 'computer',
      rank: 50,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'Do computers worry you?',
            'Why do you mention computers?',
            'What do you think machines have to do with your problem?',
            "Don't you think computers can help people?",
            'What about machines worries you?',
            'What do you think about machines?',
            "You don't think I am a computer program, do you?",
          ],
        },
      ],
    },
    {
      word: 'am',
      rank: 0,
      decompositions: [
        {
          pattern: '* am i *',
          reassemblies: [
            'Do you believe you are (2)?',
            'Would you want to be (2)?',
            'Do you wish I would tell you you are (2)?',
            'What would it mean if you were (2)?',
            goto('what'),
          ],
        },
        { pattern: '* i am *', reassemblies: [goto('i')] },
        { pattern: '*', reassemblies: ["Why do you say 'am'?", "I don't understand that."] },
      ],
    },
    {
      word: 'are',
      rank: 0,
      decompositions: [
        {
          pattern: '* are you *',
          reassemblies: [
            'Why are you interested in whether I am (2) or not?',
            "Would you prefer if I weren't (2)?",
            'Perhaps I am (2) in your fantasies.',
            'Do you sometimes think I am (2)?',
            goto('what'),
            'Would it matter to you?',
            'What if I were (2)?',
          ],
        },
        { pattern: '* you are *', reassemblies: [goto('you')] },
        {
          pattern: '* are *',
          reassemblies: [
            'Did you think they might not be (2)?',
            'Would you like it if they were not (2)?',
            'What if they were not (2)?',
            'Are they always (2)?',
            'Possibly they are (2).',
            'Are you positive they are (2)?',
          ],
        },
      ],
    },
    {
      word: 'your',
      rank: 0,
      decompositions: [
        {
          pattern: '* your *',
          reassemblies: [
            'Why are you concerned over my (2)?',
            'What about your own (2)?',
            "Are you worried about someone else's (2)?",
            'Really, my (2)?',
            'What makes you think of my (2)?',
            'Do you want my (2)?',
          ],
        },
      ],
    },
    {
      word: 'was',
      rank: 2,
      decompositions: [
        {
          pattern: '* was i *',
          reassemblies: [
            'What if you were (2)?',
            'Do you think you were (2)?',
            'Were you (2)?',
            'What would it mean if you were (2)?',
            "What does '(2)' suggest to you?",
            goto('what'),
          ],
        },
        {
          pattern: '* i was *',
          reassemblies: [
            'Were you really?',
            'Why do you tell me you were (2) now?',
            'Perhaps I already know you were (2).',
          ],
        },
        {
          pattern: '* was you *',
          reassemblies: [
            'Would you like to believe I was (2)?',
            'What suggests that I was (2)?',
            'What do you think?',
            'Perhaps I was (2).',
            'What if I had been (2)?',
          ],
        },
      ],
    },
    {
      word: 'i',
      rank: 0,
      decompositions: [
        {
          pattern: '* i @desire *',
          reassemblies: [
            'What would it mean to you if you got (3)?',
            'Why do you want (3)?',
            'Suppose you got (3) soon.',
            'What if you never got (3)?',
            'What would getting (3) mean to you?',
            'What does wanting (3) have to do with this discussion?',
          ],
        },
        {
          pattern: '* i am * @sad *',
          reassemblies: [
            'I am sorry to hear that you are (3).',
            'Do you think coming here will help you not to be (3)?',
            "I'm sure it's not pleasant to be (3).",
            'Can you explain what made you (3)?',
          ],
        },
        {
          pattern: '* i am * @happy *',
          reassemblies: [
            'How have I helped you to be (3)?',
            'Has your treatment made you (3)?',
            'What makes you (3) just now?',
            'Can you explain why you are suddenly (3)?',
          ],
        },
        { pattern: '* i was *', reassemblies: [goto('was')] },
        {
          pattern: '* i @belief i *',
          reassemblies: ['Do you really think so?', 'But you are not sure you (3).', 'Do you really doubt you (3)?'],
        },
        { pattern: '* i * @belief * you *', reassemblies: [goto('you')] },
        {
          pattern: '* i am *',
          reassemblies: [
            'Is it because you are (2) that you came to me?',
            'How long have you been (2)?',
            'Do you believe it is normal to be (2)?',
            'Do you enjoy being (2)?',
            'Do you know anyone else who is (2)?',
          ],
        },
        {
          pattern: '* i @cannot *',
          reassemblies: [
            "How do you know that you can't (3)?",
            'Have you tried?',
            'Perhaps you could (3) now.',
            'Do you really want to be able to (3)?',
            'What if you could (3)?',
          ],
        },
        {
          pattern: "* i don't *",
          reassemblies: [
            "Don't you really (2)?",
            "Why don't you (2)?",
            'Do you wish to be able to (2)?',
            'Does that trouble you?',
          ],
        },
        {
          pattern: '* i feel *',
          reassemblies: [
            'Tell me more about such feelings.',
            'Do you often feel (2)?',
            'Do you enjoy feeling (2)?',
            'Of what does feeling (2) remind you?',
          ],
        },
        {
          pattern: '* i * you *',
          reassemblies: [
            'Perhaps in your fantasies we (2) each other.',
            'Do you wish to (2) me?',
            'You seem to need to (2) me.',
            'Do you (2) anyone else?',
          ],
        },
        {
          pattern: '*',
          reassemblies: [
            'You say (1)?',
            'Can you elaborate on that?',
            'Do you say (1) for some special reason?',
            "That's quite interesting.",
          ],
        },
      ],
    },
    {
      word: 'you',
      rank: 0,
      decompositions: [
        { pattern: '* you remind me of *', reassemblies: [goto('alike')] },
        {
          pattern: '* you are *',
          reassemblies: [
            'What makes you think I am (2)?',
            'Does it please you to believe I am (2)?',
            'Do you sometimes wish you were (2)?',
            'Perhaps you would like to be (2).',
          ],
        },
        {
          pattern: '* you * me *',
          reassemblies: [
            'Why do you think I (2) you?',
            "You like to think I (2) you -- don't you?",
            'What makes you think I (2) you?',
            'Really, I (2) you?',
            'Do you wish to believe I (2) you?',
            'Suppose I did (2) you -- what would that mean?',
            'Does someone else believe I (2) you?',
          ],
        },
        {
          pattern: '* you *',
          reassemblies: [
            'We were discussing you -- not me.',
            'Oh, I (2)?',
            "You're not really talking about me -- are you?",
            'What are your feelings now?',
          ],
        },
      ],
    },
    {
      word: 'yes',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: ['You seem to be quite positive.', 'You are sure.', 'I see.', 'I understand.'],
        },
      ],
    },
    {
      word: 'no',
      rank: 0,
      decompositions: [
        {
          pattern: '* no one *',
          reassemblies: [
            'Are you sure, no one (2)?',
            'Surely someone (2).',
            'Can you think of anyone at all?',
            'Are you thinking of a very special person?',
            'Who, may I ask?',
            "You have a particular person in mind, don't you?",
            'Who do you think you are talking about?',
          ],
        },
        {
          pattern: '*',
          reassemblies: [
            'Are you saying no just to be negative?',
            'You are being a bit negative.',
            'Why not?',
            "Why 'no'?",
          ],
        },
      ],
    },
    {
      word: 'my',
      rank: 2,
      decompositions: [
        {
          pattern: '* my *',
          memorize: true,
          reassemblies: [
            'Does that have anything to do with the fact that your (2)?',
            "Let's discuss further why your (2).",
            'Earlier you said your (2).',
            'But your (2).',
          ],
        },
        {
          pattern: '* my * @family *',
          reassemblies: [
            'Tell me more about your family.',
            'Who else in your family (4)?',
            'Your (3)?',
            'What else comes to your mind when you think of your (3)?',
          ],
        },
        {
          pattern: '* my *',
          reassemblies: [
            'Your (2)?',
            'Why do you say your (2)?',
            'Does that suggest anything else which belongs to you?',
            'Is it important to you that your (2)?',
          ],
        },
      ],
    },
    {
      word: 'can',
      rank: 0,
      decompositions: [
        {
          pattern: '* can you *',
          reassemblies: [
            "You believe I can (2) don't you?",
            goto('what'),
            'You want me to be able to (2).',
            'Perhaps you would like to be able to (2) yourself.',
          ],
        },
        {
          pattern: '* can i *',
          reassemblies: [
            'Whether or not you can (2) depends on you more than on me.',
            'Do you want to be able to (2)?',
            "Perhaps you don't want to (2).",
            goto('what'),
          ],
        },
      ],
    },
    {
      word: 'what',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'Why do you ask?',
            'Does that question interest you?',
            'What is it you really want to know?',
            'Are such questions much on your mind?',
            'What answer would please you most?',
            'What do you think?',
            'What comes to mind when you ask that?',
            'Have you asked such questions before?',
            'Have you asked anyone else?',
          ],
        },
      ],
    },
    // Questions opening with these words are treated as the open question "what".
    { word: 'who', rank: 0, decompositions: [{ pattern: 'who *', reassemblies: [goto('what')] }] },
    { word: 'when', rank: 0, decompositions: [{ pattern: 'when *', reassemblies: [goto('what')] }] },
    { word: 'where', rank: 0, decompositions: [{ pattern: 'where *', reassemblies: [goto('what')] }] },
    { word: 'how', rank: 0, decompositions: [{ pattern: 'how *', reassemblies: [goto('what')] }] },
    {
      word: 'because',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'Is that the real reason?',
            "Don't any other reasons come to mind?",
            'Does that reason seem to explain anything else?',
            'What other reasons might there be?',
          ],
        },
      ],
    },
    {
      word: 'why',
      rank: 0,
      decompositions: [
        {
          pattern: "* why don't you *",
          reassemblies: [
            "Do you believe I don't (2)?",
            'Perhaps I will (2) in good time.',
            'Should you (2) yourself?',
            'You want me to (2)?',
            goto('what'),
          ],
        },
        {
          pattern: "* why can't i *",
          reassemblies: [
            'Do you think you should be able to (2)?',
            'Do you want to be able to (2)?',
            'Do you believe this will help you to (2)?',
            "Have you any idea why you can't (2)?",
            goto('what'),
          ],
        },
        { pattern: '*', reassemblies: [goto('what')] },
      ],
    },
    {
      word: 'everyone',
      rank: 2,
      decompositions: [
        {
          pattern: '* @everyone *',
          reassemblies: [
            'Really, (2)?',
            'Surely not (2).',
            'Can you think of anyone in particular?',
            'Who, for example?',
            'Are you thinking of a very special person?',
            'Who, may I ask?',
            'Someone special perhaps?',
            "You have a particular person in mind, don't you?",
            "Who do you think you're talking about?",
          ],
        },
      ],
    },
    { word: 'everybody', rank: 2, decompositions: [{ pattern: '*', reassemblies: [goto('everyone')] }] },
    { word: 'nobody', rank: 2, decompositions: [{ pattern: '*', reassemblies: [goto('everyone')] }] },
    { word: 'noone', rank: 2, decompositions: [{ pattern: '*', reassemblies: [goto('everyone')] }] },
    {
      word: 'always',
      rank: 1,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'Can you think of a specific example?',
            'When?',
            'What incident are you thinking of?',
            'Really, always?',
          ],
        },
      ],
    },
    {
      word: 'alike',
      rank: 10,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'In what way?',
            'What resemblance do you see?',
            'What does that similarity suggest to you?',
            'What other connections do you see?',
            'What do you suppose that resemblance means?',
            'What is the connection, do you suppose?',
            'Could there really be some connection?',
            'How?',
          ],
        },
      ],
    },
    { word: 'like', rank: 10, decompositions: [{ pattern: '* @be * like *', reassemblies: [goto('alike')] }] },
    {
      word: 'different',
      rank: 0,
      decompositions: [
        {
          pattern: '*',
          reassemblies: [
            'How is it different?',
            'What differences do you see?',
            'What does that difference suggest to you?',
            'What other distinctions do you see?',
            'What do you suppose that disparity means?',
            'Could there be some connection, do you suppose?',
            'How?',
          ],
        },
      ],
    },
  ],
};
