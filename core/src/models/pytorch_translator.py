"""A translator exported from Attention Playground (the RNN encoder-decoder or the Transformer),
as a PyTorch module.

Written by `attn export --format pytorch` next to model.safetensors (the weights), config.json
(the architecture and the decoding rules) and vocab.json (the source and target vocabularies).
It needs only Python 3 and PyTorch (Debian: python3-torch); the weights are read without the
safetensors package.

    python3 model.py "he doesn't like apples."           # the greedy translation
    python3 model.py --beam 4 "he doesn't like apples."  # beam search, GNMT length penalty (--alpha)
    python3 model.py --json "a sentence" ["another" ...] # one JSON object per sentence: tokens,
                                                         # ids, log p, the alignment
    python3 model.py --jsonl < sentences.jsonl           # one JSON string per line in, one JSON
                                                         # object per line out

    import model
    m = model.load(".")                                  # the folder holding the four files
    r = m.translate("he doesn't like apples.", beam=1)
    r["text"], r["tokens"], r["ids"], r["log_prob"], r["alignment"]

translate() splits the sentence as the engine does (vocab.json's token level: "character" takes
every code point, spaces included; "word" runs the side's tokenizer: "mt", mt_tokenize() below —
the engine's core/src/text/mt_tokenizer.cpp with the side's language rules, French elisions and
clitics or English contractions, and its lowercasing — or, for models saved before the engine
recorded it, "project", tokenize() with the engine's old settings for sentence pairs: lowercased,
punctuation split off as tokens of its own, apostrophes kept inside words, no HTML removal), maps
tokens outside the vocabulary to <unk>, writes the output tokens back as text the same way
(mt_detokenize() in the target's language; "project": joined by spaces), and decodes as the engine's
searches do (core/include/attn/models/translator.hpp): greedily or with beam search, never emitting
<pad> or <bos>, at most config.json's max_len_per_source_token * source tokens + max_len_extra
steps, beams ranked by log p / ((5 + length) / 6)^alpha. m.logits(sources, targets) (or the
module itself, m.model(source, target_in)) gives the teacher-forced logits [B, T, Vt]; for the
Transformer, m.model.to_nn_transformer() gives the same stacks as PyTorch's own
torch.nn.Transformer. Dropout and label smoothing are training only: not exported.
"""

import argparse
import json
import math
import os
import struct
import sys
import unicodedata

import torch
import torch.nn.functional as F
from torch import nn

# ---------------------------------------------------------------------------------------------
# Tokenizer (the engine's core/src/text/tokenizer.cpp, rule by rule)

# === shared: tokenizer ===

# ---------------------------------------------------------------------------------------------
# The translation tokenizer (the engine's core/src/text/nfc.cpp and mt_tokenizer.cpp, rule by rule)

MT_TOKEN_SCHEME_VERSION = 1  # the engine's kMtTokenSchemeVersion (text/seq2seq_vocabulary.hpp)

# NFC as the engine computes it: its tables cover these blocks (scripts/gen_nfc_table.py); every
# other code point passes through unchanged (unicodedata.normalize would compose Hangul, say).
_NFC_RANGES = ((0x0000, 0x052F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x1E00, 0x1FFF), (0x20D0, 0x20FF))
_nfc_tables = None


def _nfc_data():
    """-> (full canonical decompositions, combining classes, primary composites) of the covered
    code points, built once from unicodedata as scripts/gen_nfc_table.py builds the engine's."""
    global _nfc_tables
    if _nfc_tables is not None:
        return _nfc_tables

    def canonical(cp):
        d = unicodedata.decomposition(chr(cp))
        return None if not d or d.startswith("<") else [int(x, 16) for x in d.split()]

    def full(cp):
        d = canonical(cp)
        return [cp] if d is None else [x for c in d for x in full(c)]

    decompositions, classes, compositions = {}, {}, {}
    for lo, hi in _NFC_RANGES:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            if unicodedata.category(ch) == "Cn":
                continue
            d = canonical(cp)
            if d is not None:
                decompositions[cp] = full(cp)
                if len(d) == 2 and unicodedata.normalize("NFC", ch) == ch:
                    compositions[(d[0], d[1])] = cp
            if unicodedata.combining(ch):
                classes[cp] = unicodedata.combining(ch)
    _nfc_tables = decompositions, classes, compositions
    return _nfc_tables


def nfc(text):
    """Canonical composition (NFC) over the engine's tables."""
    if text.isascii():
        return text
    decompositions, classes, compositions = _nfc_data()
    d = [x for ch in text for x in decompositions.get(ord(ch), (ord(ch),))]
    # Canonical ordering: each run of non-starters sorted by combining class, stably.
    i = 0
    while i < len(d):
        if classes.get(d[i], 0) == 0:
            i += 1
            continue
        j = i
        while j < len(d) and classes.get(d[j], 0) != 0:
            j += 1
        d[i:j] = sorted(d[i:j], key=lambda c: classes[c])
        i = j
    # Composition with the last starter when nothing between them blocks it.
    out, starter, last_class = [], None, 0
    for c in d:
        ccc = classes.get(c, 0)
        if starter is not None:
            blocked = len(out) - 1 > starter and (last_class == 0 or last_class >= ccc)
            composite = None if blocked else compositions.get((out[starter], c))
            if composite is not None:
                out[starter] = composite
                continue
        if ccc == 0:
            starter = len(out)
        last_class = ccc
        out.append(c)
    return "".join(map(chr, out))


