"""The exported translators' model.py against the engine (doctest:
pytorch_translator_export.model_py_matches_engine, tests/test_pytorch_translator_export.cpp).

    python3 tests/pytorch/check_translator_export.py WORK

WORK holds one folder per exported model: the four files of `attn export --format pytorch` and
expected.json, what the engine computed from the same model file. For each model this checks

  * tokens: Vocabulary.split() of model.py equals the engine's split, sentence by sentence, and
    Vocabulary.join() of those tokens the engine's text (word models: both sides, so the mt
    tokenizer's detokeniser too);
  * teacher forcing: the logits of a padded batch of pairs equal the engine's to 1e-4 (for the
    Transformer also through to_nn_transformer(), PyTorch's own torch.nn.Transformer);
  * translations: greedy and beam search (width 3, alpha 0.6) give the engine's token ids, text,
    finished flag and log p (to 1e-3), through translate() and, greedily, through the command
    line (`model.py --jsonl` in its own process, as a user runs it);
  * that the model trained (at least 3 distinct greedy outputs), and that the logits check can fail: one weight broken on purpose (a square matrix transposed, or
    a recurrent weight's gates rotated) must move the logits by more than 10x the tolerance.

Prints one line per model and exits 1 listing every mismatch; exits 77 (skipped) when torch
cannot be imported.
"""

import importlib.util
import json
import os
import subprocess
import sys

TOLERANCE = 1e-4
LOG_PROB_TOLERANCE = 1e-3

try:
    import torch
except ImportError:
    print(
        f"{sys.executable} cannot import torch: install Debian's python3-torch (apt-get install python3-torch, "
        "or scripts/setup.sh all) or configure with -DATTN_PYTHON=<a Python with PyTorch>"
    )
    sys.exit(77)


