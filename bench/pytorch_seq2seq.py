"""PyTorch twins of the translation models' training step (issue 27; bench/translation_bench.mjs
compares them with the engine in Chromium, `attn_bench train transformer-seq2seq` natively).

Both at the sizes issue 27 compares: batch 64, 10 source tokens, targets of BOS + 9 tokens + EOS
(10 decoder positions), vocabularies of 6,000 per side, Adam (lr 0.001), global-norm clipping at 5
(the engine's trainer clips; Seq2SeqTrainerConfig.clip_norm), cross-entropy ignoring PAD.

  transformer  pre-norm Transformer encoder-decoder: d_model 128, 4 heads, feed-forward 512 (ReLU),
               2 + 2 blocks, dropout 0.1, label smoothing 0.1; embed × sqrt(d) + sinusoidal
               positions, final LayerNorms, one output projection over every position.
  rnnsearch    Bahdanau et al.'s RNNsearch as the engine builds it (models/seq2seq.hpp):
               embeddings 128, a bidirectional GRU encoder of 128 units a direction (PyTorch's GRU
               is the engine's: reset gate after the recurrent product), s_0 = tanh(W ←h_1 + b),
               additive attention v·tanh(W1 s_{t-1} + W2 h_j) (no biases, dim 128), a GRU decoder
               cell of 256 units on [E y_{t-1}; c_t], logits from [s_t; c_t]; teacher forcing.

A step is what ours is: zero the gradients, forward, loss, backward, clip, Adam. Prints one JSON
line per model ({"impl": "pytorch", "kernel": "train_step", ...}): CPU time and wall time per step
(medians over samples; the fastest sample's wall time too) and pairs/s by the wall clock.

Usage: /usr/bin/python3 bench/pytorch_seq2seq.py [--model transformer|rnnsearch|both]
                                                 [--threads N] [--steps STEPS_PER_SAMPLE] [--samples N]
"""

import argparse
import json
import math
import os
import sys
import time


def parse():
    p = argparse.ArgumentParser()
    p.add_argument('--model', default='both', choices=['transformer', 'rnnsearch', 'both'])
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--steps', type=int, default=3, help='steps per sample')
    p.add_argument('--samples', type=int, default=7)
    # The old positional form (steps per sample) still works.
    p.add_argument('legacy_steps', nargs='?', type=int)
    return p.parse_args()


ARGS = parse()
# Set before torch loads its BLAS: Debian's torch multiplies through OpenBLAS (pthread build),
# whose idle pool threads would otherwise spin and count in the process CPU time.
os.environ['OPENBLAS_NUM_THREADS'] = str(ARGS.threads)
os.environ['OMP_NUM_THREADS'] = str(ARGS.threads)

import torch  # noqa: E402
from torch import nn  # noqa: E402

BATCH, SOURCE_LEN, TARGET_LEN, VOCAB = 64, 10, 11, 6000
D_MODEL, HEADS, FF, LAYERS, DROPOUT, SMOOTHING = 128, 4, 512, 2, 0.1, 0.1
EMBED, UNITS, ATTENTION = 128, 128, 128
CLIP = 5.0


def sinusoidal(length, dim):
    position = torch.arange(length, dtype=torch.float64).unsqueeze(1)
    rate = torch.pow(10000.0, -torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    table = torch.zeros(length, dim, dtype=torch.float64)
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate)
    return table.float()


class TransformerSeq2Seq(nn.Module):
    smoothing = SMOOTHING

    def __init__(self):
        super().__init__()
        self.source_embedding = nn.Embedding(VOCAB, D_MODEL, padding_idx=0)
        self.target_embedding = nn.Embedding(VOCAB, D_MODEL, padding_idx=0)
        self.transformer = nn.Transformer(
            d_model=D_MODEL, nhead=HEADS, num_encoder_layers=LAYERS, num_decoder_layers=LAYERS,
            dim_feedforward=FF, dropout=DROPOUT, batch_first=True, norm_first=True)
        self.output = nn.Linear(D_MODEL, VOCAB)
        self.dropout = nn.Dropout(DROPOUT)
        self.register_buffer('positions', sinusoidal(64, D_MODEL))
        self.register_buffer('causal', nn.Transformer.generate_square_subsequent_mask(TARGET_LEN - 1))

    def forward(self, source, decoder_input):
        scale = math.sqrt(D_MODEL)
        x = self.dropout(self.source_embedding(source) * scale + self.positions[: source.shape[1]])
        y = self.dropout(self.target_embedding(decoder_input) * scale + self.positions[: decoder_input.shape[1]])
        h = self.transformer(x, y, tgt_mask=self.causal, src_key_padding_mask=source == 0,
                             tgt_key_padding_mask=decoder_input == 0, memory_key_padding_mask=source == 0)
        return self.output(h).reshape(-1, VOCAB)