_MT_SPACES = frozenset(
    [*range(0x09, 0x0E), *range(0x1C, 0x21), 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
     0x202F, 0x205F, 0x3000]
)
_MT_LATIN1_PUNCTUATION = frozenset((0xA1, 0xA7, 0xAB, 0xB0, 0xB6, 0xB7, 0xBB, 0xBF))  # ¡ § « ° ¶ · » ¿
_MT_ELISIONS = ("jusqu'", "lorsqu'", "puisqu'", "quoiqu'", "qu'", "l'", "d'", "j'", "m'", "n'", "s'", "t'", "c'",
                "\u00e7'")
_MT_CLITICS = frozenset(("je", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles", "ce", "moi", "toi", "lui",
                         "leur", "le", "la", "les", "en", "y", "ci", "l\u00e0"))
_MT_CONTRACTIONS = ("n't", "'s", "'m", "'re", "'ve", "'ll", "'d")


def _mt_punctuation(c):
    if c < 0x80:
        return c != 0x27 and 0x20 < c < 0x7F and not chr(c).isalnum()
    return (c in _MT_LATIN1_PUNCTUATION or 0x2010 <= c <= 0x2027 or 0x2030 <= c <= 0x205E or 0x20A0 <= c <= 0x20CF
            or 0x3001 <= c <= 0x3003)


def _mt_word(c):
    """A code point that is part of words: not space, not punctuation, not the apostrophe."""
    return c != 0x27 and c not in _MT_SPACES and not _mt_punctuation(c)


def _mt_lower(s):
    return "".join(chr(lowercase_code_point(ord(ch))) for ch in s)


def _mt_split_french(word, out):
    rest, found = word, True
    while found:
        found = False
        low = _mt_lower(rest)
        for e in _MT_ELISIONS:
            if len(rest) > len(e) and low.startswith(e) and _mt_word(ord(rest[len(e)])):
                out.append(rest[: len(e)])
                rest, found = rest[len(e):], True
                break
    suffixes = []  # clitics from the end: "donne-le-moi" -> "-moi", then "-le"; "a-t-il" -> "-t-il"
    while True:
        dash = rest.rfind("-")
        if dash <= 0 or _mt_lower(rest[dash + 1:]) not in _MT_CLITICS:
            break
        cut = dash
        if cut >= 3 and rest[cut - 2] == "-" and rest[cut - 1] in "tT":
            cut -= 2
        if cut == 0 or not _mt_word(ord(rest[cut - 1])):
            break
        suffixes.append(rest[cut:])
        rest = rest[:cut]
    out.append(rest)
    out.extend(reversed(suffixes))


def _mt_split_english(word, out):
    rest, suffixes, found = word, [], True
    while found:
        found = False
        low = _mt_lower(rest)
        for c in _MT_CONTRACTIONS:
            if len(rest) > len(c) and low.endswith(c):
                suffixes.append(rest[len(rest) - len(c):])
                rest, found = rest[: len(rest) - len(c)], True
                break
    out.append(rest)
    out.extend(reversed(suffixes))


def mt_tokenize(text, language="generic", lowercase=False):
    """Sentence -> word tokens as the engine's mt_tokenize splits it (language: generic, english, french)."""
    text.encode("utf-8")  # the engine rejects text that is not valid UTF-8; so does this
    cps = [0x27 if c in (0x2019, 0x2BC) else c for c in map(ord, nfc(text))]
    pieces, word = [], []  # pieces: (text, is_word)

    def flush():
        if word:
            pieces.append(("".join(map(chr, word)), True))
            word.clear()

    def emit(token):
        flush()
        pieces.append((token, False))

    i, n = 0, len(cps)
    while i < n:
        ch = cps[i]
        nxt = cps[i + 1] if i + 1 < n else 0
        prev_word = bool(word) and _mt_word(word[-1])
        if ch in _MT_SPACES:
            flush()
        elif _mt_word(ch):
            word.append(ch)
        elif ch == 0x27:  # '
            if prev_word and nxt != 0 and _mt_word(nxt):
                word.append(ch)
            else:
                emit("'")
        elif ch == 0x2E and prev_word and nxt != 0 and _mt_word(nxt):  # "3.5", "p.m", "U.S"
            word.append(ch)
        elif ch in (0x2C, 0x3A) and word and 0x30 <= word[-1] <= 0x39 and 0x30 <= nxt <= 0x39:  # "3,5", "10:30"
            word.append(ch)
        elif ch == 0x2D and prev_word and nxt != 0 and _mt_word(nxt):  # "peut-être"
            word.append(ch)
        elif ch == 0x2E:  # a run of dots is one token
            j = i
            while j < n and cps[j] == 0x2E:
                j += 1
            emit("." * (j - i))
            i = j - 1
        else:
            emit(chr(ch))
        i += 1
    flush()
    tokens = []
    for piece, is_word in pieces:
        split = []
        if is_word and language == "french":
            _mt_split_french(piece, split)
        elif is_word and language == "english":
            _mt_split_english(piece, split)
        else:
            split.append(piece)
        tokens.extend(_mt_lower(s) if lowercase else s for s in split)
    return tokens


