"""PyTorch twin of `attn_bench train transformer-seq2seq` (bench/bench_kernels.cpp).

Times training steps of a pre-norm Transformer encoder-decoder of the same sizes on one CPU
thread: batch 64, 10 source tokens, targets of BOS + 9 tokens + EOS (10 decoder positions),
vocabularies of 6,000 per side, d_model 128, 4 heads, feed-forward 512 (ReLU), 2 + 2 blocks,
dropout 0.1, label smoothing 0.1, Adam. A step is what ours is: zero the gradients, embed
(x sqrt(d) + sinusoidal positions), encoder, decoder with a causal mask, final LayerNorms, one
output projection over every position, cross-entropy ignoring PAD, backward, Adam.

Prints one JSON line like bench_kernels' ({"impl":"pytorch", ..., "ms_per_step": ...}); the
figure is the median over samples of CPU time per step (process time), as ours.

Usage: /usr/bin/python3 bench/pytorch_transformer_seq2seq.py [steps_per_sample]
"""

import json
import math
import os
import sys
import time

# One thread everywhere, set before torch loads its BLAS: Debian's torch multiplies through
# OpenBLAS (pthread build), whose idle pool threads would otherwise spin and count in the
# process CPU time (bench_kernels.cpp pins its OpenBLAS comparison to one thread likewise).
os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')
os.environ.setdefault('OMP_NUM_THREADS', '1')

import torch  # noqa: E402
from torch import nn  # noqa: E402

BATCH, SOURCE_LEN, TARGET_LEN, VOCAB = 64, 10, 11, 6000
D_MODEL, HEADS, FF, LAYERS, DROPOUT, SMOOTHING = 128, 4, 512, 2, 0.1, 0.1
SAMPLES = 7


def sinusoidal(length, dim):
    position = torch.arange(length, dtype=torch.float64).unsqueeze(1)
    rate = torch.pow(10000.0, -torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    table = torch.zeros(length, dim, dtype=torch.float64)
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate)
    return table.float()


class TransformerSeq2Seq(nn.Module):
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


def main():
    torch.set_num_threads(1)
    torch.manual_seed(1)
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    model = TransformerSeq2Seq()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss(ignore_index=0, label_smoothing=SMOOTHING)
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
        optimizer.step()
        return loss.item()

    for _ in range(3):  # warm-up
        step()
    cpu, wall = [], []
    for _ in range(SAMPLES):
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(steps):
            step()
        cpu.append((time.process_time() - c0) / steps)
        wall.append((time.perf_counter() - w0) / steps)
    cpu.sort()
    wall.sort()
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({
        'impl': 'pytorch', 'torch': torch.__version__, 'threads': torch.get_num_threads(),
        'kernel': 'train_step', 'model': 'transformer-seq2seq', 'batch': BATCH, 'source_len': SOURCE_LEN,
        'target_len': TARGET_LEN - 1, 'vocab': VOCAB, 'params': params,
        'ms_per_step': round(cpu[SAMPLES // 2] * 1e3, 2),
        'target_tokens_per_s': round(BATCH * (TARGET_LEN - 1) / cpu[SAMPLES // 2]),
        'ms_per_step_wall': round(wall[SAMPLES // 2] * 1e3, 2),
        'ms_per_step_fastest_wall': round(wall[0] * 1e3, 2), 'clock': 'cpu'}))


if __name__ == '__main__':
    main()
