"""A sentiment classifier exported from Attention Playground, as a PyTorch module.

Written by `attn export --format pytorch` (or the Studio's "Download for PyTorch") next to
model.safetensors (the weights) and vocab.json (tokenizer settings and vocabulary). It needs only
Python 3 and PyTorch (Debian: python3-torch); the weights are read without the safetensors package.

    import model
    m = model.load(".")                       # the folder holding the three files
    for r in m.predict(["A moving, beautifully acted film.", "Dull and far too long."]):
        print(r["probability"], list(zip(r["tokens"], r["attention"] or [])))

    python3 model.py "a review" ["another review" ...]     # label, P(positive), top attention
    python3 model.py --jsonl < texts.jsonl                  # one JSON string per line in,
                                                            # one JSON object per line out

predict() tokenises exactly as the engine does (lowercasing, HTML tags, punctuation, apostrophes,
<start> = 1, <oov> = 2, first word 4, truncation to maxlen) and returns, per text, P(positive),
the tokens the model read, the attention-pooling weights (None for mean or last-state pooling) and,
for the Transformer, every block's self-attention [heads][T][T]. Reviews in a batch are padded
after their tokens and masked, so a review gets the same answer alone or in any batch.
"""

import json
import math
import os
import struct
import sys

import torch
import torch.nn.functional as F
from torch import nn

# The blocks between ">>> shared: NAME" and "<<< shared: NAME" are also part of the model.py of an
# exported translator (core/src/models/pytorch_translator.py): the export copies them there.

# ---------------------------------------------------------------------------------------------
# Tokenizer (the engine's core/src/text/tokenizer.cpp, rule by rule)

# >>> shared: tokenizer
_FILTERS = frozenset('!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~')
_SPACES = frozenset(" \t\n\v\f\r")
_WIDE_SPACES = frozenset((0xA0, 0x3000))  # no-break space, ideographic space
_APOSTROPHES = ("'", "\u2019")


def lowercase_code_point(c):
    """The engine's one-to-one lowercase map (not str.lower(): İ -> i, Σ -> σ always)."""
    if c < 0x80:
        return c + 0x20 if 0x41 <= c <= 0x5A else c
    if 0xC0 <= c <= 0xDE and c != 0xD7:
        return c + 0x20
    if 0x100 <= c <= 0x17F:
        if c == 0x130:
            return 0x69
        if c == 0x178:
            return 0xFF
        if (c <= 0x137 or 0x14A <= c <= 0x177) and c % 2 == 0:
            return c + 1
        if (0x139 <= c <= 0x148 or 0x179 <= c <= 0x17E) and c % 2 == 1:
            return c + 1
        return c
    if c == 0x386:
        return 0x3AC
    if 0x388 <= c <= 0x38A:
        return c + 0x25
    if c == 0x38C:
        return 0x3CC
    if c in (0x38E, 0x38F):
        return c + 0x3F
    if 0x391 <= c <= 0x3AB and c != 0x3A2:
        return c + 0x20
    if 0x400 <= c <= 0x40F:
        return c + 0x50
    if 0x410 <= c <= 0x42F:
        return c + 0x20
    if (0x460 <= c <= 0x481 or 0x48A <= c <= 0x4BF or 0x4D0 <= c <= 0x52F) and c % 2 == 0:
        return c + 1
    if c == 0x4C0:
        return 0x4CF
    if 0x4C1 <= c <= 0x4CE and c % 2 == 1:
        return c + 1
    return c


def _tag_end(text, i):
    """If an HTML tag starts at text[i] == '<', the index just past its '>'; else 0."""
    if i + 1 >= len(text):
        return 0
    nxt = text[i + 1]
    if not (("a" <= nxt <= "z") or ("A" <= nxt <= "Z") or nxt in "/!"):
        return 0
    for j in range(i + 1, len(text)):
        if text[j] == ">":
            return j + 1
        if text[j] == "<":
            return 0
    return 0


def tokenize(text, lowercase=True, strip_html=True, keep_punctuation=False):
    """Review text -> word tokens, as the engine splits it."""
    text.encode("utf-8")  # the engine rejects text that is not valid UTF-8; so does this
    tokens, word = [], []

    def flush():
        w = "".join(word)
        word.clear()
        stripped = True
        while stripped and w:
            stripped = False
            for q in _APOSTROPHES:
                if w.startswith(q):
                    w, stripped = w[len(q):], True
                if w.endswith(q):
                    w, stripped = w[: -len(q)], True
        if w:
            tokens.append(w)

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        c = ord(ch)
        if c < 0x80:
            if ch in _SPACES:
                flush()
            elif ch in _FILTERS:
                flush()
                if ch == "<" and strip_html:
                    end = _tag_end(text, i)
                    if end:
                        i = end
                        continue
                if keep_punctuation:
                    tokens.append(ch)
            else:
                word.append(chr(c + 0x20) if lowercase and "A" <= ch <= "Z" else ch)
        elif c in _WIDE_SPACES:
            flush()
        else:
            word.append(chr(lowercase_code_point(c)) if lowercase else ch)
        i += 1
    flush()
    return tokens