def _ascii_lower(s):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


_MT_GLUE_BEFORE = frozenset((",", ".", "...", "\u2026", ")", "]", "}", "\u201d", "\u203a"))
_MT_GLUE_AFTER = frozenset(("(", "[", "{", "\u00bf", "\u00a1", "\u201c", "\u2018", "\u201e", "\u2039", "$"))


def mt_detokenize(tokens, language="generic", french_space=" "):
    """Tokens -> text as the engine's mt_detokenize joins them."""
    french = language == "french"
    out, glue_next, french_space_next = "", True, False
    double_open = single_open = False  # an opening " or ' waits for its closing one
    previous = ""
    for t in tokens:
        if not t:
            continue
        join, glue_after, french_space_after = "space", False, False
        if t == "'" and not single_open and not french and previous[-1:] in ("s", "S"):
            join = "none"  # "boys" "'" -> "boys'" (a plural possessive, not an opening quote)
        elif t in ('"', "'"):
            is_open = double_open if t == '"' else single_open
            join, glue_after = ("none" if is_open else "space"), not is_open
            if t == '"':
                double_open = not double_open
            else:
                single_open = not single_open
        elif t in _MT_GLUE_BEFORE or _ascii_lower(t) in _MT_CONTRACTIONS or (len(t) > 1 and t[0] == "-"):
            join = "none"  # , . ... ) ] } 's n't, -ce -t-il
        elif t in ("?", "!", ":", ";", "%"):
            join = "french" if french and previous not in ("?", "!") else "none"
        elif t == "\u00bb":  # »
            join = "french" if french else "none"
        elif t == "/":
            join, glue_after = "none", True
        if t in _MT_GLUE_AFTER or (not french and t in ("\u20ac", "\u00a3")) or (len(t) > 1 and t[-1] == "'"):
            glue_after = True  # ( [ { ¿ ¡ “ ‘ „ ‹ $, l' qu'
        elif t == "\u00ab":  # «
            glue_after, french_space_after = not french, french
        if out and not glue_next:
            if french_space_next or join == "french":
                out += french_space
            elif join == "space":
                out += " "
        out += t
        glue_next, french_space_next, previous = glue_after, french_space_after, t
    return out


PAD, BOS, EOS, UNK = 0, 1, 2, 3


class Vocabulary:
    """One side of vocab.json: token level, tokenizer, the tokens by id (ids 0-3 reserved)."""

    def __init__(self, settings, side):
        self.level = settings[side + "_level"]
        if self.level not in ("character", "word"):
            raise ValueError(f"vocab.json: {side}_level must be 'character' or 'word', got {self.level!r}")
        # Word level: "mt" (the side's language rules) or "project" (models saved before the
        # engine recorded the tokenizer, and vocab.json files of format version 1).
        self.scheme = settings.get(side + "_tokenizer", "project") if self.level == "word" else None
        if self.scheme == "mt":
            version = int(settings[side + "_tokenizer_version"])
            if version != MT_TOKEN_SCHEME_VERSION:
                raise ValueError(f"vocab.json: the {side} tokens follow version {version} of the mt tokenizer's "
                                 f"rules; this model.py splits text by version {MT_TOKEN_SCHEME_VERSION}")
            self.language, self.lowercase = settings[side + "_language"], bool(settings[side + "_lowercase"])
            if self.language not in ("generic", "english", "french"):
                raise ValueError(f"vocab.json: unknown {side}_language {self.language!r}")
        elif self.scheme not in (None, "project"):
            raise ValueError(f"vocab.json: unknown {side}_tokenizer {self.scheme!r}")
        self.words = [settings["word_" + k] for k in ("lowercase", "strip_html", "keep_punctuation")]
        self.tokens = list(settings["reserved"]) + list(settings[side + "_tokens"])
        first = int(settings["first_token_id"])
        self.ids = {t: first + k for k, t in enumerate(settings[side + "_tokens"])}

    def split(self, text):
        """text -> its tokens at this vocabulary's level."""
        text.encode("utf-8")  # the engine rejects text that is not valid UTF-8; so does this
        if self.level == "character":
            return list(text)
        if self.scheme == "mt":
            return mt_tokenize(text, self.language, self.lowercase)
        return tokenize(text, *self.words)

    def join(self, tokens):
        """tokens -> text: characters concatenated; words detokenised (mt) or joined by spaces."""
        if self.level == "character":
            return "".join(tokens)
        if self.scheme == "mt":
            return mt_detokenize(tokens, self.language)
        return " ".join(tokens)

    def encode(self, text):
        """text -> (ids [T], tokens [T]); unknown tokens get <unk>."""
        tokens = self.split(text)
        return [self.ids.get(t, UNK) for t in tokens], tokens

    def decode(self, ids):
        """ids -> text: stops at <eos>, skips <pad> and <bos>, then join()."""
        out = []
        for i in ids:
            if i == EOS:
                break
            if i not in (PAD, BOS):
                out.append(self.tokens[i])
        return self.join(out)


