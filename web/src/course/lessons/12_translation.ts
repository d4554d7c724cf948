import type { BleuParts } from '../../../generated/attn_engine.mjs';
import { viewLink } from '../../app/course_links';
import { matrix } from './example';
import type { Lesson } from './types';

// Two systems' outputs for lesson 12's BLEU figure, with two references per sentence (ours).
const REFERENCES = [
  ["il n'aime pas les pommes .", "il n'aime pas du tout les pommes ."],
  ['le chat noir dort sur la table .', 'le chat noir est endormi sur la table .'],
  ['nous voulons du pain .', 'on veut du pain .'],
];
const SYSTEMS: { label: string; hypotheses: string[] }[] = [
  {
    label: 'a fluent system',
    hypotheses: ["il n'aime pas les pommes .", 'le chat noir dort sur la table .', 'nous voulons le pain .'],
  },
  { label: 'a terse system', hypotheses: ["il n'aime pas", 'le chat dort', 'nous voulons du pain .'] },
];

export const lesson12: Lesson = {
  number: 12,
  slug: 'translation',
  title: 'Translating real sentences',
  summary: 'Words and vocabularies, greedy and beam search, BLEU, and honest measurement.',
  blocks: [
    {
      html: `<p>The digit strings and dates of lesson 9 had a few dozen symbols and one right answer.
      Real sentences have tens of thousands of words, two languages with their own habits, and many
      right answers. This lesson is about what changes, and about measuring a translator honestly.</p>
      <p><strong>Tokens.</strong> A word-level model needs words that repeat. French glues
      articles and pronouns to the next word ("l'homme", "qu'il", "j'ai" — <em>elisions</em>) and
      to the verb before ("est-ce", "va-t-il" — hyphenated <em>clitics</em>); English has
      contractions ("doesn't", "I'm"). Split well, "l'homme" and "l'eau" share the token "l'",
      and "voulez-vous" shares "voulez" with "vous voulez". The engine's tokenizer
      (<code>mtTokenize</code>) does this for both languages, and the BLEU exercises below count
      its tokens; each side then gets its own vocabulary of its most frequent tokens. The
      translator at the end of this lesson trains on exactly these tokens, lowercased: it reads
      "He doesn't like apples." as "he", "does", "n't", "like", "apples", "." and writes French
      tokens such as "il", "n'", "aime", "pas", "les", "pommes", ".". Its alignment map labels
      rows and columns with those tokens; its translations are the tokens joined back into text
      by the detokeniser (<code>mtDetokenize</code>): no space after an elision or before a
      period, one before "?" and "!" as French writes them — "il n'aime pas les pommes.". Its
      scores use the tokens BLEU is usually reported on (sacreBLEU's "13a", lowercased here),
      which keep apostrophes and hyphens inside words, so they do not depend on how the model
      split its words.</p>
      <p><strong>&lt;unk&gt;.</strong> A vocabulary is finite: the rest of the words become one
      token, &lt;unk&gt;. A model cannot translate a word it only ever saw as &lt;unk&gt;, and it
      cannot write one either, so the share of &lt;unk&gt; tokens in the held-out data — the
      <em>unknown rate</em> — is a ceiling on quality that no training removes. Bigger
      vocabularies lower it and cost parameters (an embedding row and an output row per word);
      subword units (BPE, used by most modern systems) avoid it by spelling rare words in
      pieces. The translator below reports the unknown rate of its data, English and French,
      training and held-out pairs.</p>`,
    },
    { exercise: 'french_tokens' },
    {
      html: `<p><strong>Searching for a translation.</strong> The decoder gives a probability to
      every next word. <em>Greedy</em> decoding takes the best one each time, as in lesson 9;
      it can commit early to a word that leads nowhere. <em>Beam search</em> keeps the $k$ best
      partial translations at every step, extends each with every next word, and keeps the $k$
      best of those. It compares hypotheses by their log probability
      $\\log p(y \\mid x) = \\sum_t \\log p(y_t \\mid y_{\\lt t}, x)$ — and every word adds a
      negative term, so short translations win. The engine divides by the GNMT length penalty
      (Wu et al., 2016) before comparing finished hypotheses:</p>
      $$\\operatorname{score}(y) = \\frac{\\log p(y \\mid x)}{\\operatorname{lp}(y)},\\qquad \\operatorname{lp}(y) = \\left(\\frac{5 + |y|}{6}\\right)^{\\alpha},$$
      <p>with $|y|$ the number of decoding steps and $\\alpha$ between 0 (rank by log probability)
      and 1 (close to the mean log probability per word). For example, with $\\alpha = 1$ a
      four-step translation with $\\log p = -2.0$ scores $-2.0 / 1.5 = -1.33$, and a nine-step one
      with $\\log p = -3.0$ scores $-3.0 / 2.33 = -1.29$: the longer one now wins. The engine's
      beam search uses $\\alpha = 0.6$; the translator at the end of this lesson lists its
      hypotheses with their scores.</p>
      <p><strong>BLEU.</strong> There are many right translations, so a translator is scored
      against one or more human <em>references</em> by how many of its word $n$-grams
      ($n = 1 \\ldots 4$) they contain, each count clipped to the reference's; the precisions are
      combined by a geometric mean over the corpus and multiplied by a brevity penalty for
      output shorter than the references. Build it in three steps.</p>`,
    },
    { exercise: 'clipped_precision' },
    { exercise: 'brevity_penalty' },
    { exercise: 'corpus_bleu' },
    {
      figure: {
        caption: `BLEU's parts for two systems on the same three sentences (two references each),
          computed by the engine's <code>corpusBleu</code>: the $n$-gram precisions $p_1 \\ldots p_4$,
          the brevity penalty and the score / 100, one column per system. The terse system's words are all right — its
          precisions are high — and the brevity penalty takes most of its score away.`,
        async compute(call) {
          const parts: BleuParts[] = [];
          for (const system of SYSTEMS) {
            parts.push(await call('corpusBleu', system.hypotheses, REFERENCES, { lowercase: true }));
          }
          const rows = ['p₁', 'p₂', 'p₃', 'p₄', 'BP', 'BLEU / 100'];
          const values = rows.map((_, r) =>
            parts.map((p) => (r < 4 ? p.precisions[r] : r === 4 ? p.brevityPenalty : p.score / 100)),
          );
          return [
            {
              title: SYSTEMS.map((system, i) => `${system.label}: BLEU ${parts[i].score.toFixed(1)}`).join('; '),
              data: matrix(
                values,
                rows,
                SYSTEMS.map((system) => system.label),
                [0, 1],
              ),
            },
          ];
        },
      },
    },
    {
      html: `<p><strong>Why teacher-forced numbers flatter a model.</strong> Training feeds the
      decoder the <em>right</em> previous word at every step (teacher forcing), and the loss
      measures how well it predicts the next one from a perfect history. A translation has no
      such history: every word is fed back from the model's own output, and one wrong word
      changes what comes after. So a model can give the right next word a high probability at
      most steps and still get few whole sentences right. The honest measure decodes free
      running, on held-out sentences, and scores with BLEU against every reference. Held out
      must mean unseen: when one English sentence has several translations, all of them belong
      on the same side of the split (the engine's <code>splitBySource</code> does this), or the
      model is tested on sentences it learned. The translator below holds out 200 English
      sentences with all their translations, every translation a reference. After each epoch
      it shows the loss on validation pairs (a random tenth of the training pairs, picked pair by
      pair, so another translation of their sentence may be among the pairs it trains on) — a
      teacher-forced number — next to the words and whole sentences it gets right there free
      running, and the held-out BLEU, free running. It keeps the epoch with the lowest
      validation loss; for that model it reports the teacher-forced token accuracy (how often
      the right next word is its first choice, given the right history) beside free-running
      BLEU, chrF and exact match on the held-out sentences, each labelled. It
      trains on 2,000 of the built-in pairs for 8 epochs (a minute or two in the page), or on a
      pairs file of your own ("English&lt;TAB&gt;French" per line).</p>
      <p><strong>Reading alignments.</strong> The matrix under the translation box is the
      decoder's attention: one row per French word written, one column per English word read.
      Most rows look at the word they translate; "ne" and "pas" both look at "n't"; adjectives
      cross over ("the black cat" → "le chat noir"). A row spread over the whole source often
      marks a word the model is unsure of — and sometimes a word it translated from the target
      side alone (articles, punctuation).</p>`,
    },
    {
      translation: {
        id: 'en-fr',
        pairsUrl: 'data/pairs-en-fr.tsv',
        targetLanguage: 'fr',
        settings: {
          attention: 'bahdanau',
          cell: 'gru',
          embed: 32,
          units: 64,
          attentionDim: 32,
          trainSize: 2000,
          testSize: 200,
          epochs: 8,
          batch: 16,
          learningRate: 0.01,
          earlyStoppingPatience: 0,
          seed: 3,
        },
        quick: { epochs: 3 },
        // Measured on the built-in pairs with the settings above (scripts/course-translation-run.mjs
        // transformer): it learns in the RNN's 8 epochs (docs/course.md).
        transformer: { model: 'transformer', dModel: 64, heads: 4, layers: 2, learningRate: 0.001 },
        beam: 4,
        example: "He doesn't like apples.",
      },
    },
    {
      html: `<p><strong>What a Transformer adds.</strong> A Transformer encoder–decoder (lesson 11)
      trained on the same pairs has one cross-attention matrix like this per layer and head
      instead of a single one, and its masked self-attention shows what each French word looked
      at among the words already written. Pick it in the translator's model menu (2 layers of
      each, 4 heads, $d_{\\text{model}} = 64$): it trains on the same pairs for the same 8 epochs,
      and its map shows the last layer's cross-attention averaged over the heads. Each model you
      train adds its line to the chart of held-out BLEU by source length; on the built-in pairs
      both score lowest on the longest held-out sentences (11 to 15 words).</p>
      <p class="go-further"><strong>Go further.</strong> ${viewLink('seq2seq', 'The Seq2seq Alignment view')}
      trains encoder–decoders with Bahdanau, Luong or no attention, compares greedy decoding with
      beam search and steps through decoding one output at a time.
      ${viewLink('lab', 'The Attention Lab')} lets you change the scores of one attention row by
      hand and watch the softmax move.</p>`,
    },
  ],
};