# <<< shared: tokenizer


class Vocabulary:
    """vocab.json: tokenizer settings, maxlen and the words (ids from first_word_id on)."""

    def __init__(self, settings):
        if settings.get("format") != "attn-vocab":
            raise ValueError("vocab.json is not an Attention Playground vocabulary (format != attn-vocab)")
        self.settings = settings
        self.maxlen = int(settings["maxlen"])
        self.truncating = settings["truncating"]
        first = int(settings["first_word_id"])
        self.ids = {w: first + k for k, w in enumerate(settings["words"])}
        self.start, self.oov = 1, 2

    def encode(self, text):
        """text -> (ids [T], tokens [T]): <start>, then one id per token, at most maxlen."""
        s = self.settings
        tokens = tokenize(text, s["lowercase"], s["strip_html"], s["keep_punctuation"])
        ids = [self.start] + [self.ids.get(t, self.oov) for t in tokens]
        words = ["<start>"] + tokens
        if len(ids) > self.maxlen:
            keep = slice(len(ids) - self.maxlen, None) if self.truncating == "pre" else slice(0, self.maxlen)
            ids, words = ids[keep], words[keep]
        return ids, words


# ---------------------------------------------------------------------------------------------
# Weights


# >>> shared: safetensors
def read_safetensors(path):
    """-> (tensors by name, metadata). float32 only, which is all the export writes."""
    with open(path, "rb") as f:
        blob = f.read()
    (length,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8 : 8 + length].decode("utf-8"))
    data = memoryview(blob)[8 + length :]
    metadata = header.pop("__metadata__", {})
    tensors = {}
    for name, info in header.items():
        if info["dtype"] != "F32":
            raise ValueError(f"{path}: tensor {name} has dtype {info['dtype']}; expected F32")
        begin, end = info["data_offsets"]
        if sys.byteorder == "little":
            values = torch.frombuffer(bytearray(data[begin:end]), dtype=torch.float32)
        else:
            values = torch.tensor(struct.unpack(f"<{(end - begin) // 4}f", data[begin:end]), dtype=torch.float32)
        tensors[name] = values.reshape(info["shape"])
    return tensors, metadata
# <<< shared: safetensors


# ---------------------------------------------------------------------------------------------
# The architecture


# >>> shared: layers
ACTIVATIONS = {
    "identity": lambda x: x,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "relu": F.relu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
}


def masked_softmax(scores, mask):
    """Softmax over the last axis where mask is True; exactly 0 elsewhere (and for rows with no key)."""
    weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
    return torch.nan_to_num(weights, nan=0.0).masked_fill(~mask, 0.0)