# ---------------------------------------------------------------------------------------------
# Weights

# === shared: safetensors ===

# ---------------------------------------------------------------------------------------------
# Layers shared with the sentiment export (attention, the Transformer block, positions)

# === shared: layers ===


# ---------------------------------------------------------------------------------------------
# The RNN encoder-decoder (core/include/attn/models/seq2seq.hpp)
#
# Both translators decode through start(source) -> state, step(state, previous) -> (logits,
# attention) and reorder(state, parents), the engine's Translator interface; a state is a dict of
# tensors whose first axis is the row (hypothesis).


def reorder_rows(state, parents):
    """Row i of every tensor in the state becomes row parents[i] (beam search)."""
    for key, value in state.items():
        state[key] = value[parents]


class BahdanauAttention(nn.Module):
    """Additive, scored with the PREVIOUS decoder state: e_j = v . tanh(W1 s_{t-1} + W2 h_j)."""

    def __init__(self, state_dim, annotation_dim, attention_dim):
        super().__init__()
        self.query = nn.Linear(state_dim, attention_dim, bias=False)
        self.key = nn.Linear(annotation_dim, attention_dim, bias=False)
        self.v = nn.Linear(attention_dim, 1, bias=False)

    def forward(self, s_prev, annotations, keys, mask):
        """s_prev [R, Ds], annotations [R, Tx, Dh], keys = key(annotations) [R, Tx, A], mask [R, Tx]
        -> context [R, Dh], weights [R, Tx]."""
        scores = self.v(torch.tanh(self.query(s_prev)[:, None, :] + keys)).squeeze(-1)
        weights = masked_softmax(scores, mask)
        return (weights[:, :, None] * annotations).sum(dim=1), weights


class LuongAttention(nn.Module):
    """Global attention scored with the CURRENT state s_t (dot, scaled_dot, general, concat or
    location), then h~_t = tanh(W_c [c_t; s_t])."""

    def __init__(self, score, state_dim, annotation_dim, max_source_len):
        super().__init__()
        self.kind, self.annotation_dim, self.max_source_len = score, annotation_dim, max_source_len
        if score == "general":  # e_j = (W_a s) . h_j
            self.score = nn.Linear(state_dim, annotation_dim, bias=False)
        elif score == "concat":  # e_j = v . tanh(W_a [s; h_j])
            self.score = nn.Linear(state_dim + annotation_dim, state_dim, bias=False)
            self.v = nn.Linear(state_dim, 1, bias=False)
        elif score == "location":  # e = (W_a s)[:Tx]
            self.score = nn.Linear(state_dim, max_source_len, bias=False)
        elif score not in ("dot", "scaled_dot"):
            raise ValueError(f"unknown Luong score {score!r}")
        self.combine = nn.Linear(annotation_dim + state_dim, state_dim, bias=False)

    def forward(self, s, annotations, mask):
        """s [R, Ds], annotations [R, Tx, Dh], mask [R, Tx] -> context [R, Dh], h~ [R, Ds], weights [R, Tx]."""
        tx = annotations.shape[1]
        if self.kind == "concat":
            joined = torch.cat([s[:, None, :].expand(-1, tx, -1), annotations], dim=-1)
            scores = self.v(torch.tanh(self.score(joined))).squeeze(-1)
        elif self.kind == "location":
            if tx > self.max_source_len:
                raise ValueError(
                    f"this model's location attention scores at most {self.max_source_len} source tokens; "
                    f"the source has {tx}"
                )
            scores = self.score(s)[:, :tx]
        else:
            key = self.score(s) if self.kind == "general" else s
            if self.kind == "scaled_dot":
                key = key * (1.0 / math.sqrt(self.annotation_dim))
            scores = (annotations @ key[:, :, None]).squeeze(-1)
        weights = masked_softmax(scores, mask)
        context = (weights[:, :, None] * annotations).sum(dim=1)
        return context, torch.tanh(self.combine(torch.cat([context, s], dim=-1))), weights