def load_module(directory, name):
    spec = importlib.util.spec_from_file_location(f"exported_{name.replace('-', '_')}", os.path.join(directory, "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nn_transformer_logits(model):
    """Teacher forcing through model.to_nn_transformer(): (sources, targets) -> logits [B, T, Vt]."""
    nt = model.to_nn_transformer().eval()
    pad = 0

    def logits(sources, targets):
        tx, ty = max(len(s) for s in sources), max(len(t) for t in targets)
        source = torch.tensor([s + [pad] * (tx - len(s)) for s in sources])
        target_in = torch.tensor([t[:-1] + [pad] * (ty - len(t)) for t in targets])
        with torch.no_grad():
            x = model.embed(model.source_embedding, source)
            y = model.embed(model.target_embedding, target_in)
            causal = torch.nn.Transformer.generate_square_subsequent_mask(y.shape[1])
            h = nt(x, y, tgt_mask=causal, src_key_padding_mask=source == pad, memory_key_padding_mask=source == pad)
            return model.output(h)

    return logits


def max_logit_difference(translator, teacher, logits_of=None):
    """-> the largest |engine - model.py| over every real position of the batch."""
    logits = (logits_of or translator.logits)(teacher["sources"], teacher["targets"])
    worst = 0.0
    for b, rows in enumerate(teacher["logits"]):
        expected = torch.tensor(rows)
        worst = max(worst, float((logits[b, : len(rows)] - expected).abs().max()))
    return worst


def sabotage(model):
    """Breaks one weight in place the way an export bug would -> (description, undo)."""
    for name, p in model.named_parameters():
        if p.dim() == 2 and p.shape[0] == p.shape[1] and not torch.equal(p, p.t()):
            saved = p.detach().clone()
            with torch.no_grad():
                p.copy_(saved.t())
            return f"{name} transposed", lambda: p.data.copy_(saved)
    for name, p in model.named_parameters():
        if "weight_hh" in name:
            saved = p.detach().clone()
            with torch.no_grad():
                p.copy_(saved.roll(p.shape[1], dims=0))
            return f"{name} gates rotated", lambda: p.data.copy_(saved)
    raise AssertionError("no weight to break")


def compare_decoded(where, expected, got, problems):
    if got["ids"] != expected["ids"]:
        problems.append(f"{where}: ids {got['ids']} (model.py) vs {expected['ids']} (engine)")
        return False
    if got["text"] != expected["output"]:
        problems.append(f"{where}: text {got['text']!r} vs {expected['output']!r}")
    if got["finished"] != expected["finished"]:
        problems.append(f"{where}: finished {got['finished']} vs {expected['finished']}")
    if abs(got["log_prob"] - expected["log_prob"]) > LOG_PROB_TOLERANCE:
        problems.append(f"{where}: log p {got['log_prob']} vs {expected['log_prob']}")
    return True


def check(directory, problems):
    with open(os.path.join(directory, "expected.json"), encoding="utf-8") as f:
        expected = json.load(f)
    name = expected["name"]
    translator = load_module(directory, name).load(directory)
    count = len(problems)

    token_hits = 0
    for case in expected["tokens"]:
        vocabulary = getattr(translator, case["side"])
        got = vocabulary.split(case["text"])
        joined = vocabulary.join(case["tokens"])
        if got != case["tokens"]:
            problems.append(f"{name}: {case['side']} tokens of {case['text']!r}\n  engine   {case['tokens']}\n"
                            f"  model.py {got}")
        elif joined != case["joined"]:
            problems.append(f"{name}: {case['side']} text of {case['tokens']}\n  engine   {case['joined']!r}\n"
                            f"  model.py {joined!r}")
        else:
            token_hits += 1

    teacher = expected["teacher_forcing"]
    worst = max_logit_difference(translator, teacher)
    if worst > TOLERANCE:
        problems.append(f"{name}: teacher-forced logits differ by up to {worst:.3g}")
    nn_worst = None
    if hasattr(translator.model, "to_nn_transformer"):
        nn_worst = max_logit_difference(translator, teacher, nn_transformer_logits(translator.model))
        if nn_worst > TOLERANCE:
            problems.append(f"{name}: torch.nn.Transformer's logits differ from the engine's by up to {nn_worst:.3g}")
    broken, undo = sabotage(translator.model)
    caught = max_logit_difference(translator, teacher)
    undo()
    if caught <= 10 * TOLERANCE:
        problems.append(f"{name}: with {broken} the logits moved by only {caught:.3g}: the check cannot fail")

    greedy_hits = beam_hits = 0
    for case in expected["greedy"]:
        got = translator.translate(case["text"])
        greedy_hits += compare_decoded(f"{name}, greedy {case['text']!r}", case, got, problems)
    beam = expected["beam"]
    for case in beam["results"]:
        got = translator.translate(case["text"], beam=beam["width"], alpha=beam["alpha"])
        beam_hits += compare_decoded(f"{name}, beam {case['text']!r}", case, got, problems)
    outputs = {case["output"] for case in expected["greedy"]}
    if len(outputs) < 3:
        problems.append(f"{name}: the engine translates {len(expected['greedy'])} sentences into only {len(outputs)} "
                        "distinct outputs: the model did not train, so the comparison would prove little")

    # The command line, in its own process.
    stdin = "".join(json.dumps(case["text"]) + "\n" for case in expected["greedy"])
    run = subprocess.run([sys.executable, os.path.join(directory, "model.py"), "--jsonl"], input=stdin,
                         capture_output=True, text=True)
    lines = run.stdout.splitlines()
    cli_hits = 0
    if run.returncode != 0 or len(lines) != len(expected["greedy"]):
        problems.append(f"{name}: model.py --jsonl exited {run.returncode} with {len(lines)} lines:\n{run.stderr}")
    else:
        for case, line in zip(expected["greedy"], lines):
            cli_hits += compare_decoded(f"{name}, model.py --jsonl {case['text']!r}", case, json.loads(line), problems)

    n = len(expected["greedy"])
    via_nn = "" if nn_worst is None else f" (torch.nn.Transformer: {nn_worst:.2e})"
    print(f"{name}: tokens {token_hits}/{len(expected['tokens'])}, max |Δ logit| {worst:.2e}{via_nn} "
          f"(with {broken}: {caught:.2e}), greedy {greedy_hits}/{n}, beam {beam_hits}/{n}, "
          f"model.py --jsonl {cli_hits}/{n}, {len(outputs)} distinct outputs"
          f"{'' if len(problems) == count else ', FAILED'}")


def main():
    work = sys.argv[1]
    problems = []
    folders = sorted(d for d in os.listdir(work) if os.path.isfile(os.path.join(work, d, "expected.json")))
    if not folders:
        sys.exit(f"{work}: no exported model with an expected.json")
    for folder in folders:
        check(os.path.join(work, folder), problems)
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"model.py matches the engine for {len(folders)} translators (logits to {TOLERANCE})")


if __name__ == "__main__":
    main()
