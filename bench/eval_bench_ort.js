// The anchor of the evaluator benchmark: onnxruntime-node (CPU) on the same model, input
// shape and thread count as onyx_bench_eval, timed the same way (a session created once,
// two warm-up runs, then R runs; wall-clock median and minimum).
//
//   node bench/eval_bench_ort.js MODEL THREADS [REPS]
//
// Prints "RESULT|onnxruntime|<model>|<threads>|<median ms>|<min ms>".
'use strict';
const path = require('path');
const ort = require('onnxruntime-node');

async function main() {
  const [model, threadsText, repsText] = process.argv.slice(2);
  const threads = Number(threadsText);
  const reps = Number(repsText || 15);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const name = session.inputNames[0];
  const meta = session.inputMetadata ? session.inputMetadata[0] : null;
  const shape = meta && meta.shape ? meta.shape : JSON.parse(process.env.INPUT_SHAPE);
  const count = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  let state = 11;
  for (let i = 0; i < count; ++i) {
    state = (state * 1103515245 + 12345) % 2147483648;
    data[i] = (state / 2147483648) * 2 - 1;
  }
  const feeds = {[name]: new ort.Tensor('float32', data, shape)};
  const once = async () => {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  await once();
  await once();
  const times = [];
  for (let i = 0; i < reps; ++i) times.push(await once());
  times.sort((a, b) => a - b);
  console.log(`RESULT|onnxruntime|${path.basename(model)}|${threads}|` +
              `${times[Math.floor(times.length / 2)].toFixed(3)}|${times[0].toFixed(3)}`);
}

main().catch((error) => {
  console.error(`eval_bench_ort: ${error.message}`);
  process.exit(1);
});