class RNNTranslator(nn.Module):
    """Embedding -> BiLSTM | BiGRU encoder -> an LSTM | GRU decoder of 2U units with no attention,
    Bahdanau's or Luong's; logits = W_out [s_t; c_t] (bahdanau), W_out h~_t (luong), W_out s_t (none)."""

    def __init__(self, config):
        super().__init__()
        c = self.config = dict(config)
        e, u = int(c["embed"]), int(c["units"])
        self.lstm = c["cell"] == "lstm"
        if c["cell"] not in ("lstm", "gru"):
            raise ValueError(f"unknown cell {c['cell']!r}")
        self.attention_kind = c["attention"]
        self.input_feeding = bool(c["input_feeding"]) and self.attention_kind == "luong"
        bahdanau = self.attention_kind == "bahdanau"
        self.source_embedding = nn.Embedding(int(c["source_vocab"]), e)
        self.encoder = (nn.LSTM if self.lstm else nn.GRU)(e, u, batch_first=True, bidirectional=True)
        # s_0 = tanh(W_init <-h_1) (bahdanau) or tanh(W_init [->h_Tx; <-h_1])
        self.init = nn.Linear(u if bahdanau else 2 * u, 2 * u)
        self.target_embedding = nn.Embedding(int(c["target_vocab"]), e)
        cell_input = e + (2 * u if bahdanau or self.input_feeding else 0)
        self.decoder = (nn.LSTMCell if self.lstm else nn.GRUCell)(cell_input, 2 * u)
        if bahdanau:
            self.attention = BahdanauAttention(2 * u, 2 * u, int(c["attention_dim"]))
        elif self.attention_kind == "luong":
            self.attention = LuongAttention(c["score"], 2 * u, 2 * u, int(c["max_source_len"]))
        elif self.attention_kind != "none":
            raise ValueError(f"unknown attention {self.attention_kind!r}")
        self.output = nn.Linear(4 * u if bahdanau else 2 * u, int(c["target_vocab"]))

    def start(self, source):
        """source [R, Tx] (ids, padded with <pad> after each row's tokens) -> the decoding state."""
        mask = source != PAD
        lengths = mask.sum(dim=1)
        if bool((lengths == 0).any()):
            raise ValueError("a source has no tokens")
        x = self.source_embedding(source)
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, final = self.encoder(packed)
        annotations, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=source.shape[1])
        final_h = final[0] if self.lstm else final  # [2, R, U]: ->h after the last token, <-h after the first
        init_in = final_h[1] if self.attention_kind == "bahdanau" else torch.cat([final_h[0], final_h[1]], dim=-1)
        s = torch.tanh(self.init(init_in))
        state = {"annotations": annotations, "mask": mask, "s": s}
        if self.lstm:
            state["c"] = torch.zeros_like(s)
        if self.attention_kind == "bahdanau":
            state["keys"] = self.attention.key(annotations)
        if self.input_feeding:
            state["feed"] = torch.zeros_like(s)
        return state

    def _cell(self, state, x):
        if self.lstm:
            state["s"], state["c"] = self.decoder(x, (state["s"], state["c"]))
        else:
            state["s"] = self.decoder(x, state["s"])

    def step(self, state, previous):
        """previous [R] (the tokens read at this step; <bos> first) -> logits [R, Vt], attention
        weights [R, Tx] (None without attention); advances `state`."""
        e = self.target_embedding(previous)
        weights = None
        if self.attention_kind == "bahdanau":
            context, weights = self.attention(state["s"], state["annotations"], state["keys"], state["mask"])
            self._cell(state, torch.cat([e, context], dim=-1))
            out = torch.cat([state["s"], context], dim=-1)
        elif self.attention_kind == "luong":
            self._cell(state, torch.cat([e, state["feed"]], dim=-1) if self.input_feeding else e)
            _, out, weights = self.attention(state["s"], state["annotations"], state["mask"])
            if self.input_feeding:
                state["feed"] = out
        else:
            self._cell(state, e)
            out = state["s"]
        return self.output(out), weights

    reorder = staticmethod(reorder_rows)

    def forward(self, source, target_in):
        """Teacher forcing: source [B, Tx], target_in [B, T] (<bos> y1 .. ; padded with <pad>) -> logits [B, T, Vt]."""
        state = self.start(source)
        return torch.stack([self.step(state, target_in[:, t])[0] for t in range(target_in.shape[1])], dim=1)


# ---------------------------------------------------------------------------------------------
# The Transformer encoder-decoder (core/include/attn/models/transformer_seq2seq.hpp)


class DecoderBlock(nn.Module):
    """Pre-norm: a = x + SelfMHA(LN1(x)) (causal), c = a + CrossMHA(LN2(a), memory),
    y = c + W2 act(W1 LN3(c))."""

    def __init__(self, dim, heads, ff_dim, eps, activation):
        super().__init__()
        self.activation = ACTIVATIONS[activation]
        self.ln1 = nn.LayerNorm(dim, eps=eps)
        self.self_attention = MultiHeadAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim, eps=eps)
        self.cross_attention = MultiHeadAttention(dim, heads)
        self.ln3 = nn.LayerNorm(dim, eps=eps)
        self.ff1 = nn.Linear(dim, ff_dim)
        self.ff2 = nn.Linear(ff_dim, dim)

    def forward(self, x, target_mask, memory, source_mask):
        """x [B, T, D], target_mask [B, T], memory [B, Tx, D], source_mask [B, Tx] -> y [B, T, D],
        self-attention [B, H, T, T], cross-attention [B, H, T, Tx]."""
        y, self_weights = self.self_attention(self.ln1(x), target_mask, causal=True)
        a = x + y
        y, cross_weights = self.cross_attention(self.ln2(a), source_mask, memory=memory)
        c = a + y
        return c + self.ff2(self.activation(self.ff1(self.ln3(c)))), self_weights, cross_weights


