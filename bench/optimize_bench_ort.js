// The optimiser benchmark's onnxruntime side (bench/optimize_bench.sh), two commands:
//
//   node bench/optimize_bench_ort.js optimize IN.onnx OUT.onnx
//     onnxruntime's 'basic' graph optimisation (constant folding, redundant node elimination,
//     the Conv/BatchNormalization/MatMul fusions that stay standard ONNX) on IN, written to
//     OUT through optimizedModelFilePath. Only the session is created: the shell times this
//     whole process. Weights of 1 KiB or more go to OUT.data when IN keeps its own in
//     external data (a model of 1.2 GB would otherwise be written inline).
//     Prints "ORT|<model>|<session creation ms>".
//
//   node bench/optimize_bench_ort.js compare ORIGINAL.onnx OTHER.onnx LABEL
//     Runs both models on the inputs of ORIGINAL (NAME.input.json and NAME.input.bin beside
//     NAME.onnx, written by make_optimize_models.py), each exactly as written (optimisation
//     'disabled'), and compares every output of ORIGINAL with OTHER's of the same name: the
//     largest |original - other| over the largest |original| of that output (the absolute
//     difference where the output is all zeros), the largest over all outputs. An output
//     missing, of another shape, or with a NaN on one side only counts as Infinity.
//     Prints "MAXREL|<model>|<LABEL>|<largest relative difference>|<worst output>".
//   node bench/optimize_bench_ort.js outputs MODEL.onnx FEEDS_OF.onnx OUT.json
//     Runs MODEL on the inputs of FEEDS_OF (as compare feeds OTHER) and writes its outputs to
//     OUT.json, {name: {dims, data}}, for a script to measure (bench/surgery_bench.py).
//
//     With EACH_OUTPUT=1 in the environment, also "OUTREL|<model>|<LABEL>|<output>|<difference>"
//     for every output.
//     OTHER may take and give float16 where ORIGINAL has float32 (onyx convert --float16): its
//     float inputs are the same values rounded to float16, its float16 outputs read as numbers.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const {readFeeds} = require('./feeds');

function milliseconds(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// float32 to float16's bits, rounded to nearest even (values beyond its range to infinity).
function halfBits(value) {
  const floats = new Float32Array([value]);
  const bits = new Uint32Array(floats.buffer)[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  let halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - halfExponent;
    let half = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const middle = 1 << (shift - 1);
    if (rest > middle || (rest === middle && (half & 1))) half += 1;
    return sign | half;
  }
  let half = (halfExponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half += 1;
  return sign | half;
}

// float16's bits as a number.
function halfValue(bits) {
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  const sign = bits & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

async function run(model, feeds) {
  const session = await ort.InferenceSession.create(model, {graphOptimizationLevel: 'disabled'});
  const typed = {};
  for (const input of session.inputMetadata) {
    const feed = feeds[input.name];
    if (feed && input.isTensor && input.type === 'float16' && feed.type === 'float32') {
      typed[input.name] = new ort.Tensor('float16', Uint16Array.from(feed.data, halfBits), feed.dims);
    } else if (feed) {
      typed[input.name] = feed;
    }
  }
  const outputs = await session.run(typed);
  for (const [name, output] of Object.entries(outputs)) {
    if (output.type === 'float16' && output.data instanceof Uint16Array) {
      outputs[name] = {dims: output.dims, data: Float64Array.from(output.data, halfValue)};
    }
  }
  return outputs;
}

function relativeDifference(expected, actual) {
  if (!actual) return Infinity;
  if (expected.dims.length !== actual.dims.length ||
      expected.dims.some((d, i) => d !== actual.dims[i])) {
    return Infinity;
  }
  let difference = 0;
  let largest = 0;
  for (let i = 0; i < expected.data.length; ++i) {
    const a = Number(expected.data[i]);
    const b = Number(actual.data[i]);
    if (Number.isNaN(a) || Number.isNaN(b)) {
      if (Number.isNaN(a) !== Number.isNaN(b)) return Infinity;
      continue;
    }
    difference = Math.max(difference, Math.abs(a - b));
    largest = Math.max(largest, Math.abs(a));
  }
  return largest > 0 ? difference / largest : difference;
}

async function optimize(input, output) {
  const options = {graphOptimizationLevel: 'basic', optimizedModelFilePath: output};
  if (fs.existsSync(`${input}.data`)) {
    options.extra = {
      session: {
        optimized_model_external_initializers_file_name: `${path.basename(output)}.data`,
        optimized_model_external_initializers_min_size_in_bytes: '1024',
      },
    };
  }
  const start = process.hrtime.bigint();
  await ort.InferenceSession.create(input, options);
  console.log(`ORT|${path.basename(input)}|${milliseconds(start).toFixed(1)}`);
}

async function compare(original, other, label) {
  const feeds = readFeeds(ort, original);
  const expected = await run(original, feeds);
  const actual = await run(other, feeds);
  let worst = 0;
  let worstName = '-';
  for (const name of Object.keys(expected)) {
    const difference = relativeDifference(expected[name], actual[name]);
    if (process.env.EACH_OUTPUT) {
      console.log(`OUTREL|${path.basename(original)}|${label}|${name}|${difference.toExponential(2)}`);
    }
    if (!(difference <= worst)) {
      worst = difference;
      worstName = name;
    }
  }
  console.log(`MAXREL|${path.basename(original)}|${label}|${worst.toExponential(2)}|${worstName}`);
}

async function outputs(model, feedsOf, out) {
  const results = await run(model, readFeeds(ort, feedsOf));
  const written = {};
  for (const [name, value] of Object.entries(results)) {
    written[name] = {dims: value.dims, data: Array.from(value.data, Number)};
  }
  fs.writeFileSync(out, JSON.stringify(written));
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'optimize' && args.length === 2) return optimize(...args);
  if (command === 'compare' && args.length === 3) return compare(...args);
  if (command === 'outputs' && args.length === 3) return outputs(...args);
  throw new Error('usage: optimize IN OUT | compare ORIGINAL OTHER LABEL | outputs MODEL FEEDS_OF OUT');
}

main().catch((error) => {
  console.error(`optimize_bench_ort: ${error.message}`);
  process.exit(1);
});