class MultiHeadAttention(nn.Module):
    """Multi-head attention with explicit projections (heads side by side in the columns): queries
    from x, keys and values from `memory` (x itself for self-attention)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q_proj, self.k_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.v_proj, self.out_proj = nn.Linear(dim, dim), nn.Linear(dim, dim)

    def forward(self, x, mask, causal=False, memory=None):
        """x [B, Tq, D], mask [B, Tk] (True = real key), memory [B, Tk, D] (None: x)
        -> y [B, Tq, D], weights [B, H, Tq, Tk]. causal: query t sees keys 0 .. t only."""
        memory = x if memory is None else memory
        b, tq, d = x.shape
        tk = memory.shape[1]
        hd = d // self.heads

        def split(z, t):  # [B, t, D] -> [B, H, t, d]
            return z.reshape(b, t, self.heads, hd).transpose(1, 2)

        q, k, v = split(self.q_proj(x), tq), split(self.k_proj(memory), tk), split(self.v_proj(memory), tk)
        scores = q @ k.transpose(-1, -2) / math.sqrt(hd)
        visible = mask[:, None, None, :].expand(b, self.heads, tq, tk)
        if causal:
            visible = visible & torch.ones(tq, tk, dtype=torch.bool).tril()
        weights = masked_softmax(scores, visible)
        heads = (weights @ v).transpose(1, 2).reshape(b, tq, d)
        return self.out_proj(heads), weights


class TransformerBlock(nn.Module):
    """Pre-norm: a = x + MHA(LN1(x)); y = a + W2 act(W1 LN2(a))."""

    def __init__(self, dim, heads, ff_dim, eps, activation="gelu_tanh"):
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(f"unsupported activation {activation!r}")
        self.activation = ACTIVATIONS[activation]
        self.ln1 = nn.LayerNorm(dim, eps=eps)
        self.attention = MultiHeadAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim, eps=eps)
        self.ff1 = nn.Linear(dim, ff_dim)
        self.ff2 = nn.Linear(ff_dim, dim)

    def forward(self, x, mask, causal=False):
        """x [B, T, D], mask [B, T] (True = real token) -> y [B, T, D], self-attention [B, H, T, T]."""
        y, weights = self.attention(self.ln1(x), mask, causal)
        a = x + y
        return a + self.ff2(self.activation(self.ff1(self.ln2(a)))), weights


def sinusoidal_table(length, dim):
    """PE[pos, 2i] = sin(pos / 10000^(2i/D)), PE[pos, 2i+1] = cos(...), in float64 then float32."""
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    j = torch.arange(dim)
    angle = pos / torch.pow(torch.tensor(10000.0, dtype=torch.float64), (j - j % 2).to(torch.float64) / dim)
    return torch.where(j % 2 == 0, torch.sin(angle), torch.cos(angle)).to(torch.float32)
# <<< shared: layers


class AttentionPooling(nn.Module):
    """Scores every hidden state against learned parameters, softmax over real tokens, weighted sum."""

    def __init__(self, score, dim, attention_dim):
        super().__init__()
        self.score, self.dim = score, dim
        if score != "additive":
            self.query = nn.Parameter(torch.zeros(attention_dim if score == "scaled_dot" else dim))
        if score == "additive":
            self.proj = nn.Linear(dim, attention_dim)
            self.v = nn.Linear(attention_dim, 1, bias=False)
        elif score == "concat":
            self.proj = nn.Linear(2 * dim, attention_dim, bias=False)
            self.v = nn.Linear(attention_dim, 1, bias=False)
        elif score == "general":
            self.proj = nn.Linear(dim, dim, bias=False)
        elif score == "scaled_dot":
            # keys proj(h) [B, T, A] against the query [A], scaled by 1/sqrt(A) (the engine's layer)
            self.proj = nn.Linear(dim, attention_dim, bias=False)
            self.attention_dim = attention_dim
        elif score != "dot":
            raise ValueError(f"unknown attention score {score!r}")

    def forward(self, h, mask):
        """h [B, T, D], mask [B, T] (True = real token) -> pooled [B, D], weights [B, T]."""
        if self.score == "additive":
            scores = self.v(torch.tanh(self.proj(h))).squeeze(-1)
        elif self.score == "concat":
            query = self.query.expand(h.shape[0], h.shape[1], self.dim)
            scores = self.v(torch.tanh(self.proj(torch.cat([query, h], dim=-1)))).squeeze(-1)
        elif self.score == "general":
            scores = self.proj(h) @ self.query
        elif self.score == "scaled_dot":
            scores = self.proj(h) @ self.query / math.sqrt(self.attention_dim)
        else:
            scores = h @ self.query
        weights = masked_softmax(scores, mask)
        return (weights.unsqueeze(-1) * h).sum(dim=1), weights


class SentimentClassifier(nn.Module):
    """Embedding (+ hashed bigrams) -> BiLSTM | BiGRU | Transformer encoder | none -> attention | mean | last
    pooling -> Linear -> σ."""

    def __init__(self, config):
        super().__init__()
        c = self.config = dict(config)
        n = lambda key: int(c[key])  # noqa: E731
        self.encoder, self.pooling_kind = c["encoder"], c["pooling"]
        e = n("embed_dim")
        self.embedding = nn.Embedding(n("vocab_size"), e)
        self.bigram_buckets = int(c.get("bigram_buckets", "0"))
        if self.bigram_buckets:
            self.bigrams = nn.Embedding(self.bigram_buckets, e)
        if self.encoder == "none":
            out_dim = e
        elif self.encoder in ("bilstm", "bigru"):
            rnn = nn.LSTM if self.encoder == "bilstm" else nn.GRU
            self.rnn = rnn(e, n("units"), batch_first=True, bidirectional=True)
            out_dim = 2 * n("units")
        elif self.encoder == "transformer":
            eps = float(c["layer_norm_eps"])
            if c["positional"] == "learned":
                self.positional = nn.Embedding(n("max_len"), e)
            else:
                self.register_buffer("sinusoid", sinusoidal_table(n("max_len"), e), persistent=False)
            self.blocks = nn.ModuleList(
                TransformerBlock(e, n("heads"), n("ff_dim"), eps, c["activation"]) for _ in range(n("layers"))
            )
            self.final_norm = nn.LayerNorm(e, eps=eps)
            self.causal = c["causal"] == "true"
            out_dim = e
        else:
            raise ValueError(f"unknown encoder {self.encoder!r}")
        if self.pooling_kind == "attention":
            self.pooling = AttentionPooling(c["score"], out_dim, n("attention_dim"))
        self.output = nn.Linear(out_dim, 1)
        self.vocab = None

    def forward(self, ids, mask):
        """ids [B, T], mask [B, T] (True = real token; reviews start at column 0) -> logits [B],
        pooling weights [B, T] or None, self-attention [layers] of [B, H, T, T]."""
        x = self.embedding(ids)
        if self.bigram_buckets:
            # Row 1 + (previous id * 1000003 + id) mod (buckets - 1); the previous id is 0 at a row's
            # start and after padding; padded positions take row 0 (zeros).
            previous = torch.cat([torch.zeros_like(ids[:, :1]), ids[:, :-1] * mask[:, :-1].long()], dim=1)
            rows = 1 + (previous * 1000003 + ids) % (self.bigram_buckets - 1)
            x = x + self.bigrams(rows * mask.long())
        self_attention = []
        if self.encoder == "none":
            h, last = x, None
        elif self.encoder == "transformer":
            t = ids.shape[1]
            x = x * math.sqrt(x.shape[-1])
            x = x + (self.positional.weight[:t] if hasattr(self, "positional") else self.sinusoid[:t])
            for block in self.blocks:
                x, weights = block(x, mask, self.causal)
                self_attention.append(weights)
            h = self.final_norm(x)
            last = None
        else:
            lengths = mask.sum(dim=1).cpu()
            packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            out, state = self.rnn(packed)
            h, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=ids.shape[1])
            final_h = state[0] if isinstance(state, tuple) else state  # [2, B, U]
            last = torch.cat([final_h[0], final_h[1]], dim=-1)  # [→h after the last token ; ←h after the first]
        weights = None
        if self.pooling_kind == "attention":
            pooled, weights = self.pooling(h, mask)
        elif self.pooling_kind == "mean":
            m = mask.unsqueeze(-1).to(h.dtype)
            pooled = (h * m).sum(dim=1) / m.sum(dim=1).clamp(min=1.0)
        else:
            pooled = last
        return self.output(pooled).squeeze(-1), weights, self_attention

    @torch.no_grad()
    def predict(self, texts, batch_size=64):
        """texts -> one dict per text: probability (P(positive)), label, tokens [T], attention [T]
        (None without attention pooling), self_attention [layers][heads][T][T] (Transformer)."""
        if isinstance(texts, str):
            raise TypeError("predict takes a list of texts")
        self.eval()
        results = []
        for begin in range(0, len(texts), batch_size):
            encoded = [self.vocab.encode(t) for t in texts[begin : begin + batch_size]]
            longest = max(len(ids) for ids, _ in encoded)
            ids = torch.zeros(len(encoded), longest, dtype=torch.long)
            mask = torch.zeros(len(encoded), longest, dtype=torch.bool)
            for row, (seq, _) in enumerate(encoded):
                ids[row, : len(seq)] = torch.tensor(seq)
                mask[row, : len(seq)] = True
            logits, weights, self_attention = self(ids, mask)
            probabilities = torch.sigmoid(logits)
            for row, (seq, tokens) in enumerate(encoded):
                t = len(seq)
                p = float(probabilities[row])
                results.append(
                    {
                        "probability": p,
                        "label": "positive" if p >= 0.5 else "negative",
                        "tokens": tokens,
                        "attention": None if weights is None else weights[row, :t].tolist(),
                        "self_attention": [w[row, :, :t, :t].tolist() for w in self_attention],
                    }
                )
        return results


def load(directory="."):
    """The model in `directory` (model.safetensors + vocab.json), ready for predict()."""
    tensors, config = read_safetensors(os.path.join(directory, "model.safetensors"))
    if config.get("format") != "attn-pytorch":
        raise ValueError("model.safetensors was not written by Attention Playground's PyTorch export")
    if int(config.get("format_version", "0")) > 1:
        raise ValueError(f"model.safetensors has format version {config['format_version']}; this model.py reads 1")
    model = SentimentClassifier(config)
    model.load_state_dict(tensors, strict=True)
    with open(os.path.join(directory, "vocab.json"), encoding="utf-8") as f:
        model.vocab = Vocabulary(json.load(f))
    return model.eval()


def _main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if argv[:1] == ["--jsonl"]:
        model = load(here)
        texts = [json.loads(line) for line in sys.stdin if line.strip()]
        for r in model.predict(texts):
            print(json.dumps(r, ensure_ascii=False))
        return 0
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    model = load(here)
    for text, r in zip(argv, model.predict(argv)):
        print(f"{r['label']} (P(positive) = {r['probability']:.4f}): {text[:60]}")
        if r["attention"] is not None:
            top = sorted(zip(r["attention"], r["tokens"]), reverse=True)[:5]
            print("  most attended: " + ", ".join(f"{tok} {w:.3f}" for w, tok in top))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