class TransformerTranslator(nn.Module):
    """e = sqrt(D) E_s[x] + PE -> N_e pre-norm blocks -> LN = memory; d = sqrt(D) E_t[y_<t] + PE ->
    N_d decoder blocks -> LN -> logits = W_out h + b (W_out = E_t when tied)."""

    def __init__(self, config):
        super().__init__()
        c = self.config = dict(config)
        d, heads, ff, eps = int(c["d_model"]), int(c["heads"]), int(c["ff_dim"]), float(c["layer_norm_eps"])
        activation = c["activation"]
        if activation not in ACTIVATIONS:
            raise ValueError(f"unsupported activation {activation!r}")
        self.shared, self.tied = bool(c["share_embeddings"]), bool(c["tie_output"])
        self.source_embedding = nn.Embedding(int(c["source_vocab"]), d)
        self.target_embedding = self.source_embedding if self.shared else nn.Embedding(int(c["target_vocab"]), d)
        blocks = range(int(c["encoder_layers"]))
        self.encoder = nn.ModuleList(TransformerBlock(d, heads, ff, eps, activation) for _ in blocks)
        self.encoder_norm = nn.LayerNorm(d, eps=eps)
        self.decoder = nn.ModuleList(
            DecoderBlock(d, heads, ff, eps, activation) for _ in range(int(c["decoder_layers"]))
        )
        self.decoder_norm = nn.LayerNorm(d, eps=eps)
        self.output = nn.Linear(d, int(c["target_vocab"]))
        if self.tied:
            self.output.weight = self.target_embedding.weight
        self.register_buffer("positions", sinusoidal_table(256, d), persistent=False)

    def embed(self, table, ids):
        """ids [B, T] -> sqrt(D) E[ids] + PE [B, T, D], positions from 0 (rows padded after their
        tokens); table: source_embedding or target_embedding."""
        t = ids.shape[1]
        if t > self.positions.shape[0]:
            self.positions = sinusoidal_table(2 * t, self.positions.shape[1])
        return table(ids) * math.sqrt(table.weight.shape[1]) + self.positions[:t]

    def start(self, source):
        """source [R, Tx] (padded with <pad> after each row's tokens) -> the decoding state."""
        mask = source != PAD
        if bool((mask.sum(dim=1) == 0).any()):
            raise ValueError("a source has no tokens")
        x = self.embed(self.source_embedding, source)
        for block in self.encoder:
            x, _ = block(x, mask)
        prefix = torch.zeros(source.shape[0], 0, dtype=torch.long)
        return {"memory": self.encoder_norm(x), "mask": mask, "prefix": prefix}

    def decode(self, memory, source_mask, target_in):
        """memory [B, Tx, D], source_mask [B, Tx], target_in [B, T] -> logits [B, T, Vt], the
        cross-attention of every block [B, H, T, Tx]."""
        y = self.embed(self.target_embedding, target_in)
        target_mask = target_in != PAD
        crosses = []
        for block in self.decoder:
            y, _, cross = block(y, target_mask, memory, source_mask)
            crosses.append(cross)
        return self.output(self.decoder_norm(y)), crosses

    def step(self, state, previous):
        """previous [R] -> logits [R, Vt] of the next token, the last block's cross-attention
        averaged over heads [R, Tx] (the engine's alignment). The whole prefix is decoded again
        (no key/value cache: simpler, the same numbers)."""
        state["prefix"] = torch.cat([state["prefix"], previous[:, None]], dim=1)
        logits, crosses = self.decode(state["memory"], state["mask"], state["prefix"])
        return logits[:, -1], crosses[-1][:, :, -1, :].mean(dim=1)

    reorder = staticmethod(reorder_rows)

    def forward(self, source, target_in):
        """Teacher forcing: source [B, Tx], target_in [B, T] (<bos> y1 .. ; padded) -> logits [B, T, Vt]."""
        state = self.start(source)
        return self.decode(state["memory"], state["mask"], target_in)[0]

    def to_nn_transformer(self):
        """These encoder and decoder stacks as PyTorch's own torch.nn.Transformer (pre-norm blocks,
        a final LayerNorm after each stack: norm_first=True, batch_first=True; q, k, v packed into
        in_proj_weight), dropout 0. It computes the same logits (checked by the export's test):

            nt = m.model.to_nn_transformer().eval()
            x = m.model.embed(m.model.source_embedding, source)
            y = m.model.embed(m.model.target_embedding, target_in)
            h = nt(x, y, tgt_mask=nn.Transformer.generate_square_subsequent_mask(y.shape[1]),
                   src_key_padding_mask=source == PAD, memory_key_padding_mask=source == PAD)
            logits = m.model.output(h)
        """
        c = self.config
        d = int(c["d_model"])
        nt = nn.Transformer(d_model=d, nhead=int(c["heads"]), num_encoder_layers=len(self.encoder),
                            num_decoder_layers=len(self.decoder), dim_feedforward=int(c["ff_dim"]), dropout=0.0,
                            activation=ACTIVATIONS[c["activation"]], layer_norm_eps=float(c["layer_norm_eps"]),
                            batch_first=True, norm_first=True)
        pairs = [(nt.encoder.norm, self.encoder_norm), (nt.decoder.norm, self.decoder_norm)]
        attentions = []
        for layer, block in zip(nt.encoder.layers, self.encoder):
            pairs += [(layer.norm1, block.ln1), (layer.norm2, block.ln2), (layer.linear1, block.ff1),
                      (layer.linear2, block.ff2)]
            attentions.append((layer.self_attn, block.attention))
        for layer, block in zip(nt.decoder.layers, self.decoder):
            pairs += [(layer.norm1, block.ln1), (layer.norm2, block.ln2), (layer.norm3, block.ln3),
                      (layer.linear1, block.ff1), (layer.linear2, block.ff2)]
            attentions += [(layer.self_attn, block.self_attention), (layer.multihead_attn, block.cross_attention)]
        with torch.no_grad():
            for theirs, ours in pairs:
                theirs.weight.copy_(ours.weight)
                theirs.bias.copy_(ours.bias)
            for theirs, ours in attentions:
                theirs.in_proj_weight.copy_(torch.cat([ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]))
                theirs.in_proj_bias.copy_(torch.cat([ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]))
                theirs.out_proj.weight.copy_(ours.out_proj.weight)
                theirs.out_proj.bias.copy_(ours.out_proj.bias)
        return nt


