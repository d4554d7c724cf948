#!/usr/bin/python3
"""Prints nltk's corpus BLEU for every case of tests/fixtures/bleu_cases.txt, so the doctest
case translation_metrics.bleu_matches_nltk can compare the engine against an independent
implementation (Debian's python3-nltk; scripts/setup.sh all installs it).

Output, one line per case: "<name> <bleu without smoothing> <bleu with method3 smoothing>",
both in [0, 1] as nltk returns them, printed with repr() (17 significant digits).
Exit status 77 with a message naming the package when nltk is not installed.
"""
import sys
import warnings


def read_cases(path):
    cases, name, hyps, refs = [], None, [], []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            word, _, rest = line.partition(" ")
            if word == "case":
                name, hyps, refs = rest, [], []
            elif word == "hyp":
                hyps.append(rest.split(" "))
            elif word == "ref":
                refs.append([r.split(" ") for r in rest.split(" | ")])
            elif word == "end":
                cases.append((name, hyps, refs))
            else:
                raise SystemExit("%s: unexpected line %r" % (path, line))
    return cases


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: check_bleu.py tests/fixtures/bleu_cases.txt")
    try:
        from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    except ImportError:
        print("python3-nltk is not installed (apt-get install python3-nltk, or scripts/setup.sh all)")
        return 77
    warnings.simplefilter("ignore")  # nltk warns about zero counts; the zero is what we compare
    for name, hyps, refs in read_cases(sys.argv[1]):
        plain = corpus_bleu(refs, hyps)
        smoothed = corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method3)
        print("%s %r %r" % (name, float(plain), float(smoothed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
