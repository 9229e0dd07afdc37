// Greedy generation with a decoder LLM of bench/make_llm_models.py (issue 46) on
// onnxruntime-node (CPU) at T intra-op threads; `onyx generate` does the same with onyx
// (bench/llm_bench.sh runs both).
//
//   node bench/llm_bench_ort.js MODEL.onnx [--form std|f32|ort] [--threads T] [--prefill P]
//        [--reps R] [--warmup W] [--prompt D] [--new N] [--seed S] [--logits FILE]
//        [--step-logits FILE] [--qdq-accuracy-level L]
//
//   (i)   prefill: P prompt tokens (default 128) from an empty cache (past of length 0), one
//         run; W untimed runs first (default 1), then R timed (default 3); the median, and
//         P / median as tokens per second. --prefill 0 skips it.
//   (ii)  decode: a D-token prompt (default 512) prefilled from an empty cache, untimed; its
//         last logits give the first token; then N steps (default 128) of one token each, the
//         present cache of a step fed back as the next step's past, each step's input the
//         token the previous one chose by argmax (the first index of the largest logit). The
//         N steps are timed together: N / their time is the decode rate. --new 0 skips it.
//   (iii) tokens: the greedy ids, the prompt's first and then one per step (N + 1); peak
//         resident memory (VmHWM of /proc/self/status, MB); with --logits FILE, the decode
//         prompt's logits [1, D, vocab] written to FILE as raw little-endian float32; with
//         --step-logits FILE, each decode step's logits [N, vocab], the same way.
//
// --qdq-accuracy-level L sets the session entry session.qdq_matmulnbits_accuracy_level. It
// matters for the std form: onnxruntime rewrites DequantizeLinear (int4, blocked) + MatMul
// into its MatMulNBits, and unless told otherwise at accuracy level 4, which quantizes the
// activations to int8 per block (on the 100m model: the prompt's logits off by 5.5% of their
// largest magnitude, the greedy tokens parting from the third on); at 0 it keeps them
// float32 (then within 1e-5 of onyx and of the f32 form). Unset (the default),
// onnxruntime's own default applies.
//
// The prompt: ids from a 64-bit linear congruential generator (x = x * 6364136223846793005 +
// 1442695040888963407 mod 2^64, id = (x >> 33) mod vocab) seeded with S (default 46), the
// same sequence as onyx generate's (pseudoRandomPrompt, onyx/eval/generation.h); the prefill
// prompt is the first P ids, the decode prompt the first D. Positions count from 0;
// attention_mask, where the model takes one, is all ones over past + new tokens. The feeds
// follow the model's inputs (input_ids, position_ids, attention_mask, past_key_values.N.key /
// .value), so all three forms run.
//
// Session: intraOpNumThreads T, interOpNumThreads 1, sequential, graph optimization 'all'.
// Prints one JSON line.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

function parseArgs(argv) {
  const args = {threads: 1, prefill: 128, reps: 3, warmup: 1, prompt: 512, new: 128, seed: 46,
                logits: '', 'step-logits': '', form: '', 'qdq-accuracy-level': ''};
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const key = a.slice(2);
      if (!(key in args)) throw new Error(`unknown option ${a}`);
      const value = argv[++i];
      if (value === undefined) throw new Error(`${a} needs a value`);
      args[key] = typeof args[key] === 'number' ? Number(value) : value;
      if (Number.isNaN(args[key])) throw new Error(`${a}: not a number: ${value}`);
    } else {
      rest.push(a);
    }
  }
  if (rest.length !== 1) {
    throw new Error('usage: llm_bench_ort.js MODEL.onnx [--form F] [--threads T] [--prefill P] ' +
                    '[--reps R] [--warmup W] [--prompt D] [--new N] [--seed S] [--logits FILE] ' +
                    '[--step-logits FILE] [--qdq-accuracy-level L]');
  }
  args.model = rest[0];
  if (!args.form) {
    const match = /^llm_[^_]+_(.+)\.onnx$/.exec(path.basename(args.model));
    args.form = match ? match[1] : '';
  }
  return args;
}

function promptIds(count, vocab, seed) {
  const mask = (1n << 64n) - 1n;
  let x = BigInt(seed) & mask;
  const ids = new BigInt64Array(count);
  for (let i = 0; i < count; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & mask;
    ids[i] = (x >> 33n) % BigInt(vocab);
  }
  return ids;
}

function seconds(start) {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function peakRssMb() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : null;
}

// What the model takes and gives: its vocabulary, its cache inputs with their shapes.
function describe(session) {
  const logits = session.outputMetadata.find((m) => m.name === 'logits');
  const vocab = logits && typeof logits.shape[2] === 'number' ? logits.shape[2] : null;
  if (!vocab) throw new Error('the model has no logits output with a known vocabulary size');
  const caches = session.inputMetadata.filter((m) => m.name.startsWith('past_key_values.'))
      .map((m) => ({name: m.name, present: m.name.replace('past_key_values.', 'present.'),
                    heads: m.shape[1], headSize: m.shape[3]}));
  const inputs = new Set(session.inputNames);
  return {vocab, caches, inputs};
}

