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
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const {readFeeds} = require('./feeds');

function milliseconds(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function run(model, feeds) {
  const session = await ort.InferenceSession.create(model, {graphOptimizationLevel: 'disabled'});
  return session.run(feeds);
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
    if (!(difference <= worst)) {
      worst = difference;
      worstName = name;
    }
  }
  console.log(`MAXREL|${path.basename(original)}|${label}|${worst.toExponential(2)}|${worstName}`);
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'optimize' && args.length === 2) return optimize(...args);
  if (command === 'compare' && args.length === 3) return compare(...args);
  throw new Error('usage: optimize IN OUT | compare ORIGINAL OTHER LABEL');
}

main().catch((error) => {
  console.error(`optimize_bench_ort: ${error.message}`);
  process.exit(1);
});