# ---------------------------------------------------------------------------------------------
# Searches (the engine's core/src/models/translator_search.cpp)


def best_emittable(logits):
    """logits [R, V] -> the argmax over ids >= <eos> (never <pad> or <bos>), the smallest id on ties."""
    return logits[:, EOS:].argmax(dim=-1) + EOS


def greedy_search(model, source, max_len):
    """source [R, Tx] -> per row {"ids", "log_prob", "finished", "alignment" [steps][Tx]}."""
    state = model.start(source)
    rows = source.shape[0]
    previous = torch.full((rows,), BOS, dtype=torch.long)
    results = [{"ids": [], "log_prob": 0.0, "finished": False, "alignment": []} for _ in range(rows)]
    for _ in range(max_len):
        if all(r["finished"] for r in results):
            break
        logits, weights = model.step(state, previous)
        log_p = torch.log_softmax(logits, dim=-1)
        previous = best_emittable(logits)
        for b, r in enumerate(results):
            if r["finished"]:
                continue
            token = int(previous[b])
            r["log_prob"] += float(log_p[b, token])
            if weights is not None:
                r["alignment"].append(weights[b].tolist())
            if token == EOS:
                r["finished"] = True
            else:
                r["ids"].append(token)
    return results


def length_penalised_score(log_prob, length, alpha):
    """GNMT (Wu et al. 2016): log_prob / ((5 + length) / 6)^alpha; length counts <eos> when emitted."""
    return log_prob if alpha == 0 else log_prob / ((5.0 + length) / 6.0) ** alpha


def beam_search(model, source, width, alpha, max_len):
    """source [1, Tx] -> at most `width` hypotheses, best first (the engine's rules: every step
    ranks all extensions of the live hypotheses by log p, ties to the earlier hypothesis and then
    the smaller id; those ending in <eos> finish; stop at `width` finished, none live or max_len)."""
    if width < 1:
        raise ValueError(f"beam width must be >= 1, got {width}")
    state = model.start(source)
    live = [{"ids": [], "log_prob": torch.zeros(()), "alignment": []}]
    finished = []
    previous = torch.tensor([BOS])
    for _ in range(max_len):
        if not live or len(finished) >= width:
            break
        logits, weights = model.step(state, previous)
        log_p = torch.log_softmax(logits, dim=-1)
        log_p[:, PAD] = log_p[:, BOS] = float("-inf")
        totals = torch.stack([h["log_prob"] for h in live])[:, None] + log_p  # float32, as the engine sums
        order = torch.sort(totals.flatten(), descending=True, stable=True).indices[:width]
        vocab = totals.shape[1]
        next_live, parents = [], []
        for flat in order.tolist():
            parent, token = divmod(flat, vocab)
            if not math.isfinite(float(totals[parent, token])):
                break  # fewer extensions than the width: <pad> and <bos> are never one
            h = dict(live[parent])
            h["log_prob"] = totals[parent, token]
            h["alignment"] = h["alignment"] + ([weights[parent].tolist()] if weights is not None else [])
            if token == EOS:
                finished.append(dict(h, finished=True))
            else:
                next_live.append(dict(h, ids=h["ids"] + [token]))
                parents.append(parent)
        live = next_live
        if not live:
            break
        model.reorder(state, torch.tensor(parents))
        previous = torch.tensor([h["ids"][-1] for h in live])
    finished += [dict(h, finished=False) for h in live]
    for h in finished:
        h["log_prob"] = float(h["log_prob"])
    finished.sort(key=lambda h: -length_penalised_score(h["log_prob"], len(h["ids"]) + h["finished"], alpha))
    return finished[:width]


# ---------------------------------------------------------------------------------------------
# Loading and translating