// The feeds of one step: `ids` the new tokens, `past` the cache (null: empty), `start` the
// position of the first new token.
function feedsOf(model, ids, start, past) {
  const n = ids.length;
  const feeds = {input_ids: new ort.Tensor('int64', ids, [1, n])};
  if (model.inputs.has('position_ids')) {
    const positions = new BigInt64Array(n);
    for (let i = 0; i < n; i++) positions[i] = BigInt(start + i);
    feeds.position_ids = new ort.Tensor('int64', positions, [1, n]);
  }
  if (model.inputs.has('attention_mask')) {
    const ones = new BigInt64Array(start + n).fill(1n);
    feeds.attention_mask = new ort.Tensor('int64', ones, [1, start + n]);
  }
  for (const cache of model.caches) {
    feeds[cache.name] = past ? past[cache.present]
                             : new ort.Tensor('float32', new Float32Array(0),
                                              [1, cache.heads, 0, cache.headSize]);
  }
  return feeds;
}

// argmax over the last position's logits.
function lastArgmax(logits) {
  const vocab = logits.dims[2];
  const data = logits.data;
  const base = (logits.dims[1] - 1) * vocab;
  let best = 0;
  for (let v = 1; v < vocab; v++) if (data[base + v] > data[base + best]) best = v;
  return best;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const loadStart = process.hrtime.bigint();
  const options = {
    intraOpNumThreads: args.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  };
  if (args['qdq-accuracy-level'] !== '') {
    options.extra = {session: {qdq_matmulnbits_accuracy_level: String(args['qdq-accuracy-level'])}};
  }
  const session = await ort.InferenceSession.create(args.model, options);
  const result = {runtime: 'onnxruntime', version: require('onnxruntime-node/package.json').version,
                  model: path.basename(args.model), form: args.form, threads: args.threads,
                  load_seconds: seconds(loadStart)};
  if (args['qdq-accuracy-level'] !== '') {
    result.qdq_accuracy_level = Number(args['qdq-accuracy-level']);
  }
  const model = describe(session);

  if (args.prefill > 0) {
    const ids = promptIds(args.prefill, model.vocab, args.seed);
    const times = [];
    for (let r = 0; r < args.warmup + args.reps; r++) {
      const start = process.hrtime.bigint();
      await session.run(feedsOf(model, ids, 0, null));
      const t = seconds(start);
      if (r === 0) result.prefill_first_seconds = t;
      if (r >= args.warmup) times.push(t);
    }
    result.prefill_tokens = args.prefill;
    result.prefill_reps = times.length;
    result.prefill_seconds = median(times);
    result.prefill_tokens_per_second = args.prefill / result.prefill_seconds;
  }

  if (args.new > 0 || args.logits) {
    const ids = promptIds(args.prompt, model.vocab, args.seed);
    let start = process.hrtime.bigint();
    let outputs = await session.run(feedsOf(model, ids, 0, null));
    result.decode_prompt_tokens = args.prompt;
    result.decode_prompt_seconds = seconds(start);
    if (args.logits) {
      const data = outputs.logits.data;
      fs.writeFileSync(args.logits, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      result.logits_file = args.logits;
      result.logits_dims = outputs.logits.dims;
    }
    const tokens = [lastArgmax(outputs.logits)];
    const stepTimes = [];
    const stepLogits = args['step-logits'] ? fs.openSync(args['step-logits'], 'w') : null;
    for (let step = 0; step < args.new; step++) {
      const token = BigInt64Array.of(BigInt(tokens[tokens.length - 1]));
      const feeds = feedsOf(model, token, args.prompt + step, outputs);
      start = process.hrtime.bigint();
      outputs = await session.run(feeds);
      stepTimes.push(seconds(start));
      tokens.push(lastArgmax(outputs.logits));
      if (stepLogits !== null) {
        const data = outputs.logits.data;
        fs.writeSync(stepLogits, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      }
    }
    if (stepLogits !== null) {
      fs.closeSync(stepLogits);
      result.step_logits_file = args['step-logits'];
    }
    if (args.new > 0) {
      const total = stepTimes.reduce((a, b) => a + b, 0);
      result.decode_tokens = args.new;
      result.decode_seconds = total;
      result.decode_tokens_per_second = args.new / total;
      result.decode_step_ms_median = median(stepTimes) * 1e3;
    }
    result.tokens = tokens;
  }
  result.peak_rss_mb = peakRssMb();
  console.log(JSON.stringify(result));
}

main().catch((error) => {
  console.error(`llm_bench_ort: ${error.message}`);
  process.exit(1);
});
