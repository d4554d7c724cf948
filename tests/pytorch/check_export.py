"""attn export --format pytorch, checked end to end (CTest: pytorch_export.model_py_matches_engine).

For every exported architecture — BiLSTM and BiGRU with attention pooling (each scoring function),
the Transformer with attention and with mean pooling, BiLSTM / BiGRU last state, words and hashed
bigrams without an encoder (attention and mean pooling) — it trains a
tiny model on the built-in corpus with the CLI, exports it, runs the exported model.py (its
--jsonl entry point, in a separate process, as a user would) on 50 reviews and compares every
P(positive), token and attention weight with `attn predict --json` to 1e-4. Any mismatch fails.

    python3 tests/pytorch/check_export.py --attn build/native/attn --work build/native/pytorch_export

Needs Python 3 with PyTorch: Debian's python3-torch (scripts/setup.sh all installs it).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

TOLERANCE = 1e-4
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

try:
    import torch  # noqa: F401  (model.py needs it; fail here with the package to install)
except ImportError:
    sys.exit(
        f"pytorch_export: {sys.executable} cannot import torch. Install Debian's python3-torch "
        "(apt-get install python3-torch, or scripts/setup.sh all) or set ATTN_PYTHON to a Python with PyTorch."
    )

# lr 0.01 (5x the recipe) so eight epochs on 528 reviews move the weights well away from their start.
COMMON = ["--data", "builtin", "--epochs", "8", "--patience", "0", "--lr", "0.01", "--vocab", "400", "--maxlen", "24",
          "--embed", "16", "--units", "8", "--seed", "3"]
MODELS = {
    "lstm-additive": ["--model", "bilstm-attention", "--cell", "lstm", "--score", "additive"],
    "gru-additive": ["--model", "bilstm-attention", "--cell", "gru", "--score", "additive"],
    "lstm-concat": ["--model", "bilstm-attention", "--cell", "lstm", "--score", "concat"],
    "gru-general": ["--model", "bilstm-attention", "--cell", "gru", "--score", "general"],
    "lstm-dot": ["--model", "bilstm-attention", "--cell", "lstm", "--score", "dot"],
    "gru-scaled-dot": ["--model", "bilstm-attention", "--cell", "gru", "--score", "scaled_dot"],
    "transformer-attention": ["--model", "transformer", "--pooling", "attention", "--layers", "2", "--heads", "2"],
    "transformer-mean": ["--model", "transformer", "--pooling", "mean", "--heads", "4"],
    "bilstm-last": ["--model", "bilstm", "--cell", "lstm"],
    "bigru-last": ["--model", "bilstm", "--cell", "gru"],
    "ngram-attention": ["--model", "ngram-attention", "--bigram-buckets", "512"],
    "ngram-mean": ["--model", "ngram-attention", "--pooling", "mean", "--bigram-buckets", "97"],
}

# What the tokenizer must get right beyond plain reviews: tags, case, punctuation, apostrophes,
# non-ASCII capitals, wide spaces, unknown words, nothing at all, more than maxlen tokens.
CRAFTED = [
    "",
    "!!! ... ???",
    "This was <b>GREAT</b>,<br /><br />truly great. A < B and <3 it",
    "'Quoted' words' and don't, rock'n'roll, it’s ’fine’ ''''",
    "ÉCLATANT Ça VA? ΣΑΣ Δ Ё ДОБРО İstanbul Ÿ ŁÓDŹ",
    "no\u00a0break\u3000ideographic\tspace\nnewline\r\nfeed",
    "zyxwvut qwertyuiop unknownword asdfghjkl",
    "映画が好き 😀 great",
    " ".join(["the film was long and the story was dull but the acting was good"] * 4),
    "<!-- a comment --> plain <i>words</i> <unclosed tag and more",
    "UPPER lower MiXeD 123 4.5 x_y a-b",
    "#hashtags @handles $money 100% [brackets] {braces} ~tilde`",
]


def reviews(count):
    with open(os.path.join(ROOT, "data", "builtin", "reviews.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    texts = [row[3] for row in rows if row[0] == "test"][: count - len(CRAFTED)]
    return CRAFTED + texts


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"pytorch_export: {' '.join(command[:3])} ... failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def engine_predictions(attn, model_file, texts):
    return [json.loads(run([attn, "predict", "--model-file", model_file, "--json", "--text", t])) for t in texts]


def torch_predictions(python, export_dir, texts):
    stdin = "".join(json.dumps(t) + "\n" for t in texts)
    out = run([python, os.path.join(export_dir, "model.py"), "--jsonl"], input=stdin)
    return [json.loads(line) for line in out.splitlines()]


def compare(name, texts, engine, exported):
    """-> a list of mismatch descriptions, and the largest differences seen."""
    problems = []
    worst_p = worst_a = 0.0
    if len(engine) != len(exported):
        return [f"{name}: {len(exported)} predictions from model.py for {len(engine)} texts"], 0, 0
    for i, (e, x) in enumerate(zip(engine, exported)):
        where = f"{name}, text {i} ({texts[i][:40]!r})"
        diff = abs(e["probability"] - x["probability"])
        worst_p = max(worst_p, diff)
        if diff > TOLERANCE:
            problems.append(f"{where}: P(positive) engine {e['probability']} vs model.py {x['probability']}")
        if e["tokens"] != x["tokens"]:
            problems.append(f"{where}: tokens differ\n  engine   {e['tokens']}\n  model.py {x['tokens']}")
            continue
        if ("attention" in e) != (x["attention"] is not None):
            problems.append(f"{where}: attention weights from one side only")
            continue
        if "attention" in e:
            diffs = [abs(a - b) for a, b in zip(e["attention"], x["attention"])]
            if len(e["attention"]) != len(x["attention"]):
                problems.append(f"{where}: {len(x['attention'])} attention weights, engine has {len(e['attention'])}")
            elif diffs and max(diffs) > TOLERANCE:
                problems.append(f"{where}: attention differs by up to {max(diffs):.3g}")
            worst_a = max([worst_a] + diffs)
    return problems, worst_p, worst_a


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--attn", required=True, help="the attn CLI binary")
    parser.add_argument("--work", required=True, help="a scratch folder (emptied first)")
    parser.add_argument("--reviews", type=int, default=50)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    texts = reviews(args.reviews)
    failures = []
    for name, options in MODELS.items():
        model_file = os.path.join(args.work, name + ".attn")
        export_dir = os.path.join(args.work, name)
        run([args.attn, "train", *COMMON, *options, "--save", model_file])
        run([args.attn, "export", "--model-file", model_file, "--format", "pytorch", "--out", export_dir])
        engine = engine_predictions(args.attn, model_file, texts)
        exported = torch_predictions(sys.executable, export_dir, texts)
        problems, worst_p, worst_a = compare(name, texts, engine, exported)
        spread = max(e["probability"] for e in engine) - min(e["probability"] for e in engine)
        print(f"{name}: {len(texts)} reviews, max |ΔP| {worst_p:.2e}, max |Δattention| {worst_a:.2e}, "
              f"P spread {spread:.3f}{'' if not problems else ', FAILED'}")
        if spread < 0.05:
            problems.append(f"{name}: P(positive) varies by only {spread:.3f} over the reviews: the model did not "
                            "train, so the comparison would prove little")
        failures += problems
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(f"pytorch_export: {len(failures)} mismatches")
    print(f"pytorch_export: model.py matches the engine for {len(MODELS)} models on {len(texts)} reviews "
          f"(tolerance {TOLERANCE})")


if __name__ == "__main__":
    main()