class Translator:
    """An exported model with its vocabularies and decoding rules."""

    def __init__(self, model, config, vocab):
        self.model, self.config = model.eval(), config
        self.source, self.target = Vocabulary(vocab, "source"), Vocabulary(vocab, "target")
        self.task = vocab["task"]

    def max_len(self, source_tokens):
        return int(self.config["max_len_per_source_token"]) * source_tokens + int(self.config["max_len_extra"])

    @torch.no_grad()
    def translate(self, sentence, beam=1, alpha=None, max_len=None):
        """sentence -> {"text", "tokens" (output tokens, no <eos>), "ids", "log_prob", "finished"
        (<eos> was emitted), "source_tokens", "source_ids", "alignment" [output steps][source
        tokens] (a row for the <eos> step too; None without attention)}."""
        ids, tokens = self.source.encode(sentence)
        if not ids:
            raise ValueError(f"no tokens to translate in {sentence!r}")
        alpha = float(self.config["beam_alpha"]) if alpha is None else alpha
        limit = self.max_len(len(ids)) if max_len is None else max_len
        source = torch.tensor([ids])
        best = greedy_search(self.model, source, limit)[0] if beam == 1 else beam_search(
            self.model, source, beam, alpha, limit
        )[0]
        return {
            "text": self.target.decode(best["ids"]),
            "tokens": [self.target.tokens[i] for i in best["ids"]],
            "ids": best["ids"],
            "log_prob": best["log_prob"],
            "finished": best["finished"],
            "source_tokens": tokens,
            "source_ids": ids,
            "alignment": best["alignment"] or None,
        }

    @torch.no_grad()
    def logits(self, sources, targets):
        """Teacher forcing on pairs of id lists: sources [B][Tx], targets [B][Ty] (<bos> .. <eos>)
        -> logits [B, Ty - 1, Vt] predicting targets[:, 1:] (rows padded after their tokens)."""
        tx, ty = max(len(s) for s in sources), max(len(t) for t in targets)
        source = torch.tensor([s + [PAD] * (tx - len(s)) for s in sources])
        target_in = torch.tensor([t[:-1] + [PAD] * (ty - len(t)) for t in targets])
        return self.model(source, target_in)


def load(directory="."):
    """The translator in `directory` (model.safetensors, config.json, vocab.json)."""
    tensors, metadata = read_safetensors(os.path.join(directory, "model.safetensors"))
    if metadata.get("format") == "attn-pytorch":
        raise ValueError("model.safetensors holds a sentiment classifier: use the model.py exported with it")
    if metadata.get("format") != "attn-pytorch-translator":
        raise ValueError("model.safetensors was not written by Attention Playground's PyTorch export")
    with open(os.path.join(directory, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    with open(os.path.join(directory, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    # vocab.json's version 2 records each side's tokenizer (version 1: the project tokenizer).
    for name, settings, expected, readable in (("config.json", config, "attn-pytorch-translator", 1),
                                               ("vocab.json", vocab, "attn-translator-vocab", 2)):
        if settings.get("format") != expected:
            raise ValueError(f"{name} is not an Attention Playground translator's (format != {expected})")
        if int(settings.get("format_version", 0)) > readable:
            raise ValueError(f"{name} has format version {settings['format_version']}; this model.py reads "
                             f"up to {readable}")
    if metadata.get("model") != config["model"]:
        raise ValueError(f"model.safetensors holds a {metadata.get('model')} model but config.json a {config['model']}")
    if config["model"] == "seq2seq":
        model = RNNTranslator(config)
    elif config["model"] == "transformer_seq2seq":
        model = TransformerTranslator(config)
        # Shared and tied tables are stored once; the module reads them under every name it uses.
        if model.shared:
            tensors["source_embedding.weight"] = tensors["target_embedding.weight"] = tensors.pop("embedding.weight")
        if model.tied:
            tensors["output.weight"] = tensors["target_embedding.weight"]
    else:
        raise ValueError(f"config.json: unknown model {config['model']!r}")
    model.load_state_dict(tensors, strict=True)
    return Translator(model, config, vocab)


def _main(argv):
    parser = argparse.ArgumentParser(
        description="Translate with the exported model (see the module's docstring for the Python API)."
    )
    parser.add_argument("sentences", nargs="*", help="the sentences to translate")
    parser.add_argument("--beam", type=int, default=1, help="beam width (default 1: greedy)")
    parser.add_argument("--alpha", type=float, default=None, help="length penalty exponent (default config.json's)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object per sentence")
    output.add_argument("--jsonl", action="store_true", help="read one JSON string per line from stdin")
    args = parser.parse_args(argv)
    texts = [json.loads(line) for line in sys.stdin if line.strip()] if args.jsonl else args.sentences
    if not texts:
        parser.print_help()
        return 2
    translator = load(os.path.dirname(os.path.abspath(__file__)))
    for text in texts:
        try:
            r = translator.translate(text, beam=args.beam, alpha=args.alpha)
        except ValueError as e:
            if not (args.json or args.jsonl):
                print(f"model.py: {e}", file=sys.stderr)
                return 1
            r = {"text": "", "error": str(e)}
        print(json.dumps(r, ensure_ascii=False) if args.json or args.jsonl else r["text"])
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
