"""How often an exported translator's model.py gives the engine's translation, on any sentences
(docs/pytorch.md, "Translators": the measured agreement on real models).

    python3 tests/pytorch/compare_translations.py --attn build/native/attn --model-file M \\
        --input sentences.txt [--beam K] [--limit N]

Exports M to a scratch folder with `attn export --format pytorch`, translates every sentence of
--input (one per line; before a tab, if any, so a pairs file gives its sources) with
`attn translate --input` and with `model.py --jsonl`, and prints how many outputs are identical,
listing the first differences. Exit code 1 when any differs.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command[:3])} ... failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--attn", required=True)
    parser.add_argument("--model-file", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--beam", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="the first N sentences only (0: all)")
    args = parser.parse_args()
    with open(args.input, encoding="utf-8") as f:
        sentences = [line.rstrip("\n").split("\t")[0].strip(" \t") for line in f]
    sentences = [s for s in sentences if s]
    if args.limit:
        sentences = sentences[: args.limit]
    with tempfile.TemporaryDirectory() as work:
        export = os.path.join(work, "export")
        run([args.attn, "export", "--model-file", args.model_file, "--format", "pytorch", "--out", export])
        listing = os.path.join(work, "sentences.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.write("".join(s + "\n" for s in sentences))
        engine = [json.loads(line) for line in run([args.attn, "translate", "--model-file", args.model_file,
                                                    "--input", listing, "--beam", str(args.beam)]).splitlines()]
        stdin = "".join(json.dumps(s) + "\n" for s in sentences)
        exported = [json.loads(line) for line in run([sys.executable, os.path.join(export, "model.py"), "--jsonl",
                                                      "--beam", str(args.beam)], input=stdin).splitlines()]
    if len(engine) != len(sentences) or len(exported) != len(sentences):
        sys.exit(f"{len(sentences)} sentences, {len(engine)} engine outputs, {len(exported)} model.py outputs")
    differ = [(s, e["output"], x["text"]) for s, e, x in zip(sentences, engine, exported) if e["output"] != x["text"]]
    for s, e, x in differ[:10]:
        print(f"  {s!r}\n    engine   {e!r}\n    model.py {x!r}")
    print(f"{len(sentences) - len(differ)}/{len(sentences)} translations identical (beam {args.beam})")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
