// The anchor of the serving benchmark (issue 45): onnxruntime-node (CPU) on ONE
// InferenceSession under the load onyx_bench_serve puts on one Evaluator: C callers, each an
// async loop awaiting session.run again and again until N runs have started between them,
// every run at one intra-op thread. Timed as onyx_bench_serve times: per caller count, one
// untimed run per caller together, then the N runs; throughput N over the wall-clock time,
// latency per run (from the call to the resolved promise), p50 and p99 by nearest rank,
// cores busy as the process's CPU time over the wall-clock time.
//
//   node bench/serve_bench_ort.js MODEL.onnx [CALLERS] [RUNS]      (CALLERS: 1,2,4,8)
//
// onnxruntime-node 1.30 runs a session's run() synchronously on the JavaScript thread (its
// InferenceSession.run resolves the promise from a setImmediate callback that calls the
// native run), so C calls in flight take turns: the libuv thread pool is not used, and cores
// busy stays near 1 at every C. Run from serve_bench.sh with UV_THREADPOOL_SIZE=8 all the
// same, in case a later version moves runs to the pool.
//
// The inputs are those of eval_bench_ort.js (bench/feeds.js). Every run's outputs are
// compared, bit for bit, with those of a lone run made first.
//
// Prints per caller count
//   "SERVE|onnxruntime|<model>|<callers>|<runs>|<runs/s>|<p50 ms>|<p99 ms>|<cores busy>|
//    <mismatches>" (one line).
'use strict';
const path = require('path');
const ort = require('onnxruntime-node');
const {readFeeds} = require('./feeds');

// More differences than this per caller count are counted but not printed.
const MISMATCHES_PRINTED = 5;

function milliseconds(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// The value at `fraction` of the sorted `values` by nearest rank (as onyx_bench_serve).
function percentile(sorted, fraction) {
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
}

function bytesOf(tensor) {
  const data = tensor.data;
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

// Where `outputs` differ from the lone run's (`reference`, bytes and dims per output name),
// or '' when bit-identical.
function difference(session, reference, outputs) {
  for (const name of session.outputNames) {
    const expected = reference[name];
    const got = outputs[name];
    if (got.dims.join(',') !== expected.dims.join(',')) return `output ${name}: another shape`;
    if (bytesOf(got).compare(expected.bytes) !== 0) return `output ${name}: other bits`;
  }
  return '';
}

async function serve(session, feeds, reference, callers, runs, label) {
  let runsStarted = 0;
  let mismatches = 0;
  const latencies = [];
  const check = (outputs, which) => {
    const where = difference(session, reference, outputs);
    if (where === '') return;
    if (mismatches++ < MISMATCHES_PRINTED) {
      console.log(`MISMATCH|onnxruntime|${label}|${callers}|${which}|${where}`);
    }
  };
  // One untimed run per caller, all in flight together, as onyx_bench_serve's warm-up.
  await Promise.all(Array.from({length: callers}, async () => {
    check(await session.run(feeds), 'warm-up run');
  }));
  const caller = async () => {
    for (let run = runsStarted++; run < runs; run = runsStarted++) {
      const start = process.hrtime.bigint();
      const outputs = await session.run(feeds);
      latencies.push(milliseconds(start));
      check(outputs, `run ${run}`);
    }
  };
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({length: callers}, caller));
  const seconds = milliseconds(start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  latencies.sort((a, b) => a - b);
  return {latencies, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, mismatches};
}

async function main() {
  const [model, callersText, runsText] = process.argv.slice(2);
  if (!model) throw new Error('usage: serve_bench_ort.js MODEL.onnx [CALLERS] [RUNS]');
  const callerCounts = (callersText || '1,2,4,8').split(',').map(Number);
  if (callerCounts.some((count) => !(count >= 1))) throw new Error(`callers: ${callersText}`);
  const runs = Math.max(1, Number(runsText || 100));
  const feeds = readFeeds(ort, model);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  await session.run(feeds);  // as onyx_bench_serve: the reference is a warm run's
  const loneOutputs = await session.run(feeds);
  const reference = {};
  for (const name of session.outputNames) {
    // A copy: the reference must not share memory with anything a later run may reuse.
    reference[name] = {
      dims: loneOutputs[name].dims,
      bytes: Buffer.from(bytesOf(loneOutputs[name]))
    };
  }
  const label = path.basename(model);
  for (const callers of callerCounts) {
    const row = await serve(session, feeds, reference, callers, runs, label);
    const p50 = percentile(row.latencies, 0.5).toFixed(3);
    const p99 = percentile(row.latencies, 0.99).toFixed(3);
    console.log(
        `SERVE|onnxruntime|${label}|${callers}|${runs}|${(runs / row.seconds).toFixed(2)}|` +
        `${p50}|${p99}|${(row.cpuSeconds / row.seconds).toFixed(2)}|${row.mismatches}`);
  }
}

main().catch((error) => {
  console.error(`serve_bench_ort: ${error.message}`);
  process.exit(1);
});