class RNNsearch(nn.Module):
    smoothing = 0.0

    def __init__(self):
        super().__init__()
        self.source_embedding = nn.Embedding(VOCAB, EMBED, padding_idx=0)
        self.encoder = nn.GRU(EMBED, UNITS, batch_first=True, bidirectional=True)
        self.init = nn.Linear(UNITS, 2 * UNITS)
        self.target_embedding = nn.Embedding(VOCAB, EMBED, padding_idx=0)
        self.decoder = nn.GRUCell(EMBED + 2 * UNITS, 2 * UNITS)
        self.w1 = nn.Linear(2 * UNITS, ATTENTION, bias=False)
        self.w2 = nn.Linear(2 * UNITS, ATTENTION, bias=False)
        self.v = nn.Linear(ATTENTION, 1, bias=False)
        self.output = nn.Linear(4 * UNITS, VOCAB)

    def forward(self, source, decoder_input):
        annotations, last = self.encoder(self.source_embedding(source))  # [B, Tx, 2U], [2, B, U]
        s = torch.tanh(self.init(last[1]))  # from ←h_1
        keys = self.w2(annotations)
        pad = (source == 0).unsqueeze(-1)
        embedded = self.target_embedding(decoder_input)
        outs = []
        for t in range(decoder_input.shape[1]):
            scores = self.v(torch.tanh(self.w1(s).unsqueeze(1) + keys)).masked_fill(pad, float('-inf'))
            weights = torch.softmax(scores, dim=1)
            context = (weights * annotations).sum(dim=1)
            s = self.decoder(torch.cat([embedded[:, t], context], dim=-1), s)
            outs.append(torch.cat([s, context], dim=-1))
        return self.output(torch.stack(outs, dim=1)).reshape(-1, VOCAB)


def bench(name, make, steps, samples):
    torch.manual_seed(1)
    model = make()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss(ignore_index=0, label_smoothing=model.smoothing)
    source = torch.randint(4, VOCAB, (BATCH, SOURCE_LEN))
    target = torch.randint(4, VOCAB, (BATCH, TARGET_LEN))
    target[:, 0] = 1
    target[:, -1] = 2
    decoder_input, labels = target[:, :-1], target[:, 1:].reshape(-1)
    model.train()

    def step():
        optimizer.zero_grad()
        loss = loss_fn(model(source, decoder_input), labels)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        optimizer.step()
        return loss.item()

    for _ in range(3):  # warm-up
        step()
    cpu, wall = [], []
    for _ in range(samples):
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(steps):
            step()
        cpu.append((time.process_time() - c0) / steps)
        wall.append((time.perf_counter() - w0) / steps)
    cpu.sort()
    wall.sort()
    params = sum(p.numel() for p in model.parameters())
    return {
        'impl': 'pytorch', 'torch': torch.__version__, 'threads': torch.get_num_threads(),
        'kernel': 'train_step', 'model': name, 'batch': BATCH, 'source_len': SOURCE_LEN,
        'target_len': TARGET_LEN - 1, 'vocab': VOCAB, 'params': params,
        'ms_per_step': round(cpu[samples // 2] * 1e3, 2),
        'ms_per_step_wall': round(wall[samples // 2] * 1e3, 2),
        'ms_per_step_fastest_wall': round(wall[0] * 1e3, 2),
        'pairs_per_second_wall': round(BATCH / wall[samples // 2], 1),
        'target_tokens_per_s': round(BATCH * (TARGET_LEN - 1) / cpu[samples // 2]),
        'clock': 'cpu', 'load_average': [round(x, 2) for x in os.getloadavg()]}


def main():
    torch.set_num_threads(ARGS.threads)
    steps = ARGS.legacy_steps or ARGS.steps
    models = {'transformer': ('transformer-seq2seq', TransformerSeq2Seq), 'rnnsearch': ('rnnsearch', RNNsearch)}
    chosen = list(models) if ARGS.model == 'both' else [ARGS.model]
    for key in chosen:
        name, make = models[key]
        print(json.dumps(bench(name, make, steps, ARGS.samples)), flush=True)


if __name__ == '__main__':
    sys.exit(main())
