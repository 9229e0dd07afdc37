// A benchmark model's inputs as onnxruntime-node tensors: NAME.input.json lists the graph
// inputs (name, element type, dimensions, byte offset and length) and NAME.input.bin holds
// their elements one after another, raw little-endian (bench/make_eval_models.py writes both).
'use strict';
const fs = require('fs');

function readFeeds(ort, model) {
  const base = model.replace(/\.onnx$/, '');
  const manifest = JSON.parse(fs.readFileSync(`${base}.input.json`, 'utf8'));
  const bytes = fs.readFileSync(`${base}.input.bin`);
  const arrays = {float32: Float32Array, int64: BigInt64Array};
  const feeds = {};
  for (const input of manifest.inputs) {
    const TypedArray = arrays[input.type];
    if (!TypedArray) {
      throw new Error(`${base}.input.json: input '${input.name}' of type ${input.type}`);
    }
    // A copy: the typed array needs its own aligned buffer.
    const data = new TypedArray(bytes.buffer.slice(
        bytes.byteOffset + input.offset, bytes.byteOffset + input.offset + input.bytes));
    feeds[input.name] = new ort.Tensor(input.type, data, input.dims);
  }
  return feeds;
}

module.exports = {readFeeds};
