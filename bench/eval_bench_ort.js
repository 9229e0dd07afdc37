// The anchor of the evaluator benchmark: onnxruntime-node (CPU) on the same model, input and
// thread count as onyx_bench_eval, timed the same way: the first run (the session created
// from the file with every graph optimization, 'all', then one run), one more warm-up run,
// then R runs; wall-clock median and minimum.
//
//   node bench/eval_bench_ort.js MODEL.onnx THREADS [REPS] [ONYX_OUTPUTS]
//
// The inputs are NAME.input.json and NAME.input.bin beside NAME.onnx (bench/feeds.js), as for
// onyx_bench_eval. Given ONYX_OUTPUTS
// (what onyx_bench_eval --outputs wrote), compares them with onnxruntime's first run.
//
// Prints "RESULT|onnxruntime|<model>|<threads>|<median ms>|<min ms>",
// "FIRST|onnxruntime|<model>|<threads>|<first run ms>|create <ms> ms" and, comparing,
// "OUTPUTS|<model>|<threads>|<largest |onyx - onnxruntime|>|<largest |onnxruntime|>".
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const {readFeeds} = require('./feeds');

function milliseconds(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// The largest absolute difference between onyx's outputs (raw float32, one after another in
// the graph's order) and onnxruntime's, and the largest absolute value of onnxruntime's; a NaN
// on either side makes the difference NaN.
function compare(onyxFile, session, outputs) {
  const bytes = fs.readFileSync(onyxFile);
  const onyx = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  let offset = 0;
  let difference = 0;
  let largest = 0;
  for (const name of session.outputNames) {
    const values = outputs[name].data;
    if (offset + values.length > onyx.length) {
      throw new Error(`${onyxFile}: ${onyx.length} values, onnxruntime's outputs have more`);
    }
    for (let i = 0; i < values.length; ++i) {
      difference = Math.max(difference, Math.abs(onyx[offset + i] - values[i]));  // keeps NaN
      largest = Math.max(largest, Math.abs(values[i]));
    }
    offset += values.length;
  }
  if (offset !== onyx.length) {
    throw new Error(`${onyxFile}: ${onyx.length} values, onnxruntime's outputs ${offset}`);
  }
  return [difference, largest];
}

async function main() {
  const [model, threadsText, repsText, onyxOutputs] = process.argv.slice(2);
  const threads = Number(threadsText);
  const reps = Number(repsText || 15);
  const feeds = readFeeds(ort, model);

  const createStart = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const createMs = milliseconds(createStart);
  const firstStart = process.hrtime.bigint();
  const firstOutputs = await session.run(feeds);
  const firstMs = createMs + milliseconds(firstStart);
  const once = async () => {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    return milliseconds(start);
  };
  await once();
  const times = [];
  for (let i = 0; i < reps; ++i) times.push(await once());
  times.sort((a, b) => a - b);
  const prefix = `${path.basename(model)}|${threads}`;
  console.log(
      `RESULT|onnxruntime|${prefix}|` +
      `${times[Math.floor(times.length / 2)].toFixed(3)}|${times[0].toFixed(3)}`);
  console.log(`FIRST|onnxruntime|${prefix}|${firstMs.toFixed(3)}|create ${createMs.toFixed(1)} ms`);
  if (onyxOutputs) {
    const [difference, largest] = compare(onyxOutputs, session, firstOutputs);
    console.log(`OUTPUTS|${prefix}|${difference.toExponential(2)}|${largest.toExponential(2)}`);
  }
}

main().catch((error) => {
  console.error(`eval_bench_ort: ${error.message}`);
  process.exit(1);
});
